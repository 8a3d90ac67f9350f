package org.jheartbeat.core.media.serial;

import java.util.ArrayDeque;
import org.jheartbeat.core.wire.Traffic;

/**
 * The serial writer's queue: one lane per {@link Traffic} kind, bounded by total bytes (the caller
 * sizes it in seconds of line time, {@link SerialMedium#sendQueueBytes}).
 *
 * <ul>
 *   <li>The writer takes beats first, then other messages, then retransmissions (each lane oldest
 *       first): a beat waits at most for the frame being written, never behind a backlog. A 19200 baud
 *       line carries about 1,900 bytes a second; after a cut of the other media the peer asks for each
 *       missing packet every 250 ms on every medium (facts C.4), and the answers alone can fill the
 *       line for minutes. Heartbeat 3.0.6 writes them in order (its writer blocks on the tty), so its
 *       beats wait behind them and the peer declares it dead while its frames still arrive.</li>
 *   <li>When a new frame does not fit, retransmissions are dropped first, then other messages, then
 *       beats, oldest first in each lane; a retransmission never pushes out anything but an older
 *       retransmission (it is dropped itself instead), and one already queued, the very same frame, is
 *       not queued twice (the peer asked again before the first copy went out).</li>
 * </ul>
 * {@link #offer} never blocks. Thread-safe: any thread offers, the one writer thread takes; the
 * simulator drives it with {@link #poll()} on its own clock.
 */
public final class SendQueue {
    private static final Traffic[] ORDER = Traffic.values(); // BEAT, MESSAGE, RETRANSMISSION
    private final java.util.List<ArrayDeque<byte[]>> lanes = new java.util.ArrayList<>();
    private final long capacityBytes;
    private long queuedBytes;
    private long dropped;

    /** @param capacityBytes total bytes held at most; positive */
    public SendQueue(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("capacityBytes must be positive, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
        for (int i = 0; i < ORDER.length; i++) {
            lanes.add(new ArrayDeque<>());
        }
    }

    /** Queues a frame sent for the first time, not a beat ({@link Traffic#MESSAGE}). */
    int offer(byte[] frame) {
        return offer(frame, Traffic.MESSAGE);
    }

    /**
     * Queues {@code frame} in its lane, dropping frames of its own or a lower lane (retransmissions
     * first, oldest first) until it fits; a frame that cannot fit so is dropped itself.
     *
     * @return the number of frames dropped by this call (the new one included, if dropped)
     */
    public synchronized int offer(byte[] frame, Traffic traffic) {
        ArrayDeque<byte[]> lane = lanes.get(traffic.ordinal());
        if (traffic == Traffic.RETRANSMISSION && containsSame(lane, frame)) {
            return 0;
        }
        long before = dropped;
        if (frame.length > capacityBytes || !makeRoom(frame.length, traffic)) {
            dropped++;
            return 1;
        }
        lane.addLast(frame);
        queuedBytes += frame.length;
        notifyAll();
        return (int) (dropped - before);
    }

    /**
     * Drops frames of {@code traffic}'s lane or lower, lowest lane and oldest first, until {@code bytes}
     * more fit; drops nothing when they cannot be made to fit.
     */
    private boolean makeRoom(int bytes, Traffic traffic) {
        long droppable = 0;
        for (int i = traffic.ordinal(); i < lanes.size(); i++) {
            for (byte[] f : lanes.get(i)) {
                droppable += f.length;
            }
        }
        if (queuedBytes - droppable + bytes > capacityBytes) {
            return false;
        }
        for (int i = lanes.size() - 1; queuedBytes + bytes > capacityBytes; ) {
            if (lanes.get(i).isEmpty()) {
                i--;
                continue;
            }
            queuedBytes -= lanes.get(i).removeFirst().length;
            dropped++;
        }
        return true;
    }

    private static boolean containsSame(ArrayDeque<byte[]> lane, byte[] frame) {
        for (byte[] f : lane) {
            if (f == frame || java.util.Arrays.equals(f, frame)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The next frame to write (a beat first, then a message, then a retransmission), waiting for one.
     *
     * @throws InterruptedException if the writer is interrupted (the medium is closing)
     */
    synchronized byte[] take() throws InterruptedException {
        byte[] f;
        while ((f = poll()) == null) {
            wait();
        }
        return f;
    }

    /** The next frame to write, as {@link #take()} picks it, or {@code null} if nothing is queued. */
    public synchronized byte[] poll() {
        for (ArrayDeque<byte[]> lane : lanes) {
            byte[] f = lane.pollFirst();
            if (f != null) {
                queuedBytes -= f.length;
                return f;
            }
        }
        return null;
    }

    /** Drops everything queued (counted as dropped); returns the number of frames dropped. */
    public synchronized int clear() {
        int n = 0;
        for (ArrayDeque<byte[]> lane : lanes) {
            n += lane.size();
            lane.clear();
        }
        queuedBytes = 0;
        dropped += n;
        return n;
    }

    /** Frames dropped so far, by overflow or {@link #clear()}. */
    public synchronized long dropped() {
        return dropped;
    }

    /** Bytes queued now. */
    public synchronized long queuedBytes() {
        return queuedBytes;
    }
}
