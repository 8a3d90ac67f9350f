package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.Sleeper;

/**
 * Puts one output (stderr, a log file) behind a bounded queue and a writer thread of its own, so the
 * thread that logs (the cluster loop above all) never waits for the output: when the queue is full,
 * the line is dropped and counted instead. When less than a fifth of the queue is free, info and debug
 * lines are dropped first so that warnings still get through (the rule of logback's
 * {@code AsyncAppender}, whose {@code neverBlock} mode drops without counting).
 *
 * <p>Filters attached here run on the caller's thread, before the queue, so lines an output does not
 * want never take a slot. The wrapped appender is started and stopped by this one.
 */
public final class NonBlockingAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {
    private static final long FLUSH_POLL_MS = 5;
    private static final java.time.Duration FLUSH_POLL = java.time.Duration.ofMillis(FLUSH_POLL_MS);
    private final Appender<ILoggingEvent> output;
    private final BlockingQueue<ILoggingEvent> queue;
    private final int capacity;
    private final LongAdder dropped;
    private final MonotonicClock clock;
    private final Sleeper sleeper;
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private volatile Thread writer;

    /**
     * @param output   the appender that does the writing (started here if it is not yet)
     * @param capacity queue length in lines, at least 5
     * @param dropped  incremented once per line dropped here; may be shared by several appenders
     * @param clock    for the bounded wait of {@link #flush(long)}
     * @throws IllegalArgumentException if capacity is below 5
     */
    public NonBlockingAppender(Appender<ILoggingEvent> output, int capacity, LongAdder dropped, MonotonicClock clock) {
        this(output, capacity, dropped, clock, Sleeper.system());
    }

    /**
     * @param output   the appender that does the writing (started here if it is not yet)
     * @param capacity queue length in lines, at least 5
     * @param dropped  incremented once per line dropped here; may be shared by several appenders
     * @param clock    for the bounded wait of {@link #flush(long)}
     * @param sleeper  the {@value #FLUSH_POLL_MS} ms pause between checks in {@link #flush(long)}
     * @throws IllegalArgumentException if capacity is below 5
     */
    public NonBlockingAppender(Appender<ILoggingEvent> output, int capacity, LongAdder dropped, MonotonicClock clock,
                               Sleeper sleeper) {
        if (capacity < 5) {
            throw new IllegalArgumentException("queue capacity " + capacity + " is below 5");
        }
        this.output = output;
        this.capacity = capacity;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.dropped = dropped;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public void start() {
        if (isStarted()) {
            return;
        }
        if (!output.isStarted()) {
            output.start();
        }
        Thread t = new Thread(this::writeLoop, "hb-log-" + (getName() != null ? getName() : output.getName()));
        t.setDaemon(true);
        writer = t;
        super.start();
        t.start();
    }

    /** Never blocks: queues the line, or drops and counts it. */
    @Override
    protected void append(ILoggingEvent event) {
        event.prepareForDeferredProcessing();
        boolean minor = !event.getLevel().isGreaterOrEqual(Level.WARN);
        if (minor && queue.remainingCapacity() < capacity / 5 || !queue.offer(event)) {
            dropped.increment();
            return;
        }
        queued.incrementAndGet();
    }

    private void writeLoop() {
        try {
            while (true) {
                ILoggingEvent e = queue.take();
                try {
                    output.doAppend(e);
                } catch (RuntimeException ex) {
                    addError("output " + output.getName() + " failed", ex);
                } finally {
                    written.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            // stop() after the queue was written out
        }
    }

    /**
     * Waits until every line queued so far is written, or the time is up.
     *
     * @param timeoutMillis the longest wait, in ms
     * @return whether everything was written
     */
    public boolean flush(long timeoutMillis) {
        long target = queued.get();
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (written.get() < target) {
            if (clock.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                sleeper.pause(FLUSH_POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Lines waiting in the queue right now. */
    public int queued() {
        return queue.size();
    }

    /**
     * Stops taking lines, writes out what is queued (waiting at most {@code timeoutMillis}), then stops
     * the writer thread and the output. If the output is stuck, both are left alone: the writer is a
     * daemon thread and dies with the JVM, and stopping the output would wait for the stuck write.
     *
     * @param timeoutMillis the longest wait for queued lines, in ms
     * @return whether everything queued was written
     */
    public boolean stop(long timeoutMillis) {
        if (!isStarted()) {
            return true;
        }
        super.stop();
        boolean done = flush(timeoutMillis);
        if (done) {
            writer.interrupt();
            output.stop();
        }
        return done;
    }

    /** {@link #stop(long)} with a 1 s wait (logback calls this on a reset of its context). */
    @Override
    public void stop() {
        stop(1_000);
    }
}
