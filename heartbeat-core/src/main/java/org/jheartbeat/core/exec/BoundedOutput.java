package org.jheartbeat.core.exec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An in-memory output stream that keeps the first {@code limit} bytes and drops the rest, for the
 * output of a program run with {@link OsProcessRunner#stream}: a chatty program cannot fill the heap.
 * Safe to write from the runner's two pump threads at once.
 */
public final class BoundedOutput extends ByteArrayOutputStream {
    private final int limit;
    private long dropped;

    /**
     * @param limit bytes kept, from the start; positive
     * @throws IllegalArgumentException if limit is not positive
     */
    public BoundedOutput(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        this.limit = limit;
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        int kept = Math.max(0, Math.min(len, limit - count));
        super.write(b, off, kept);
        dropped += len - kept;
    }

    @Override
    public synchronized void write(int b) {
        if (count < limit) {
            super.write(b);
        } else {
            dropped++;
        }
    }

    /** Bytes written beyond the limit and dropped; 0 when everything was kept. */
    public synchronized long dropped() {
        return dropped;
    }

    /** What was kept, as UTF-8 text. */
    public synchronized String text() {
        return toString(StandardCharsets.UTF_8);
    }
}
