package org.jheartbeat.core.media.serial;

import java.util.ArrayDeque;

/**
 * The serial writer's queue: bounded by total bytes; when a new frame does not fit, the oldest frames
 * are dropped (a newer heartbeat supersedes an older one). {@link #offer(byte[])} never blocks.
 * Thread-safe: any thread offers, the one writer thread takes.
 */
final class SendQueue {
    private final ArrayDeque<byte[]> frames = new ArrayDeque<>();
    private final long capacityBytes;
    private long queuedBytes;
    private long dropped;

    /** @param capacityBytes total bytes held at most; positive */
    SendQueue(long capacityBytes) {
        if (capacityBytes <= 0) {
            throw new IllegalArgumentException("capacityBytes must be positive, got " + capacityBytes);
        }
        this.capacityBytes = capacityBytes;
    }

    /**
     * Queues {@code frame}, dropping the oldest frames until it fits; a frame larger than the whole
     * capacity is dropped itself.
     *
     * @return the number of frames dropped by this call
     */
    synchronized int offer(byte[] frame) {
        if (frame.length > capacityBytes) {
            dropped++;
            return 1;
        }
        int n = 0;
        while (queuedBytes + frame.length > capacityBytes) {
            queuedBytes -= frames.removeFirst().length;
            n++;
        }
        frames.addLast(frame);
        queuedBytes += frame.length;
        dropped += n;
        notifyAll();
        return n;
    }

    /**
     * The oldest frame, waiting for one.
     *
     * @throws InterruptedException if the writer is interrupted (the medium is closing)
     */
    synchronized byte[] take() throws InterruptedException {
        while (frames.isEmpty()) {
            wait();
        }
        byte[] f = frames.removeFirst();
        queuedBytes -= f.length;
        return f;
    }

    /** Drops everything queued (counted as dropped); returns the number of frames dropped. */
    synchronized int clear() {
        int n = frames.size();
        frames.clear();
        queuedBytes = 0;
        dropped += n;
        return n;
    }

    /** Frames dropped so far, by overflow or {@link #clear()}. */
    synchronized long dropped() {
        return dropped;
    }

    /** Bytes queued now. */
    synchronized long queuedBytes() {
        return queuedBytes;
    }
}
