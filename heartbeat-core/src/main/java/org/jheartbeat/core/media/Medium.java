package org.jheartbeat.core.media;

import java.io.IOException;
import org.jheartbeat.core.wire.WirePacket;

/**
 * A heartbeat medium: one path over which cluster messages travel (Heartbeat 3.0.6 {@code HBcomm}
 * plugins: bcast, ucast, mcast, serial). Implementations only move bytes; they never decode,
 * authenticate or decide anything.
 */
public interface Medium extends AutoCloseable {

    /** The link name packets from this medium are attributed to: interface name or device path. */
    String linkName();

    /** A short description for logs, e.g. {@code ucast eth1 198.18.1.2:694}. */
    String describe();

    /**
     * Opens the medium and starts delivering inbound frames to {@code sink} (from an I/O thread).
     *
     * @throws IOException if the interface or device is missing, or the port cannot be bound
     */
    void start(FrameSink sink) throws IOException;

    /**
     * Sends one packet in this medium's encoding (netstring datagram or classic frame); best effort,
     * never blocks; errors are logged, rate-limited.
     */
    void send(WirePacket packet);

    /**
     * Sends one packet, telling a slow medium how to queue it ({@link org.jheartbeat.core.wire.Traffic}):
     * beats first, retransmissions dropped first. By default, as {@link #send(WirePacket)}.
     */
    default void send(WirePacket packet, org.jheartbeat.core.wire.Traffic traffic) {
        send(packet);
    }

    /**
     * Counters for {@code hb status}, e.g. {@code garbage bytes} on a serial line; name → value.
     * Safe to call from any thread. Empty by default.
     */
    default java.util.Map<String, Long> stats() {
        return java.util.Map.of();
    }

    /** Closes sockets or devices; idempotent. */
    @Override
    void close();
}
