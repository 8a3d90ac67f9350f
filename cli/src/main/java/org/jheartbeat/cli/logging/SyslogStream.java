package org.jheartbeat.cli.logging;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * The output stream of the syslog output: each {@code write} is one record, sent as one datagram to
 * the local syslog socket ({@code /dev/log}); it never throws and never waits. When the socket is
 * missing, refuses (no syslog daemon, journald restarting) or is full, the record is dropped and
 * counted, that is reported once through {@link Reporter}, and no record is sent for
 * {@link #RETRY_INTERVAL_S} s (dropped and counted too); the first record sent after that is reported
 * once, with the count. glibc's {@code syslog(3)} likewise drops what it cannot send (it would fall
 * back to the console with {@code LOG_CONS}, which a daemon does not use). Used from one writer thread
 * ({@link NonBlockingAppender}) only.
 */
public final class SyslogStream extends RecordStream {
    /** How long after a failed send records are dropped without trying, in s. */
    public static final long RETRY_INTERVAL_S = 10;

    /** Sends one datagram to the syslog socket. */
    public interface DatagramSender extends AutoCloseable {
        /**
         * Sends {@code record} as one datagram, without waiting.
         *
         * @throws IOException when it was not sent (no socket, refused, socket buffer full)
         */
        void send(byte[] record) throws IOException;

        /** The socket's path, for reports. */
        String describe();

        @Override
        void close();
    }

    /** Receives the two reports; it must not block (the daemon logs them through its queues). */
    public interface Reporter {
        /** Sending to {@code socket} failed; records are dropped from now on, retried later. */
        void unavailable(String socket, String reason);

        /** Sending works again; {@code recordsLost} records were dropped meanwhile. */
        void available(String socket, long recordsLost);
    }

    private final DatagramSender sender;
    private final Reporter reporter;
    private final MonotonicClock clock;
    private long retryAtNanos;
    private long lost;
    private volatile long lostTotal;

    /**
     * @param sender   the socket
     * @param reporter told when sending fails and when it works again
     * @param clock    for the retry interval
     */
    public SyslogStream(DatagramSender sender, Reporter reporter, MonotonicClock clock) {
        this.sender = sender;
        this.reporter = reporter;
        this.clock = clock;
    }

    /** Sends one record; on an error the record is lost and counted (see the class comment). */
    @Override
    public void write(byte[] b, int off, int len) {
        long now = clock.nanoTime();
        if (failing && now - retryAtNanos < 0) {
            lose();
            return;
        }
        byte[] record = off == 0 && len == b.length ? b : java.util.Arrays.copyOfRange(b, off, off + len);
        try {
            sender.send(record);
        } catch (IOException e) {
            lose();
            retryAtNanos = now + TimeUnit.SECONDS.toNanos(RETRY_INTERVAL_S);
            if (!failing) {
                failing = true;
                reporter.unavailable(sender.describe(), e.getMessage() != null ? e.getMessage() : e.toString());
            }
            return;
        }
        if (failing) {
            failing = false;
            reporter.available(sender.describe(), lost);
            lost = 0;
        }
    }

    private void lose() {
        lost++;
        lostTotal++;
    }

    /** Records dropped since start because the socket did not take them. */
    public long recordsLost() {
        return lostTotal;
    }

    @Override
    public void close() {
        sender.close();
    }
}
