package org.jheartbeat.core.media.serial;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts the byte stream read from a serial line into classic frames, each {@code >>>\n} through the
 * next {@code <<<\n} inclusive, the way Heartbeat 3.0.6 {@code serial.c} ({@code ttygets},
 * {@code serial_read}) reads its line: lines are read up to {@code \n}; lines are discarded until one
 * begins with {@code >>>}; lines are then collected until one begins with {@code <<<} (facts G.1).
 *
 * <p>Beyond Heartbeat, the framer is bounded and resynchronises (STYLE rule 7):
 * <ul>
 *   <li>CR bytes ({@code \r}) are dropped before anything else, as the tty's {@code IGNCR} does for
 *       Heartbeat; they are not counted anywhere.</li>
 *   <li>A line beginning {@code >>>} inside an unterminated frame restarts the frame; the partial frame
 *       is counted in {@link #garbageBytes()} and {@link #framesDiscarded()}.</li>
 *   <li>A frame (or, outside a frame, a line) that would exceed {@code maxFrameBytes} is discarded up
 *       to the next {@code \n}, counted as garbage; the framer then waits for the next {@code >>>}
 *       line. A stream without any newline therefore never holds more than {@code maxFrameBytes}.</li>
 * </ul>
 *
 * <p>It never decodes or authenticates (that is {@code ClassicCodec} and the protocol engine), accepts
 * any byte sequence and never throws on input. Pure and <b>not thread-safe</b>: one reader thread owns it.
 */
public final class SerialFramer {
    /** Default bound on one frame, in bytes: 64 KiB (Heartbeat's {@code MAXMSG} order of magnitude). */
    public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024;

    private final int maxFrameBytes;
    private byte[] buf = new byte[1024];
    private int length;
    private int lineStart;
    private boolean inFrame;
    private boolean discardingLine;
    private long garbageBytes;
    private long framesDiscarded;
    private long frames;

    /** A framer bounded at {@link #DEFAULT_MAX_FRAME_BYTES}. */
    public SerialFramer() {
        this(DEFAULT_MAX_FRAME_BYTES);
    }

    /**
     * @param maxFrameBytes the largest frame kept, in bytes, markers and newlines included; at least 8
     *                      (an empty {@code >>>\n<<<\n} frame)
     * @throws IllegalArgumentException if {@code maxFrameBytes} is below 8
     */
    public SerialFramer(int maxFrameBytes) {
        if (maxFrameBytes < 8) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 8, got " + maxFrameBytes);
        }
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Feeds bytes read from the line.
     *
     * @param data bytes read from the line (not retained)
     * @param off  offset of the first byte in {@code data}
     * @param len  number of bytes, may be 0
     * @return the frames completed by these bytes, in order; each a fresh array owned by the caller
     * @throws IndexOutOfBoundsException only if {@code off}/{@code len} do not fit {@code data}
     */
    public List<byte[]> feed(byte[] data, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, data.length);
        List<byte[]> out = List.of();
        for (int i = off; i < off + len; i++) {
            byte b = data[i];
            if (b == '\r') {
                continue;
            }
            if (discardingLine) {
                garbageBytes++;
                discardingLine = b != '\n';
                continue;
            }
            if (length == maxFrameBytes) {
                overflow(b);
                continue;
            }
            append(b);
            if (b == '\n') {
                byte[] frame = endOfLine();
                if (frame != null) {
                    if (out.isEmpty()) {
                        out = new ArrayList<>(2);
                    }
                    out.add(frame);
                }
            }
        }
        return out;
    }

    /**
     * Drops any partial frame or line (counted as garbage), e.g. when the device was reopened and the
     * old stream's tail must not be joined to the new stream. Counters are kept.
     */
    public void reset() {
        if (inFrame && length > 0) {
            framesDiscarded++;
        }
        garbageBytes += length;
        clear();
        discardingLine = false;
    }

    /** Bytes dropped so far: lines outside frames, abandoned and oversize frames (CRs not included). */
    public long garbageBytes() {
        return garbageBytes;
    }

    /** Started frames abandoned so far: restarted by a new {@code >>>}, oversize, or {@link #reset()}. */
    public long framesDiscarded() {
        return framesDiscarded;
    }

    /** Complete frames returned so far. */
    public long frames() {
        return frames;
    }

    /** Bytes currently held (a partial frame or line), never more than the frame bound. */
    public int bufferedBytes() {
        return length;
    }

    /** The frame bound, in bytes. */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    private byte[] endOfLine() {
        if (startsWith(lineStart, '>')) {
            if (lineStart > 0) {
                garbageBytes += lineStart;
                framesDiscarded++;
                System.arraycopy(buf, lineStart, buf, 0, length - lineStart);
                length -= lineStart;
            }
            inFrame = true;
            lineStart = length;
            return null;
        }
        if (!inFrame) {
            garbageBytes += length;
            clear();
            return null;
        }
        if (startsWith(lineStart, '<')) {
            byte[] frame = Arrays.copyOf(buf, length);
            frames++;
            clear();
            return frame;
        }
        lineStart = length;
        return null;
    }

    private void overflow(byte b) {
        if (inFrame) {
            framesDiscarded++;
        }
        garbageBytes += length + 1;
        clear();
        discardingLine = b != '\n';
    }

    private boolean startsWith(int at, char marker) {
        return length - at >= 3 && buf[at] == marker && buf[at + 1] == marker && buf[at + 2] == marker;
    }

    private void append(byte b) {
        if (length == buf.length) {
            buf = Arrays.copyOf(buf, Math.min(maxFrameBytes, buf.length * 2));
        }
        buf[length++] = b;
    }

    private void clear() {
        length = 0;
        lineStart = 0;
        inFrame = false;
        if (buf.length > 4096) {
            buf = new byte[1024];
        }
    }
}
