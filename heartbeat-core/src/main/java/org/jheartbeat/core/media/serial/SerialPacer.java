package org.jheartbeat.core.media.serial;

/**
 * Write pacing for a serial line: frames go out in fragments of at most {@link #FRAGMENT_BYTES}
 * bytes, and the writer waits before each fragment until the line has had time to carry everything
 * written before it.
 *
 * <p>Heartbeat 3.0.6 {@code serial.c} ({@code serial_write}, {@code ttyputs}) writes 512-byte
 * fragments with a pause of {@code 512 / (baud / 8)} s between them (213 ms at 19200 baud), and relies
 * on the UART (with {@code CRTSCTS}) to block a writer that goes faster than the line (facts G.1). A
 * pseudo-terminal has no UART and never blocks at the line rate, so this pacer enforces the real 8N1
 * rate itself: one byte is 10 bits on the line (start, 8 data, stop), so {@code n} bytes occupy the
 * line for {@code ceil(n * 10 / baud)} s. It is a token bucket holding one fragment: after an idle
 * line the first fragment goes at once, and from then on the total written never runs ahead of the
 * line by more than one fragment; a frame written right after {@code n} bytes goes no earlier than
 * {@code n * 10 / baud} s after the first of them.
 *
 * <p>Pure: time is passed in as {@code nowNanos} (any monotonic origin). Not thread-safe; the one
 * writer thread owns it.
 */
public final class SerialPacer {
    /** Fragment size, in bytes, as Heartbeat 3.0.6 {@code serial.c} writes. */
    public static final int FRAGMENT_BYTES = 512;
    /** Bits per byte on an 8N1 line: start bit, 8 data bits, stop bit. */
    public static final int BITS_PER_BYTE_8N1 = 10;

    private final int baud;
    private boolean idle = true;
    private long lineFreeAtNanos;

    /**
     * @param baud line speed in bits per second; positive
     * @throws IllegalArgumentException if {@code baud} is not positive
     */
    public SerialPacer(int baud) {
        if (baud <= 0) {
            throw new IllegalArgumentException("baud must be positive, got " + baud);
        }
        this.baud = baud;
    }

    /** The line speed, in bits per second. */
    public int baud() {
        return baud;
    }

    /**
     * How long the line is busy carrying {@code bytes} bytes at this speed, 8N1, rounded up.
     *
     * @param bytes number of bytes, not negative
     * @return nanoseconds
     */
    public long lineTimeNanos(int bytes) {
        long bits = (long) bytes * BITS_PER_BYTE_8N1 * 1_000_000_000L;
        return (bits + baud - 1) / baud;
    }

    /**
     * The size of the next fragment to write.
     *
     * @param remainingBytes bytes of the current frame still to write
     * @return {@code min(remainingBytes, 512)}, in bytes
     */
    public int nextFragmentBytes(int remainingBytes) {
        return Math.min(remainingBytes, FRAGMENT_BYTES);
    }

    /**
     * How long to wait before writing the next fragment.
     *
     * @param nowNanos the current monotonic time, ns
     * @return nanoseconds to wait, 0 if the fragment may be written now
     */
    public long delayNanos(long nowNanos) {
        if (idle) {
            return 0;
        }
        return Math.max(0, lineFreeAtNanos - nowNanos);
    }

    /**
     * Records that {@code bytes} bytes were handed to the line at {@code nowNanos}; they occupy it
     * from then (or from when the line frees up, if later) for {@link #lineTimeNanos(int)}.
     *
     * @param bytes    bytes written, not negative
     * @param nowNanos the monotonic time of the write, ns
     */
    public void wrote(int bytes, long nowNanos) {
        long start = idle || nowNanos - lineFreeAtNanos > 0 ? nowNanos : lineFreeAtNanos;
        lineFreeAtNanos = start + lineTimeNanos(bytes);
        idle = false;
    }
}
