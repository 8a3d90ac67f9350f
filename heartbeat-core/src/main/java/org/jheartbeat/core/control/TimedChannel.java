package org.jheartbeat.core.control;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * Reads and writes a control-socket connection with deadlines: the channel is put in non-blocking
 * mode and waited on with its own {@link Selector}, so a peer that sends or reads nothing can hold a
 * thread only until the deadline. Used by both ends ({@link ControlServer}, {@link ControlClient}).
 * Closing this closes the selector, not the channel.
 */
final class TimedChannel implements Closeable {
    /** How a read ended. */
    enum ReadEnd { LINE, FULL, EOF, TIMEOUT }

    private final SocketChannel channel;
    private final MonotonicClock clock;
    private final Selector selector;
    private final SelectionKey key;

    TimedChannel(SocketChannel channel, MonotonicClock clock) throws IOException {
        this.channel = channel;
        this.clock = clock;
        channel.configureBlocking(false);
        this.selector = Selector.open();
        try {
            this.key = channel.register(selector, 0);
        } catch (IOException | RuntimeException e) {
            selector.close();
            throw e;
        }
    }

    /**
     * Reads into {@code buf} until it holds a newline, is full, the peer closed its side, or
     * {@code deadlineNanos} (monotonic) passes.
     */
    ReadEnd readLine(ByteBuffer buf, long deadlineNanos) throws IOException {
        int scanned = 0;
        while (true) {
            for (; scanned < buf.position(); scanned++) {
                if (buf.get(scanned) == '\n') {
                    return ReadEnd.LINE;
                }
            }
            if (!buf.hasRemaining()) {
                return ReadEnd.FULL;
            }
            int n = channel.read(buf);
            if (n < 0) {
                return ReadEnd.EOF;
            }
            if (n == 0 && !await(SelectionKey.OP_READ, deadlineNanos)) {
                return ReadEnd.TIMEOUT;
            }
        }
    }

    /**
     * Reads until the peer closes its side (EOF), {@code max} bytes were exceeded (FULL) or the
     * deadline passes (TIMEOUT), appending to {@code out}.
     */
    ReadEnd readToEnd(ByteArrayOutputStream out, int max, long deadlineNanos) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(8192);
        while (true) {
            buf.clear();
            int n;
            try {
                n = channel.read(buf);
            } catch (IOException e) {
                // a Unix socket closed with our request unread reports a reset after the data it sent
                if (out.size() > 0) {
                    return ReadEnd.EOF;
                }
                throw e;
            }
            if (n < 0) {
                return ReadEnd.EOF;
            }
            out.write(buf.array(), 0, n);
            if (out.size() > max) {
                return ReadEnd.FULL;
            }
            if (n == 0 && !await(SelectionKey.OP_READ, deadlineNanos)) {
                return ReadEnd.TIMEOUT;
            }
        }
    }

    /**
     * Reads and drops what the peer has already sent, at most {@code max} bytes, without waiting: a
     * Unix socket closed with unread data makes the peer's next read fail with a reset.
     */
    void drain(int max) {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        try {
            for (int total = 0; total < max; ) {
                buf.clear();
                int n = channel.read(buf);
                if (n <= 0) {
                    return;
                }
                total += n;
            }
        } catch (IOException e) {
            // nothing more to drop
        }
    }

    /** Writes all of {@code b}; false if the deadline passed first. */
    boolean writeAll(ByteBuffer b, long deadlineNanos) throws IOException {
        while (b.hasRemaining()) {
            if (channel.write(b) == 0 && !await(SelectionKey.OP_WRITE, deadlineNanos)) {
                return false;
            }
        }
        return true;
    }

    /** Waits until the channel is ready for {@code op}; false when the deadline passed. */
    private boolean await(int op, long deadlineNanos) throws IOException {
        long left = deadlineNanos - clock.nanoTime();
        if (left <= 0) {
            return false;
        }
        key.interestOps(op);
        // select(ms) with 0 means "forever": wait at least 1 ms
        selector.select(Math.max(1, (left + 999_999) / 1_000_000));
        selector.selectedKeys().clear();
        key.interestOps(0);
        return true;
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
