package org.jheartbeat.core.loop;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the received frames waiting in the cluster loop's queue. Media post every frame they read
 * from their own threads; a flood on a medium (or a loop slowed down) would otherwise grow the queue
 * without end, and with it the heap and the delay of every timer tick and group result queued behind
 * it. A frame beyond {@link #maxWaiting()} is dropped and counted (as the kernel drops a datagram on a
 * full socket buffer; Heartbeat's lost packets are retransmitted or superseded by the next beat), and
 * the loop logs the drops at most once per {@link #REPORT_INTERVAL_NANOS}. Only frames are bounded:
 * timer ticks, group results and control requests are never dropped.
 *
 * <p>{@link #admit()} and {@link #taken()} are called from any thread; {@link #report} on the loop
 * thread only.
 */
final class InboundFrameLimit {
    /** Frames that may wait in the loop's queue at once. */
    static final int MAX_WAITING = 1_000;
    /** Minimum gap between two log lines about dropped frames, in ns (10 s, as bad packets). */
    static final long REPORT_INTERVAL_NANOS = 10_000_000_000L;

    private final int maxWaiting;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private long reported;
    private long lastReportNanos;
    private boolean everReported;

    InboundFrameLimit(int maxWaiting) {
        if (maxWaiting < 1) {
            throw new IllegalArgumentException("maxWaiting must be at least 1: " + maxWaiting);
        }
        this.maxWaiting = maxWaiting;
    }

    /**
     * A frame arrived: whether it may be queued (then {@link #taken()} must follow when the loop takes
     * it), or is dropped (counted) because {@link #maxWaiting()} frames already wait.
     */
    boolean admit() {
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            dropped.incrementAndGet();
            return false;
        }
        return true;
    }

    /** The loop took an admitted frame off its queue. */
    void taken() {
        waiting.decrementAndGet();
    }

    /**
     * The log line about frames dropped since the last one, when there are some and the last line is at
     * least {@link #REPORT_INTERVAL_NANOS} old (the first drop is reported at once).
     *
     * @param nowNanos the loop's monotonic time
     */
    Optional<String> report(long nowNanos) {
        long total = dropped.get();
        if (total == reported || everReported && nowNanos - lastReportNanos < REPORT_INTERVAL_NANOS) {
            return Optional.empty();
        }
        String line = "Dropped " + (total - reported) + " received frame(s): " + maxWaiting + " were already waiting"
                + " for the cluster loop (a flood on a medium, or the loop is slowed down) [" + total
                + " dropped since start]";
        reported = total;
        lastReportNanos = nowNanos;
        everReported = true;
        return Optional.of(line);
    }

    /** Frames dropped since start. */
    long dropped() {
        return dropped.get();
    }

    /** Frames waiting in the loop's queue now. */
    int waiting() {
        return waiting.get();
    }

    /** The bound. */
    int maxWaiting() {
        return maxWaiting;
    }
}
