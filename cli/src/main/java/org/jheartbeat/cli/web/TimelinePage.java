package org.jheartbeat.cli.web;

import static org.jheartbeat.cli.web.Html.duration;
import static org.jheartbeat.cli.web.Html.esc;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jheartbeat.core.journal.ClusterEvent;

/**
 * The timeline: both journals merged in a window, drawn per node with the failovers as spans (silence, death,
 * fenced, each group started, each group served: its first monitor passed) and their durations, then listed; a
 * group with no served step (nothing of it is monitored) is named, its part of the span ending at its start. Pure: from a {@link Snapshot} and the window asked
 * for to HTML.
 */
public final class TimelinePage {
    /** The windows offered, label to length in ms; "12 h" covers a night, "1 m" shows a failover's seconds apart. */
    static final Map<String, Long> WINDOWS = new java.util.LinkedHashMap<>(Map.of());
    private static final int WIDTH = 1000;
    private static final int ROW = 40;

    static {
        WINDOWS.put("1m", 60_000L);
        WINDOWS.put("5m", 5 * 60_000L);
        WINDOWS.put("15m", 15 * 60_000L);
        WINDOWS.put("1h", 3_600_000L);
        WINDOWS.put("12h", 12 * 3_600_000L);
        WINDOWS.put("24h", 24 * 3_600_000L);
        WINDOWS.put("7d", 7 * 24 * 3_600_000L);
    }

    private TimelinePage() {
    }

    /**
     * The time range shown, ms since the epoch ({@code from <= t < to}), how it was asked for, and why the one asked
     * for was not taken ({@code notice}, empty when it was).
     */
    public record Window(long from, long to, String label, String notice) {
        /**
         * From the query: {@code window=1m|5m|15m|1h|12h|24h|7d} back from now, or {@code from=} and {@code to=} as a
         * browser's datetime-local gives them ({@code 2026-12-06T03:00}) in {@code zone}, {@code to} defaulting to now.
         * Anything else (a hand-edited URL): the default window, the last hour, with a notice that says what was not
         * understood and why.
         */
        public static Window of(Map<String, List<String>> query, long now, ZoneId zone) {
            String from = first(query, "from");
            String to = first(query, "to");
            String w = first(query, "window");
            String notice = "";
            if (!from.isEmpty()) {
                Long f = parse(from, zone);
                Long t = to.isEmpty() ? Long.valueOf(now) : parse(to, zone);
                if (f == null || t == null) {
                    notice = "The range was not understood: [" + (f == null ? from : to) + "] is not a date and time"
                            + " like 2026-12-06T03:00 or 2026-12-06T03:00:15.";
                } else if (t <= f) {
                    notice = "The range was not understood: from " + from + " is not before "
                            + (to.isEmpty() ? "now" : "to " + to) + ".";
                } else {
                    return new Window(f, t, "range", "");
                }
            } else if (!to.isEmpty()) {
                notice = "The range was not understood: to " + to + " was given without from.";
            }
            Long len = w.isEmpty() ? null : WINDOWS.get(w);
            if (len != null) {
                return new Window(now - len, now + 1, w, notice.isEmpty() ? "" : notice + " Showing the last " + w + ".");
            }
            if (!w.isEmpty() && len == null) {
                notice = (notice.isEmpty() ? "" : notice + " ") + "The window [" + w + "] was not understood: it is"
                        + " not one of " + String.join(", ", WINDOWS.keySet()) + ".";
            }
            return new Window(now - WINDOWS.get("1h"), now + 1, "1h", notice.isEmpty() ? "" : notice
                    + " Showing the last hour.");
        }

