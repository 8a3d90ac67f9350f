package org.jheartbeat.cli.logging;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * The daemon's logging once {@link LogSetup#configureDaemon} has set it up: every output behind a
 * {@link NonBlockingAppender}, one shared count of dropped lines, and a watcher thread that turns a
 * growing count into a rate-limited warning. {@link #close()} writes out what is queued, within a
 * bounded time.
 */
public final class DaemonLog implements AutoCloseable {
    /** The longest {@link #close()} waits for queued lines to be written, over all outputs, in ms. */
    public static final long FLUSH_TIMEOUT_MS = 2_000;

    private final List<NonBlockingAppender> outputs;
    private final LongAdder dropped;
    private final ScheduledExecutorService watcher;
    private final MonotonicClock clock;
    private final java.util.function.LongSupplier syslogLost;

    DaemonLog(List<NonBlockingAppender> outputs, LongAdder dropped, ScheduledExecutorService watcher,
              MonotonicClock clock, java.util.function.LongSupplier syslogLost) {
        this.outputs = List.copyOf(outputs);
        this.dropped = dropped;
        this.watcher = watcher;
        this.clock = clock;
        this.syslogLost = syslogLost;
    }

    /** Log lines dropped since start because an output was too slow, summed over all outputs. */
    public long droppedLines() {
        return dropped.sum();
    }

    /**
     * Syslog records lost since start because {@code /dev/log} did not take them ({@link SyslogStream});
     * 0 without {@code logfacility}.
     */
    public long syslogRecordsLost() {
        return syslogLost.getAsLong();
    }

    /**
     * Stops the watcher, then writes out every output's queue, waiting at most
     * {@link #FLUSH_TIMEOUT_MS} in all; an output still stuck after that is left behind (its lines are
     * lost with the process). Logging after this goes nowhere.
     */
    @Override
    public void close() {
        watcher.shutdownNow();
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FLUSH_TIMEOUT_MS);
        for (NonBlockingAppender a : outputs) {
            long leftMs = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - clock.nanoTime()));
            a.stop(leftMs);
        }
    }
}
