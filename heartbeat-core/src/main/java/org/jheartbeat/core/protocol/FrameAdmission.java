package org.jheartbeat.core.protocol;

import java.util.Arrays;
import java.util.Optional;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.membership.SequenceTracker;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;

/**
 * The receive path's sequence check for a frame from the peer: owns the newest frame each link carried
 * ({@link LinkSequences}) and decides, with the peer's {@link SequenceTracker} (which it advances), whether
 * the frame is bad (no or a bad seqno/generation), from before (an older generation, a stale seq, a
 * repeat on the same link: counted as stale), a copy of an older frame (dropped without a word), or
 * admitted. Frames from before are dropped here, before they refresh a link or the node's liveness
 * (Heartbeat 3.0.6 {@code should_drop_message}: DROPIT updates nothing). Pure: no time, no I/O. Not
 * thread-safe (the engine's thread owns it).
 */
final class FrameAdmission {
    private final LinkSequences linkSeqs = new LinkSequences();

    /** What the check decided. */
    sealed interface Result permits Bad, Stale, Dropped, Admitted { }

    /** A malformed frame: counted as a bad packet, with {@code reason}. */
    record Bad(String reason) implements Result { }

    /** A frame from before: counted as stale, with {@code detail} for the log. */
    record Stale(StaleFrameCounter.Reason reason, String detail) implements Result { }

    /** A copy of an older frame (over another link, or held by a line): dropped, refreshing nothing. */
    record Dropped() implements Result { }

    /**
     * An admitted frame.
     *
     * @param unsequenced an {@code NS_} frame (no seq; refreshes no link)
     * @param hg          its generation
     * @param seq         its seq (0 when unsequenced)
     * @param lastBefore  the tracker's newest seq before it
     * @param verdict     the tracker's verdict ({@code ACCEPT} for an unsequenced frame)
     */
    record Admitted(boolean unsequenced, long hg, long seq, long lastBefore, SequenceTracker.Verdict verdict)
            implements Result { }

    /**
     * Whether {@code m} is addressed to this node: its destination UUID when it has one that is not all
     * zeros, else its destination name (case-insensitive); a message without a destination is for everyone.
     *
     * @param me      this node
     * @param ourUuid our node UUID
     */
    static boolean isFor(HaMessage m, NodeName me, byte[] ourUuid) {
        Optional<byte[]> destUuid = m.getBinary(Field.DESTINATION_UUID);
        if (destUuid.isPresent() && !allZero(destUuid.get())) {
            return Arrays.equals(destUuid.get(), ourUuid);
        }
        return m.get(Field.DESTINATION).map(d -> d.equalsIgnoreCase(me.value())).orElse(true);
    }

    /** {@code s} as a hexadecimal number (at most 15 digits), or {@code fallback}. */
    static long parseHex(String s, long fallback) {
        if (s.isEmpty() || s.length() > 15) {
            return fallback;
        }
        try {
            return Long.parseLong(s, 16);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks the peer's frame {@code message} of type {@code type} that arrived on {@code link}.
     *
     * @param from    the peer, for log details
     * @param peerSeq the peer's sequence tracker: offered the frame's seq
     */
    Result admit(HaMessage message, String type, NodeName from, String link, SequenceTracker peerSeq) {
        boolean unsequenced = type.startsWith("NS_");
        long hg = parseHex(message.get(Field.GENERATION).orElse("0"), -1);
        long seq = unsequenced ? 0 : parseHex(message.get(Field.SEQ).orElse(""), -1);
        if (hg < 0 || (!unsequenced && seq <= 0)) {
            return new Bad("missing or bad seqno/generation");
        }
        // NS_ frames carry no seq; one that carries an hg older than the tracked generation is from before
        if (unsequenced && message.get(Field.GENERATION).isPresent() && hg < peerSeq.generation()) {
            return new Stale(StaleFrameCounter.Reason.OLD_GENERATION, from + " " + type + " gen " + hg
                    + " (tracking gen " + peerSeq.generation() + ")");
        }
        long lastBefore = peerSeq.lastSeq();
        long genBefore = peerSeq.generation();
        SequenceTracker.Verdict verdict = unsequenced ? SequenceTracker.Verdict.ACCEPT : peerSeq.offer(hg, seq);
        if (verdict == SequenceTracker.Verdict.REPLAY) {
            return new Stale(StaleFrameCounter.Reason.OLD_GENERATION, from + " " + type + " gen " + hg + " seq "
                    + seq + " (tracking gen " + genBefore + ")");
        }
        if (verdict == SequenceTracker.Verdict.STALE) {
            return new Stale(StaleFrameCounter.Reason.STALE_SEQUENCE, from + " " + type + " gen " + hg + " seq "
                    + seq + " (newest seq " + lastBefore + ")");
        }
        boolean newOnLink = unsequenced || linkSeqs.newOn(link, hg, seq); // NS_ frames refresh no link
        if (verdict == SequenceTracker.Verdict.DUPLICATE && !newOnLink) {
            // this link carried it already: duplicated on the way, or replayed; refreshes nothing
            return new Stale(StaleFrameCounter.Reason.REPEATED_ON_LINK, from + " " + type + " gen " + hg + " seq "
                    + seq + " on " + link);
        }
        if (verdict == SequenceTracker.Verdict.DUPLICATE && seq != peerSeq.lastSeq()) {
            // Heartbeat drops it without refreshing anything; only a copy of the newest one refreshes its link
            return new Dropped();
        }
        return new Admitted(unsequenced, hg, seq, lastBefore, verdict);
    }
}
