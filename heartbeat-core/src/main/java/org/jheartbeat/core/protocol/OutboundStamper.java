package org.jheartbeat.core.protocol;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.jheartbeat.core.wire.Traffic;
import org.jheartbeat.core.wire.WirePacket;

/**
 * Adds the control fields Heartbeat 3.0.6 appends to every outgoing message ({@code
 * add_control_msg_fields}, facts C.1) and encodes the result for UDP and serial media: {@code destuuid} (when the
 * message has a {@code dest} whose UUID we know), {@code src}, {@code srcuuid}, {@code seq} (hex,
 * from 1, not on {@code NS_} types), {@code hg} (hex generation), {@code ts} (hex seconds),
 * {@code ld} (load average, not on {@code NS_} types), {@code ttl}, then the inner {@code auth=}
 * field (msgfmt classic) and, for UDP, the netstring trailer.
 *
 * <p>Keeps the last {@value #HISTORY} sequenced packets, byte for byte, to answer {@code NS_rexmit}.
 * Pure apart from the injected load-average supplier; not thread-safe.
 */
public final class OutboundStamper {
    /** Packets kept for retransmission (Heartbeat's MAXMSGHIST). */
    public static final int HISTORY = 500;
    /**
     * A packet is sent again at most once in this interval, ns: Heartbeat's {@code max_rexmit_delay}
     * (250 ms, the peer's request interval) less 10 ms (facts C.4).
     */
    public static final long RESEND_INTERVAL_NANOS = 240_000_000L;
    /** {@code ttl}: hopfudge (1) + node count (2), never used by anyone in 3.0.6 but always sent. */
    private static final String TTL = "3";

    private final NodeName me;
    private final byte[] uuid;
    private final long generation;
    private MessageAuthenticator authenticator;
    private final Supplier<String> loadAverage;
    private final WirePacket[] history = new WirePacket[HISTORY];
    private final long[] historySeq = new long[HISTORY];
    /** When each kept packet was last sent again (monotonic ns); MIN_VALUE: never. */
    private final long[] historyResentNanos = new long[HISTORY];
    private long lastSeq;

    /**
     * @param me            our node name ({@code src})
     * @param uuid          our 16-byte node UUID ({@code srcuuid})
     * @param generation    our generation ({@code hg})
     * @param authenticator signs with the {@code auth N} key
     * @param loadAverage   first line of {@code /proc/loadavg}, or {@code n/a}
     */
    public OutboundStamper(NodeName me, byte[] uuid, long generation, MessageAuthenticator authenticator,
                           Supplier<String> loadAverage) {
        this.me = me;
        this.uuid = uuid.clone();
        this.generation = generation;
        this.authenticator = authenticator;
        this.loadAverage = loadAverage;
    }

    /**
     * Stamps {@code body} as {@link #stamp}, with {@code peerUuid} as its {@code destuuid} when it is addressed to
     * {@code peer}, tagged with its traffic class for the media's counters: a beat ({@code status}), a
     * retransmission request, or any other message.
     *
     * @param peerUuid the peer's UUID from its frames, or null while none was heard
     */
    Effect.Transmit transmit(HaMessage body, long wallMillis, NodeName peer, byte[] peerUuid) {
        boolean toPeer = body.get(Field.DESTINATION).map(peer.value()::equals).orElse(false);
        MessageType type = body.messageType().orElse(null);
        Traffic traffic = type == MessageType.STATUS ? Traffic.BEAT
                : type == MessageType.RETRANSMIT_REQUEST ? Traffic.RETRANSMISSION : Traffic.MESSAGE;
        return new Effect.Transmit(stamp(body, wallMillis,
                toPeer && peerUuid != null ? Optional.of(peerUuid) : Optional.empty()), traffic);
    }

    /**
     * Stamps and encodes one message.
     *
     * @param body       the type-specific fields, {@code t} first
     * @param wallMillis wall-clock time for {@code ts}, ms since the epoch
     * @param destUuid   the UUID of the {@code dest} node, when the message has a {@code dest} and we know it
     * @return the packet, encoded for UDP and for serial lines
     */
    public WirePacket stamp(HaMessage body, long wallMillis, Optional<byte[]> destUuid) {
        boolean unsequenced = body.messageType().map(MessageType::unsequenced).orElse(false);
        HaMessage m = body;
        if (body.get(Field.DESTINATION).isPresent() && destUuid.isPresent()) {
            m = m.withBinary(Field.DESTINATION_UUID, destUuid.get());
        }
        m = m.with(Field.SOURCE, me.value()).withBinary(Field.SOURCE_UUID, uuid);
        long seq = 0;
        if (!unsequenced) {
            seq = ++lastSeq;
            m = m.with(Field.SEQ, hex(seq));
        }
        m = m.with(Field.GENERATION, hex(generation)).with(Field.TIMESTAMP, hex(wallMillis / 1000));
        if (!unsequenced) {
            m = m.with(Field.LOAD, loadAverage.get());
        }
        m = m.with(Field.TTL, TTL);
        WirePacket packet = WirePacket.of(m, authenticator);
        if (!unsequenced) {
            int slot = (int) (seq % HISTORY);
            history[slot] = packet;
            historySeq[slot] = seq;
            historyResentNanos[slot] = Long.MIN_VALUE;
        }
        return packet;
    }

    /** The packet sent with sequence number {@code seq}, if still kept. */
    public Optional<WirePacket> sent(long seq) {
        int slot = (int) (seq % HISTORY);
        return seq > 0 && historySeq[slot] == seq ? Optional.of(history[slot]) : Optional.empty();
    }

    /**
     * The packet to send again for an {@code NS_rexmit} of {@code seq}, unless it was already sent again
     * less than {@link #RESEND_INTERVAL_NANOS} ago (Heartbeat 3.0.6 {@code process_rexmit}, facts C.4: the
     * peer asks on every medium and every 250 ms, and one answer per interval is enough). Records the
     * resend.
     *
     * @param seq      the sequence number asked for
     * @param nowNanos monotonic time, ns
     * @return the packet, or empty if it is no longer kept or was just sent again
     */
    public Optional<WirePacket> resend(long seq, long nowNanos) {
        int slot = (int) (seq % HISTORY);
        if (seq <= 0 || historySeq[slot] != seq) {
            return Optional.empty();
        }
        long last = historyResentNanos[slot];
        if (last != Long.MIN_VALUE && nowNanos - last < RESEND_INTERVAL_NANOS) {
            return Optional.empty();
        }
        historyResentNanos[slot] = nowNanos;
        return Optional.of(history[slot]);
    }

    /** Highest sequence number sent so far (0 before the first). */
    public long lastSeq() {
        return lastSeq;
    }

    /** Our 16-byte node UUID. */
    public byte[] uuid() {
        return uuid.clone();
    }

    /** The authenticator used to sign (and, for inbound packets, to verify). */
    public MessageAuthenticator authenticator() {
        return authenticator;
    }

    /**
     * A reload read new authkeys: packets from now on are signed with, and inbound ones verified
     * against, {@code next}. Packets kept for retransmission stay signed with the keys they were sent with.
     */
    public void rekey(MessageAuthenticator next) {
        this.authenticator = java.util.Objects.requireNonNull(next, "next");
    }

    /** Our generation. */
    public long generation() {
        return generation;
    }

    /** Lowercase hex without padding, as Heartbeat prints {@code seq}, {@code hg}, {@code ts}. */
    public static String hex(long v) {
        return Long.toHexString(v).toLowerCase(Locale.ROOT);
    }
}
