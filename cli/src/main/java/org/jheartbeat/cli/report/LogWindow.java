package org.jheartbeat.cli.report;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which lines of a daemon log fall in a report's window. A line's time is the first
 * {@code yyyy/MM/dd_HH:mm:ss[.SSS]} in its first 80 characters: jheartbeat's own lines
 * ({@code 2026/11/29_19:20:01.123 node1 hb[42]: info: ...}, see {@code LineLayout}) and Heartbeat 3.0.6's
 * ({@code heartbeat[42]: 2026/11/29_19:20:01 info: ...}), in the zone the daemon wrote them in. A line
 * without a time (a stack trace, a continued message) belongs with the line before it. Stateful: feed
 * the lines in file order to one instance.
 */
public final class LogWindow {
    private static final Pattern STAMP = Pattern.compile("(\\d{4}/\\d{2}/\\d{2}_\\d{2}:\\d{2}:\\d{2})(\\.\\d{1,3})?");
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("uuuu/MM/dd_HH:mm:ss", Locale.ROOT);
    private final TimeSpec.Window window;
    private final ZoneId zone;
    private boolean inside;

    /**
     * @param window the report's window
     * @param zone   the zone the log's times are in (the daemon's, normally the machine's)
     */
    public LogWindow(TimeSpec.Window window, ZoneId zone) {
        this.window = window;
        this.zone = zone;
    }

    /** Whether {@code line}, the next line of the file, is in the window. */
    public boolean keep(String line) {
        Optional<Long> t = time(line, zone);
        if (t.isPresent()) {
            inside = window.contains(t.get());
        }
        return inside;
    }

    /** Whether a line at or after {@code line} can still be in the window (logs are in time order). */
    public boolean pastEnd(String line) {
        Optional<Long> t = time(line, zone);
        return t.isPresent() && t.get() > window.to().toEpochMilli();
    }

    /** The time of {@code line} in ms since the epoch, if it has one. */
    public static Optional<Long> time(String line, ZoneId zone) {
        Matcher m = STAMP.matcher(line.length() > 80 ? line.substring(0, 80) : line);
        if (!m.find()) {
            return Optional.empty();
        }
        try {
            long ms = LocalDateTime.parse(m.group(1), FORMAT).atZone(zone).toInstant().toEpochMilli();
            if (m.group(2) != null) {
                String frac = (m.group(2).substring(1) + "00").substring(0, 3);
                ms += Integer.parseInt(frac);
            }
            return Optional.of(ms);
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }
}
