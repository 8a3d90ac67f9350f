package org.jheartbeat.stonith.device.apcsmart;

import java.util.Optional;
import org.jheartbeat.stonith.StonithResult;

/**
 * One UPS reply as cluster-glue's {@code APC_recv_rsp} reads it (facts §1.2): bytes up to LF, CR dropped,
 * a leading {@code *} is a complete reply on its own, at most {@value #MAX_LENGTH} characters.
 *
 * @param code {@link StonithResult#OK}, {@link StonithResult#TIMEOUT} (no LF within 3 s; {@code text} is what
 *             had arrived) or {@link StonithResult#ACCESS} ({@value #MAX_LENGTH} characters without LF)
 * @param text the reply without CR/LF; never null
 */
record ApcSmartReply(StonithResult code, String text) {
    /** Longest reply cluster-glue accepts ({@code MAX_STRING}), characters. */
    static final int MAX_LENGTH = 512;
    private static final byte LF = 10;
    private static final byte CR = 13;

    ApcSmartReply {
        text = text == null ? "" : text;
    }

    /** Whether the reply was read completely. */
    boolean ok() {
        return code == StonithResult.OK;
    }

    /**
     * Decodes the first reply in {@code buf[0..len)}.
     *
     * @return the reply, or empty if more bytes are needed
     */
    static Optional<ApcSmartReply> decode(byte[] buf, int len) {
        if (len > 0 && buf[0] == '*') {
            return Optional.of(new ApcSmartReply(StonithResult.OK, "*"));
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < len; i++) {
            byte b = buf[i];
            if (b == LF) {
                return Optional.of(new ApcSmartReply(StonithResult.OK, text.toString()));
            }
            if (b != CR) {
                text.append((char) (b & 0xff));
                if (text.length() >= MAX_LENGTH) {
                    return Optional.of(new ApcSmartReply(StonithResult.ACCESS, text.toString()));
                }
            }
        }
        return Optional.empty();
    }

    /** What a timed-out read leaves behind: the partial text (cluster-glue terminates its buffer there). */
    static ApcSmartReply timedOut(byte[] buf, int len) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < len; i++) {
            if (buf[i] != CR && buf[i] != LF) {
                text.append((char) (buf[i] & 0xff));
            }
        }
        return new ApcSmartReply(StonithResult.TIMEOUT, text.toString());
    }

    /** C {@code atoi}: optional blanks and sign, then leading decimal digits; 0 if none. */
    static int atoi(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int sign = 1;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            sign = s.charAt(i) == '-' ? -1 : 1;
            i++;
        }
        long v = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && v < Integer.MAX_VALUE) {
            v = v * 10 + (s.charAt(i++) - '0');
        }
        return (int) Math.min(Integer.MAX_VALUE, v) * sign;
    }

    /** C {@code sscanf("%02x")}: optional blanks, then one or two hex digits; empty if there are none. */
    static Optional<Integer> hexByte(String s) {
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int v = 0;
        int digits = 0;
        while (digits < 2 && i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
            v = v * 16 + Character.digit(s.charAt(i++), 16);
            digits++;
        }
        return digits == 0 ? Optional.empty() : Optional.of(v);
    }
}
