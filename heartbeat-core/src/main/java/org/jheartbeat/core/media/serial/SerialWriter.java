package org.jheartbeat.core.media.serial;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.wire.Traffic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serial writer thread's work: drains a {@link SendQueue} (beats first) onto the current {@link SerialLine} in
 * 512-byte fragments paced by {@link SerialPacer} (Heartbeat 3.0.6 {@code serial.c}
 * {@code serial_write}/{@code ttyputs}; facts G.1).
 *
 * <p>Write timeouts, as Heartbeat's 500 ms alarm around each fragment: a fragment cut short by the
 * driver, or a write still blocked after 500 ms (noticed by {@link #checkStall()}, which the reader
 * thread calls, because jSerialComm cannot time out a write into a full pseudo-terminal) logs
 * {@code TTY write timeout on [dev] (no connection or bad cable? [see documentation])}, at most once an
 * hour. Frames queued during a stall are dropped when it ends: they would all arrive late. A write
 * error is handed to {@code onWriteError}, so the reader thread closes and reopens the line.
 */
final class SerialWriter implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SerialWriter.class);
    private static final long NOT_WRITING = Long.MIN_VALUE;
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(SerialLine.WRITE_TIMEOUT_MS);
    private static final long TIMEOUT_LOG_INTERVAL_NANOS = TimeUnit.HOURS.toNanos(1);

    private final Path devicePath;
    private final SerialPacer pacer;
    private final MonotonicClock clock;
    private final SendQueue queue;
    private final Supplier<SerialLine> currentLine;
    private final BiConsumer<SerialLine, String> onWriteError;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong writeTimeouts = new AtomicLong();
    private volatile long writeStartedNanos = NOT_WRITING;
    private volatile boolean stalled;
    private boolean timeoutLogged;
    private long lastTimeoutLogNanos;

    /**
     * @param devicePath    the device as configured, for log lines
     * @param baud          line speed, bits/s
     * @param queueBytes    send queue bound, bytes
     * @param currentLine   the open line, or {@code null} while it is down
     * @param onWriteError  told of a line whose write failed, with a reason
     */
    SerialWriter(Path devicePath, int baud, long queueBytes, MonotonicClock clock,
                 Supplier<SerialLine> currentLine, BiConsumer<SerialLine, String> onWriteError) {
        this.devicePath = devicePath;
        this.pacer = new SerialPacer(baud);
        this.clock = clock;
        this.queue = new SendQueue(queueBytes);
        this.currentLine = currentLine;
        this.onWriteError = onWriteError;
    }

    /** Queues a frame sent for the first time, not a beat; never blocks. Dropped (and counted) while the line is down. */
    void offer(byte[] frame) {
        offer(frame, Traffic.MESSAGE);
    }

    /**
     * Queues a frame in its {@link SendQueue} lane (beats are written first, retransmissions dropped
     * first); never blocks. Dropped (and counted) while the line is down.
     */
    void offer(byte[] frame, Traffic traffic) {
        if (currentLine.get() == null) {
            dropped.incrementAndGet();
        } else {
            queue.offer(frame, traffic);
        }
    }

    /** Frames not fully written: queue overflow, line down, write timeout or error. */
    long dropped() {
        return dropped.get() + queue.dropped();
    }

    /** Fragment writes cut short or blocked for over 500 ms. */
    long writeTimeouts() {
        return writeTimeouts.get();
    }

    /** Runs until interrupted. */
    @Override
    public void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                byte[] frame = queue.take();
                SerialLine line = currentLine.get();
                if (line == null) {
                    dropped.incrementAndGet();
                    continue;
                }
                writeFrame(line, frame);
                if (stalled) {
                    stalled = false;
                    queue.clear();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Called periodically from another thread: notices a fragment write blocked for over 500 ms. */
    void checkStall() {
        long started = writeStartedNanos;
        long now = clock.nanoTime();
        if (started != NOT_WRITING && now - started >= STALL_NANOS && !stalled) {
            stalled = true;
            writeTimeouts.incrementAndGet();
            logTimeout(now);
        }
    }

    private void writeFrame(SerialLine line, byte[] frame) throws InterruptedException {
        int off = 0;
        while (off < frame.length) {
            long delay = pacer.delayNanos(clock.nanoTime());
            if (delay > 0) {
                LockSupport.parkNanos(delay);
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
                continue;
            }
            int n = pacer.nextFragmentBytes(frame.length - off);
            long now = clock.nanoTime();
            writeStartedNanos = now;
            int written = line.write(frame, off, n);
            writeStartedNanos = NOT_WRITING;
            if (written < 0) {
                dropped.incrementAndGet();
                onWriteError.accept(line, "write error (errno " + line.lastErrorCode() + ")");
                return;
            }
            pacer.wrote(written, now);
            if (written < n) {
                dropped.incrementAndGet();
                writeTimeouts.incrementAndGet();
                logTimeout(clock.nanoTime());
                return;
            }
            off += written;
        }
    }

    private synchronized void logTimeout(long now) {
        if (!timeoutLogged || now - lastTimeoutLogNanos >= TIMEOUT_LOG_INTERVAL_NANOS) {
            LOG.warn("TTY write timeout on [{}] (no connection or bad cable? [see documentation])", devicePath);
            timeoutLogged = true;
            lastTimeoutLogNanos = now;
        }
    }
}
