package org.jheartbeat.core.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-resource operation options written in haresources, each optional: the timeouts ({@code
 * op_timeout=}, {@code op_start_timeout=}, {@code op_stop_timeout=}, {@code op_monitor_timeout=})
 * and how the resource is watched while it runs ({@code op_monitor_interval=}, {@code
 * op_restart_limit=}, {@code op_restart_window=}; docs/design/resources.md, "Monitoring"). The
 * per-operation timeout wins over {@code op_timeout}, which wins over the agent's default (an OCF
 * agent's meta-data, else the class default), as Pacemaker's {@code op} timeout wins over its
 * {@code op_defaults}.
 *
 * @param all             {@code op_timeout}: every operation
 * @param start           {@code op_start_timeout}
 * @param stop            {@code op_stop_timeout}
 * @param monitor         {@code op_monitor_timeout}: status / monitor
 * @param monitorInterval {@code op_monitor_interval}: time between two monitors; {@link Duration#ZERO}
 *                        when written {@code 0} or {@code off} (not monitored), as Pacemaker's
 *                        {@code op monitor interval}
 * @param restartLimit    {@code op_restart_limit}: in-place restarts allowed within the window before
 *                        the group moves (Pacemaker's {@code migration-threshold} minus one), 0 to 1000
 * @param restartWindow   {@code op_restart_window}: how long a failure counts (Pacemaker's
 *                        {@code failure-timeout})
 */
public record OperationTimeouts(Optional<Duration> all, Optional<Duration> start, Optional<Duration> stop,
                                Optional<Duration> monitor, Optional<Duration> monitorInterval,
                                java.util.OptionalInt restartLimit, Optional<Duration> restartWindow) {
    /** No option written: every operation uses the agent's default, monitoring the node's defaults. */
    public static final OperationTimeouts NONE = new OperationTimeouts(Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(), java.util.OptionalInt.empty(), Optional.empty());
    /** The haresources option names, in the order documented. */
    public static final java.util.List<String> KEYS = java.util.List.of("op_timeout", "op_start_timeout",
            "op_stop_timeout", "op_monitor_timeout", "op_monitor_interval", "op_restart_limit", "op_restart_window");
    /** Largest {@code op_restart_limit} accepted. */
    public static final int MAX_RESTART_LIMIT = 1000;
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
     * @return a copy with that option set
     * @throws IllegalArgumentException if the key is not one of {@link #KEYS} or the value does
     *                                  not parse ({@link #parseDuration}; {@code op_monitor_interval}
     *                                  also takes {@code 0} or {@code off}; {@code op_restart_limit}
     *                                  a whole number from 0 to {@value #MAX_RESTART_LIMIT})
     */
    public OperationTimeouts with(String key, String value) {
        if (key.equals("op_monitor_interval")) {
            Duration iv = value.equals("0") || value.equalsIgnoreCase("off") ? Duration.ZERO : parseDuration(value);
            return new OperationTimeouts(all, start, stop, monitor, Optional.of(iv), restartLimit, restartWindow);
        }
        if (key.equals("op_restart_limit")) {
            if (!value.matches("\\d{1,4}") || Integer.parseInt(value) > MAX_RESTART_LIMIT) {
                throw new IllegalArgumentException("restart limit [" + value + "] does not parse: write a whole number"
                        + " from 0 to " + MAX_RESTART_LIMIT + " (0: the first failure moves the group)");
            }
            return new OperationTimeouts(all, start, stop, monitor, monitorInterval,
                    java.util.OptionalInt.of(Integer.parseInt(value)), restartWindow);
        }
        Optional<Duration> d = Optional.of(parseDuration(value));
        return switch (key) {
            case "op_timeout" -> new OperationTimeouts(d, start, stop, monitor, monitorInterval, restartLimit, restartWindow);
            case "op_start_timeout" -> new OperationTimeouts(all, d, stop, monitor, monitorInterval, restartLimit,
                    restartWindow);
            case "op_stop_timeout" -> new OperationTimeouts(all, start, d, monitor, monitorInterval, restartLimit,
                    restartWindow);
            case "op_monitor_timeout" -> new OperationTimeouts(all, start, stop, d, monitorInterval, restartLimit,
                    restartWindow);
            case "op_restart_window" -> new OperationTimeouts(all, start, stop, monitor, monitorInterval, restartLimit, d);
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
