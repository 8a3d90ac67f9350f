package org.jheartbeat.core.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-resource operation timeouts written in haresources ({@code op_timeout=}, {@code
 * op_start_timeout=}, {@code op_stop_timeout=}, {@code op_monitor_timeout=}), each optional. The
 * per-operation value wins over {@code op_timeout}, which wins over the agent's default (an OCF
 * agent's meta-data, else the class default), as Pacemaker's {@code op} timeout wins over its
 * {@code op_defaults}.
 *
 * @param all     {@code op_timeout}: every operation
 * @param start   {@code op_start_timeout}
 * @param stop    {@code op_stop_timeout}
 * @param monitor {@code op_monitor_timeout}: status / monitor
 */
public record OperationTimeouts(Optional<Duration> all, Optional<Duration> start, Optional<Duration> stop,
                                Optional<Duration> monitor) {
    /** No timeout written: every operation uses the agent's default. */
    public static final OperationTimeouts NONE = new OperationTimeouts(Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty());
    /** The haresources option names, in the order documented. */
    public static final java.util.List<String> KEYS = java.util.List.of("op_timeout", "op_start_timeout",
            "op_stop_timeout", "op_monitor_timeout");
    /** Largest timeout accepted: 24 h. */
    public static final Duration MAX = Duration.ofHours(24);
    private static final Pattern SYNTAX = Pattern.compile("(\\d{1,9})(ms|msec|s|sec|m|min|h|hr)?");

    /** Which operation a timeout is asked for. */
    public enum Operation { START, STOP, MONITOR }

    /**
     * @param op       the operation
     * @param fallback the agent's default for it
     * @return the timeout written for {@code op}, else {@code op_timeout}, else {@code fallback}
     */
    public Duration forOperation(Operation op, Duration fallback) {
        Optional<Duration> specific = switch (op) {
            case START -> start;
            case STOP -> stop;
            case MONITOR -> monitor;
        };
        return specific.or(() -> all).orElse(fallback);
    }

    /**
     * @param key   one of {@link #KEYS}
     * @param value the duration text
     * @return a copy with that timeout set
     * @throws IllegalArgumentException if the key is not one of {@link #KEYS} or the value does
     *                                  not parse ({@link #parseDuration})
     */
    public OperationTimeouts with(String key, String value) {
        Optional<Duration> d = Optional.of(parseDuration(value));
        return switch (key) {
            case "op_timeout" -> new OperationTimeouts(d, start, stop, monitor);
            case "op_start_timeout" -> new OperationTimeouts(all, d, stop, monitor);
            case "op_stop_timeout" -> new OperationTimeouts(all, start, d, monitor);
            case "op_monitor_timeout" -> new OperationTimeouts(all, start, stop, d);
            default -> throw new IllegalArgumentException("unknown timeout option [" + key + "]");
        };
    }

    /**
     * Parses a timeout the way Pacemaker reads {@code timeout="60s"} in OCF meta-data and {@code op}
     * lines ({@code crm_get_msec}): a whole number, then optionally {@code ms}/{@code msec},
     * {@code s}/{@code sec}, {@code m}/{@code min} or {@code h}/{@code hr}; a bare number is seconds.
     * Stricter than Pacemaker: no blanks, no fractions, no other suffix, more than 0 and at most 24 h.
     *
     * @param text e.g. {@code 60s}, {@code 500ms}, {@code 2min}, {@code 90}
     * @return the duration
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    public static Duration parseDuration(String text) {
        Matcher m = SYNTAX.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("timeout [" + text + "] does not parse: write a whole number with"
                    + " ms, s, min or h, e.g. 90s or 2min (a bare number is seconds)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d = switch (unit) {
            case "ms", "msec" -> Duration.ofMillis(n);
            case "m", "min" -> Duration.ofMinutes(n);
            case "h", "hr" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
        if (d.isZero() || d.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("timeout [" + text + "] is out of range: it must be more than 0"
                    + " and at most 24h");
        }
        return d;
    }
}
