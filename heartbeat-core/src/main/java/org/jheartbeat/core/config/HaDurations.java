package org.jheartbeat.core.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Heartbeat's time syntax for ha.cf values (keepalive, deadtime, warntime, initdead, ...), with the
 * semantics of cluster-glue's {@code cl_get_msec} as used by Heartbeat 3.0.6 {@code config.c}:
 * <ul>
 *   <li>a bare number is <b>seconds</b> and may be fractional: {@code 2} = 2000 ms, {@code 0.5} = 500 ms;</li>
 *   <li>suffix {@code ms} (or {@code msec}) is milliseconds: {@code 500ms} = 500 ms;</li>
 *   <li>suffix {@code us} (or {@code usec}) is microseconds: {@code 1500us} = 2 ms (rounded);</li>
 *   <li>suffixes are case-insensitive and may be separated from the number by blanks;</li>
 *   <li>the suffix {@code s} is <b>invalid</b> (cl_get_msec rejects it), as is any other suffix;</li>
 *   <li>results are rounded half-up to whole milliseconds; there is no sign, so values are never negative.</li>
 * </ul>
 * jheartbeat is slightly stricter than cl_get_msec, which reads only a numeric prefix: text such as
 * {@code 1.2.3} or {@code 5msfoo} is rejected here rather than half-read.
 */
public final class HaDurations {
    private static final Pattern SYNTAX = Pattern.compile("\\s*(\\d*\\.?\\d*)\\s*([A-Za-z]*)\\s*");

    private HaDurations() {
    }

    /**
     * Parses a Heartbeat time value into milliseconds.
     *
     * @param text the value as written, e.g. {@code 2}, {@code 0.5}, {@code 500ms}, {@code 250000us}
     * @return the duration in milliseconds, &gt;= 0
     * @throws InvalidDurationException if the text is empty, not a number, has an unknown suffix
     *                                  (including {@code s}), or does not fit in a {@code long}
     */
    public static long parseMillis(String text) {
        if (text == null) {
            throw new InvalidDurationException("", "missing time value");
        }
        Matcher m = SYNTAX.matcher(text);
        String number = m.matches() ? m.group(1) : "";
        if (number.isEmpty() || number.equals(".")) {
            throw new InvalidDurationException(text, "invalid time [" + text + "]: expected a number of"
                    + " seconds (e.g. 2 or 0.5) or a number with 'ms' or 'us' (e.g. 500ms)");
        }
        BigDecimal scale = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "" -> BigDecimal.valueOf(1000);
            case "ms", "msec" -> BigDecimal.ONE;
            case "us", "usec" -> new BigDecimal("0.001");
            case "s", "sec" -> throw new InvalidDurationException(text, "invalid time [" + text
                    + "]: Heartbeat does not accept the 's' suffix; a bare number means seconds"
                    + " (write " + number + " or " + number + "000ms)");
            default -> throw new InvalidDurationException(text, "invalid time [" + text
                    + "]: unknown unit '" + m.group(2) + "'; use a bare number of seconds, 'ms' or 'us'");
        };
        BigDecimal millis = new BigDecimal(number).multiply(scale).setScale(0, RoundingMode.HALF_UP);
        try {
            return millis.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidDurationException(text, "invalid time [" + text + "]: too large");
        }
    }

    /**
     * Formats milliseconds the way Heartbeat's defaults are shown ({@code heartbeat -D}): {@code 1000ms}.
     *
     * @param millis a duration in milliseconds
     * @return e.g. {@code 30000ms}
     */
    public static String formatMillis(long millis) {
        return millis + "ms";
    }
}