        /** A datetime-local value in {@code zone}, ms since the epoch; null when it is not one. */
        private static Long parse(String text, ZoneId zone) {
            try {
                return LocalDateTime.parse(text).atZone(zone).toInstant().toEpochMilli();
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        private static String first(Map<String, List<String>> q, String key) {
            List<String> v = q.get(key);
            return v == null || v.isEmpty() ? "" : v.get(0).trim();
        }
    }

    /** The page body. */
    public static String body(Snapshot s, Window w, ZoneId zone) {
        List<ClusterEvent> events = Timeline.window(s.events(), w.from(), w.to());
        // a failover that began in the window is followed past it, with all events, not only the window's
        List<Timeline.Failover> spans = Timeline.failovers(s.events()).stream()
                .filter(f -> f.deathMillis() >= w.from() && f.deathMillis() < w.to()).toList();
        StringBuilder b = new StringBuilder(16384);
        b.append("<h1>Timeline</h1>\n<form class=\"window\" method=\"get\" action=\"/timeline\">Last ");
        for (String k : WINDOWS.keySet()) {
            b.append("<a href=\"/timeline?window=").append(k).append("\"").append(k.equals(w.label()) ? " class=\"here\"" : "")
                    .append(">").append(k).append("</a> ");
        }
        b.append(" or from <input type=\"datetime-local\" step=\"1\" name=\"from\" value=\"")
                .append(w.label().equals("range") ? LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(w.from()), zone)
                        .withNano(0) : "").append("\"> to <input type=\"datetime-local\" step=\"1\" name=\"to\"> <button>Show</button></form>\n");
        if (!w.notice().isEmpty()) {
            b.append("<p class=\"warn\" id=\"window-notice\">").append(esc(w.notice())).append("</p>\n");
        }
        if (!s.localJournalError().isEmpty()) {
            b.append("<p class=\"bad\" id=\"journal-error\">This node's journal cannot be read: ")
                    .append(esc(s.localJournalError())).append("</p>\n");
        }
        if (!s.peerError().isEmpty()) {
            b.append("<p class=\"warn\" id=\"peer-error\">").append(esc(s.peer())).append("'s journal cannot be fetched: ")
                    .append(esc(s.peerError())).append("</p>\n");
        }
        b.append("<p>").append(esc(Html.time(w.from(), zone))).append(" to ").append(esc(Html.time(w.to(), zone)))
                .append(" (").append(zone).append("): ").append(events.size()).append(" events, ").append(spans.size())
                .append(" failovers.</p>\n");
        svg(b, events, spans, w);
        b.append("<h2>Failovers</h2>\n<ol id=\"failovers\">\n");
        for (Timeline.Failover f : spans) {
            b.append("<li class=\"failover\" data-duration-ms=\"").append(f.durationMillis()).append("\">")
                    .append("<span class=\"step\" data-step=\"node-dead\">").append(esc(f.survivor())).append(" declared ")
                    .append(esc(f.dead())).append(" dead at ").append(esc(Html.time(f.deathMillis(), zone)));
            if (f.silentFromMillis() < f.deathMillis()) {
                b.append(" after ").append(duration(f.deathMillis() - f.silentFromMillis())).append(" of silence");
            }
            b.append("</span>");
            for (Timeline.Step st : f.steps()) {
                b.append(" &rarr; <span class=\"step\" data-step=\"").append(st.kind()).append("\">").append(esc(st.label())).append(" +").append(duration(st.sinceDeathMillis()))
                        .append("</span>");
            }
            b.append("; <b class=\"duration\">").append(f.steps().isEmpty() ? "nothing followed"
                    : "took " + duration(f.durationMillis())).append("</b>");
            if (!f.unserved().isEmpty()) {
                b.append(" <span class=\"unserved\">(no served step for ").append(esc(String.join(", ", f.unserved())))
                        .append(": not monitored, or its first check has not come; the span ends at its start)</span>");
            }
            b.append("</li>\n");
        }
        b.append("</ol>\n<h2>Events</h2>\n<table id=\"events\"><tr><th>Time</th><th>Node</th><th>What</th><th>Subject</th>")
                .append("<th>Cause</th><th>Asked by</th><th>Took</th></tr>\n");
        for (int i = events.size() - 1; i >= 0; i--) {
            ClusterEvent e = events.get(i);
            b.append("<tr class=\"ev ").append(e.kind().wire()).append("\"><td>").append(esc(Html.time(e.wallMillis(), zone)))
                    .append("</td><td>").append(esc(e.node())).append("</td><td>").append(e.kind().wire()).append("</td><td>")
                    .append(esc(e.subject())).append("</td><td>").append(esc(e.cause())).append("</td><td>").append(esc(e.by()))
                    .append("</td><td>").append(e.durationMillis() < 0 ? "" : duration(e.durationMillis())).append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }

    private static void svg(StringBuilder b, List<ClusterEvent> events, List<Timeline.Failover> spans, Window w) {
        List<String> nodes = new ArrayList<>();
        events.forEach(e -> {
            if (!nodes.contains(e.node())) {
                nodes.add(e.node());
            }
        });
        spans.forEach(f -> {
            if (!nodes.contains(f.survivor())) {
                nodes.add(f.survivor());
            }
        });
        java.util.Collections.sort(nodes);
        int h = Math.max(1, nodes.size()) * ROW + 20;
        b.append("<svg id=\"timeline\" viewBox=\"0 0 ").append(WIDTH + 80).append(' ').append(h)
                .append("\" width=\"100%\" role=\"img\" aria-label=\"timeline\">\n");
        for (int i = 0; i < nodes.size(); i++) {
            b.append("<text x=\"0\" y=\"").append(i * ROW + 24).append("\" class=\"row\">").append(esc(nodes.get(i)))
                    .append("</text><line x1=\"80\" x2=\"").append(WIDTH + 80).append("\" y1=\"").append(i * ROW + 20)
                    .append("\" y2=\"").append(i * ROW + 20).append("\" class=\"axis\"/>\n");
        }
        for (Timeline.Failover f : spans) {
            int y = nodes.indexOf(f.survivor()) * ROW + 8;
            double xs = x(f.silentFromMillis(), w);
            double xd = x(f.deathMillis(), w);
            double xe = Math.max(xd + 2, x(f.endMillis(), w));
            b.append(String.format(Locale.ROOT, "<rect class=\"silent\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\"/>",
                    xs, y, Math.max(1, xd - xs)));
            b.append(String.format(Locale.ROOT, "<rect class=\"span\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"24\">"
                    + "<title>%s dead: failover took %s</title></rect>\n", xd, y, xe - xd, esc(f.dead()),
                    duration(f.durationMillis())));
            for (Timeline.Step st : f.steps()) { // each step a tick across the span: fenced, started, served
                b.append(String.format(Locale.ROOT, "<rect class=\"mark %s\" x=\"%.1f\" y=\"%d\" width=\"2\" height=\"24\">"
                        + "<title>%s +%s</title></rect>\n", st.kind(), x(st.wallMillis(), w), y, esc(st.label()),
                        duration(st.sinceDeathMillis())));
            }
        }
        for (ClusterEvent e : events) {
            int y = Math.max(0, nodes.indexOf(e.node())) * ROW + 20;
            b.append(String.format(Locale.ROOT, "<circle class=\"ev %s\" cx=\"%.1f\" cy=\"%d\" r=\"4\"><title>%s %s %s</title>"
                    + "</circle>\n", e.kind().wire(), x(e.wallMillis(), w), y, esc(e.kind().wire()), esc(e.subject()),
                    esc(e.cause())));
        }
        b.append("</svg>\n");
    }

    private static double x(long t, Window w) {
        double f = (double) (t - w.from()) / Math.max(1, w.to() - w.from());
        return 80 + Math.max(0, Math.min(1, f)) * WIDTH;
    }
}
