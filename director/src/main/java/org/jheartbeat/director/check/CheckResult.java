package org.jheartbeat.director.check;

import java.util.Objects;

/**
 * The outcome of one health check of one real server.
 *
 * @param up      whether the real server passed
 * @param reason  why it failed, in words an admin can act on (empty when {@code up}); kept as one
 *                line of printable text of at most {@value #MAX_REASON} characters, because it
 *                quotes what a server sent and goes to the log: line breaks and tabs become spaces,
 *                other control characters (C0, DEL, C1) {@code \xNN}, and a longer reason is cut
 * @param elapsedMillis how long the check took, in milliseconds
 */
public record CheckResult(boolean up, String reason, long elapsedMillis) {
    /** Longest reason kept, in characters. */
    public static final int MAX_REASON = 1000;

    public CheckResult {
        reason = printable(Objects.requireNonNull(reason, "reason"));
        if (elapsedMillis < 0) {
            throw new IllegalArgumentException("elapsedMillis < 0: " + elapsedMillis);
        }
    }

    /** A passed check that took {@code elapsedMillis} milliseconds. */
    public static CheckResult up(long elapsedMillis) {
        return new CheckResult(true, "", elapsedMillis);
    }

    /** A failed check, with the reason (e.g. "connection refused"). */
    public static CheckResult down(String reason, long elapsedMillis) {
        return new CheckResult(false, reason, elapsedMillis);
    }

    /**
     * {@code text} as one line of printable text: CR, LF and TAB as a space, other control
     * characters (C0, DEL, C1) as {@code \xNN}, cut to {@value #MAX_REASON} characters (the last
     * one then an ellipsis). A server's bytes reach reasons, and reasons reach log lines: a NUL,
     * an escape sequence or a line break there would forge or hide log lines.
     */
    static String printable(String text) {
        StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_REASON) + 8);
        int i = 0;
        for (; i < text.length() && out.length() < MAX_REASON; i++) {
            char c = text.charAt(i);
            if (c == '\r' || c == '\n' || c == '\t') {
                out.append(' ');
            } else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (i < text.length() || out.length() > MAX_REASON) {
            out.setLength(MAX_REASON - 1);
            out.append('…');
        }
        return out.toString();
    }
}
