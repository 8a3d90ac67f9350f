package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.membership.SequenceTracker;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.jheartbeat.core.wire.Traffic;

/**
 * Heartbeat's flow control and retransmission (fact C.5) for the peer's sequenced frames: owns when to
 * (re)request the peer's missing packets ({@code NS_rexmit}, {@link RetransmitScheduler}) and the
 * acknowledgement trigger ({@code NS_ackmsg}); decides the acknowledgements, the retransmission requests,
 * the answers to the peer's requests and its NAKs ({@code NS_nak}: a packet lost for good), and the log
 * lines about gaps, as Heartbeat 3.0.6 does. Pure: time and the peer's {@link SequenceTracker} come in as
 * arguments; it returns the messages to send and the lines to log. Not thread-safe (the engine's thread
 * owns it).
 */
final class FlowControl {
    private final NodeName peer;
    /** 0..9: we acknowledge peer messages whose {@code seq % 10} equals it. */
    private final int ackTrigger;
    /** When to (re)request the peer's missing packets ({@code NS_rexmit}). */
    private final RetransmitScheduler rexmit = new RetransmitScheduler();

    /**
     * @param peer       the peer node
     * @param ackTrigger 0..9: we acknowledge peer messages whose {@code seq % 10} equals it (Heartbeat picks it
     *                   at random)
     */
    FlowControl(NodeName peer, int ackTrigger) {
        this.peer = peer;
        this.ackTrigger = ackTrigger;
    }

    /** The earliest monotonic instant at which a retransmission request is due. */
    long nextDeadlineNanos() {
        return rexmit.nextDeadlineNanos();
    }

    /**
     * Keeps the requests in step with the tracker's missing set after a frame was offered to it; logs gaps
     * as Heartbeat does (to {@code out}).
     *
     * @param verdict    the tracker's verdict on the frame
     * @param lastBefore the tracker's newest seq before it
     * @param seq        the frame's seq
     */
    void track(SequenceTracker.Verdict verdict, long lastBefore, long seq, SequenceTracker peerSeq, List<Effect> out,
               long now) {
        if (verdict == SequenceTracker.Verdict.RESTART) {
            rexmit.clear();
            return;
        }
        if (verdict == SequenceTracker.Verdict.ACCEPT && lastBefore > 0 && seq > lastBefore + 1
                && peerSeq.lastSeq() == seq && !peerSeq.missing().isEmpty()) {
            out.add(new Effect.LogLine(Level.WARN, (seq - lastBefore - 1) + " lost packet(s) for [" + peer + "] ["
                    + lastBefore + ":" + seq + "]"));
        }
        if (rexmit.track(peerSeq.missing(), now)) {
            out.add(new Effect.LogLine(Level.INFO, "No pkts missing from " + peer + "!"));
        }
    }

    /**
     * The acknowledgement after accepting {@code seq}: at {@code seq % 10 == trigger} when nothing is missing
     * below; when a retransmission closes the last gap, of the highest such seq. Empty when none is due.
     */
    Optional<HaMessage> ackFor(long seq, SequenceTracker peerSeq) {
        if (!peerSeq.missing().isEmpty() || seq % 10 != ackTrigger && seq >= peerSeq.lastSeq()) {
            return Optional.empty();
        }
        long last = peerSeq.lastSeq();
        long ack = last - Math.floorMod(last - ackTrigger, 10);
        if (ack > 0 && (seq == last || ack >= seq)) {
            return Optional.of(HaMessage.builder().add(Field.TYPE, MessageType.ACK.wireName())
                    .add(Field.DESTINATION, peer.value()).add(Field.ACK_SEQ, OutboundStamper.hex(ack)).build());
        }
        return Optional.empty();
    }

    /**
     * The peer's NAK: the packet it names is lost for good, and no longer asked for.
     *
     * @return the WARN to log when the tracker gave it up; empty when it was not missing
     */
    Optional<Effect.LogLine> nak(HaMessage m, SequenceTracker peerSeq) {
        long lost = FrameAdmission.parseHex(m.get(Field.FIRST_SEQ).orElse(""), -1);
        if (lost <= 0 || !peerSeq.giveUp(lost)) {
            return Optional.empty();
        }
        rexmit.giveUp(lost);
        return Optional.of(new Effect.LogLine(Level.WARN, "Irretrievably lost packet: node " + peer + " seq " + lost
                + " (" + m.get(Field.INFO).orElse("no reason") + ")"));
    }

    /**
     * The due {@code NS_rexmit} requests ({@code firstseq}/{@code lastseq} in decimal, as 3.0.6); none, and
     * nothing kept to ask, when the peer is not alive.
     */
    List<HaMessage> requestsDue(long now, boolean peerAlive) {
        List<HaMessage> out = new ArrayList<>();
        if (rexmit.isEmpty()) {
            return out;
        }
        if (!peerAlive) {
            rexmit.clear();
            return out;
        }
        for (long seq : rexmit.dueNow(now)) {
            out.add(HaMessage.builder().add(Field.TYPE, MessageType.RETRANSMIT_REQUEST.wireName())
                    .add(Field.DESTINATION, peer.value())
                    .add(Field.FIRST_SEQ, Long.toString(seq))
                    .add(Field.LAST_SEQ, Long.toString(seq)).build());
        }
        return out;
    }

    /**
     * Answers an {@code NS_rexmit}: each packet still kept is sent again (at most 50), unless it was less than
     * 240 ms ago (the same request arrives once per medium), as {@link Traffic#RETRANSMISSION}, which a slow
     * medium sends after everything else and drops first.
     */
    static void retransmit(HaMessage m, OutboundStamper stamper, List<Effect> out, long now) {
        long first = parseDecimal(m.get(Field.FIRST_SEQ).orElse(""));
        long last = parseDecimal(m.get(Field.LAST_SEQ).orElse(""));
        if (first <= 0 || last < first) {
            return;
        }
        for (long s = first; s <= last && s < first + 50; s++) {
            stamper.resend(s, now).ifPresent(p -> out.add(new Effect.Transmit(p, Traffic.RETRANSMISSION)));
        }
    }

    private static long parseDecimal(String s) {
        if (s.isEmpty() || s.length() > 18) {
            return -1;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
