package org.jheartbeat.core.journal;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * An event as one line for people ({@code hb events}, {@code hb report}'s timeline): local time to the ms,
 * node, kind, subject, then the cause, who asked and how long it took when there are:
 *
 * <pre>
 * 2026-12-06 04:12:04.518 node1 node-dead node2 (no beat for 10000 ms) took 10.000 s
 * 2026-12-06 04:15:00.002 node1 standby all (done) by user root (group root), uid 0, pid 9 (hb) took 3.120 s
 * </pre>
 */
public final class EventText {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT);

    private EventText() {
    }

    /** The line of {@code e} with its time in {@code zone}, without a newline. */
    public static String line(ClusterEvent e, ZoneId zone) {
        StringBuilder sb = new StringBuilder(TIME.format(Instant.ofEpochMilli(e.wallMillis()).atZone(zone)));
        sb.append(' ').append(e.node().isEmpty() ? "-" : e.node()).append(' ').append(e.kind().wire());
        if (!e.subject().isEmpty()) {
            sb.append(' ').append(e.subject());
        }
        if (!e.cause().isEmpty()) {
            sb.append(" (").append(e.cause()).append(')');
        }
        if (!e.by().isEmpty()) {
            sb.append(" by ").append(e.by());
        }
        if (e.durationMillis() >= 0) {
            sb.append(" took ").append(seconds(e.durationMillis()));
        }
        return sb.toString();
    }

    /** {@code 10.000 s}: ms as seconds with three decimals. */
    static String seconds(long millis) {
        return String.format(Locale.ROOT, "%d.%03d s", millis / 1000, millis % 1000);
    }
}
