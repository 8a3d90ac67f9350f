package org.jheartbeat.cli.report;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;

/**
 * {@code summary.txt} of an {@code hb report}: which nodes were collected (and why one was not), the
 * nodes' clock offset, what happened (each failover and hand-over with its duration) and the merged
 * timeline of both nodes' journals in text. Pure: parts in, text out.
 *
 * <p>An incident starts at a node declared dead, a node heard again (a join: at boot, or back after a
 * failover, where auto_failback moves groups), a standby, a takeover or a failback, and takes the group
 * and fencing events of either node that follow, up to the next such start; a join that moved no group is
 * left out. Its duration runs from its start to the last group started in it (for a death also from the
 * dead node's last beat: the death's duration is how long it had been silent). When a group started in it was then
 * seen serving ({@code group-served}: its first monitor passed), the summary also says when the last one was
 * ("served after N ms"); a group of which nothing is monitored has no such line.
 */
public final class ReportSummary {
    private static final Set<EventKind> STARTS = EnumSet.of(EventKind.NODE_DEAD, EventKind.NODE_ALIVE, EventKind.STANDBY,
            EventKind.TAKEOVER, EventKind.FAILBACK);
    private static final Set<EventKind> FOLLOWS = EnumSet.of(EventKind.FENCE_ASKED, EventKind.FENCE_CONFIRMED,
            EventKind.FENCE_FAILED, EventKind.GROUP_STARTING, EventKind.GROUP_STARTED, EventKind.GROUP_SERVED,
            EventKind.GROUP_START_FAILED,
            EventKind.GROUP_STOPPING, EventKind.GROUP_STOPPED, EventKind.GROUP_STOP_FAILED);
    /** Order of the merged timeline: time, then node, then the node's own sequence. */
    public static final Comparator<ClusterEvent> ORDER = Comparator.comparingLong(ClusterEvent::wallMillis)
            .thenComparing(ClusterEvent::node).thenComparingLong(ClusterEvent::seq);

    /**
     * One node's part.
     *
     * @param node        its name
     * @param how         how it was collected ({@code this node}, {@code over ssh 198.18.1.2})
     * @param failure     why it could not be collected, or empty
     * @param clockOffset its wall clock against this node's, when measured
     * @param notes       what could not be collected within the part (one line each)
     */
    public record Part(String node, String how, Optional<String> failure, Optional<ClockOffset> clockOffset,
                       List<String> notes) {
    }

    /**
     * A node's wall clock against the collecting node's.
     *
     * @param millis      its clock minus the collector's, in ms
     * @param plusMinusMs how far off {@code millis} may be, in ms (half the round trip it was measured over)
     */
    public record ClockOffset(long millis, long plusMinusMs) {
    }

    /** A failover or hand-over found in the timeline. */
    public record Incident(ClusterEvent start, List<ClusterEvent> events) {
        /** The last group started in it, if any. */
        public Optional<ClusterEvent> lastStarted() {
            return events.stream().filter(e -> e.kind() == EventKind.GROUP_STARTED).reduce((a, b) -> b);
        }

        /** The last group seen serving in it ({@code group-served}), if any. */
        public Optional<ClusterEvent> lastServed() {
            return events.stream().filter(e -> e.kind() == EventKind.GROUP_SERVED).reduce((a, b) -> b);
        }
    }

    private ReportSummary() {
    }

    /** The events of all parts in timeline order ({@link #ORDER}). */
    public static List<ClusterEvent> merge(List<List<ClusterEvent>> perNode) {
        List<ClusterEvent> all = new ArrayList<>();
        perNode.forEach(all::addAll);
        all.sort(ORDER);
        return all;
    }

    /** The incidents of a merged timeline, in order. */
    public static List<Incident> incidents(List<ClusterEvent> merged) {
        List<Incident> out = new ArrayList<>();
        ClusterEvent start = null;
        List<ClusterEvent> events = new ArrayList<>();
        for (ClusterEvent e : merged) {
            if (STARTS.contains(e.kind())) {
                if (start != null) {
                    out.add(new Incident(start, List.copyOf(events)));
                }
                start = e;
                events.clear();
            } else if (start != null && FOLLOWS.contains(e.kind())) {
                events.add(e);
            }
        }
        if (start != null) {
            out.add(new Incident(start, List.copyOf(events)));
        }
        // a node heard (again) with no group moving after it is no incident
        out.removeIf(i -> i.start().kind() == EventKind.NODE_ALIVE && i.events().isEmpty());
        return out;
    }

    /**
     * The whole summary.
     *
     * @param window    the report's window
     * @param collector the node {@code hb report} ran on
     * @param parts     every node's part, this node first
     * @param merged    the merged timeline ({@link #merge})
     * @param zone      the zone times are shown in
     */
    public static String render(TimeSpec.Window window, String collector, List<Part> parts, List<ClusterEvent> merged,
                                ZoneId zone) {
        StringBuilder s = new StringBuilder();
        s.append("hb report: ").append(time(window.from().toEpochMilli(), zone)).append(" to ")
                .append(time(window.to().toEpochMilli(), zone)).append(" (").append(zone.getId()).append(")\n");
        s.append("collected by ").append(collector).append("\n\nNodes\n");
        for (Part p : parts) {
            s.append("  ").append(p.node()).append(": ");
            if (p.failure().isPresent()) {
                s.append("NOT COLLECTED (").append(p.how()).append("): ").append(p.failure().get()).append('\n');
                continue;
            }
            s.append("collected ").append(p.how());
            p.clockOffset().ifPresent(o -> s.append("; its clock is ").append(o.millis() >= 0 ? "+" : "")
                    .append(o.millis()).append(" ms from ").append(collector).append("'s (+/- ").append(o.plusMinusMs())
                    .append(" ms)"));
            s.append('\n');
            p.notes().forEach(n -> s.append("    ").append(n).append('\n'));
        }
        s.append("\nWhat happened\n");
        List<Incident> incidents = incidents(merged);
        if (incidents.isEmpty()) {
            s.append("  no failover, join, standby, takeover or failback in the window\n");
        }
        for (Incident i : incidents) {
            describe(i, zone, s);
        }
        Map<String, Map<String, Integer>> counts = new TreeMap<>();
        merged.forEach(e -> counts.computeIfAbsent(e.node(), k -> new TreeMap<>()).merge(e.kind().wire(), 1, Integer::sum));
        s.append("\nEvents per node\n");
        if (counts.isEmpty()) {
            s.append("  none in the window\n");
        }
        counts.forEach((node, c) -> {
            s.append("  ").append(node).append(':');
            c.forEach((k, n) -> s.append(' ').append(k).append('=').append(n));
            s.append('\n');
        });
        s.append("\nTimeline (both nodes, ").append(merged.size()).append(" events)\n");
        for (ClusterEvent e : merged) {
            s.append("  ").append(line(e, zone)).append('\n');
        }
        return s.toString();
    }

    /** One timeline line: time, node, kind, subject, cause, duration, who asked. */
    public static String line(ClusterEvent e, ZoneId zone) {
        StringBuilder l = new StringBuilder();
        l.append(time(e.wallMillis(), zone)).append("  ").append(pad(e.node(), 8)).append(' ')
                .append(pad(e.kind().wire(), 18)).append(' ').append(e.subject().isEmpty() ? "-" : e.subject());
        if (!e.cause().isEmpty()) {
            l.append("  (").append(e.cause()).append(')');
        }
        if (e.durationMillis() >= 0) {
            l.append("  [").append(e.durationMillis()).append(" ms]");
        }
        if (!e.by().isEmpty()) {
            l.append("  by ").append(e.by());
        }
        return l.toString();
    }

    private static void describe(Incident i, ZoneId zone, StringBuilder s) {
        ClusterEvent st = i.start();
        String what = switch (st.kind()) {
            case NODE_DEAD -> "failover: " + st.node() + " declared " + st.subject() + " dead"
                    + (st.durationMillis() >= 0 ? " (silent for " + st.durationMillis() + " ms)" : "");
            case NODE_ALIVE -> "join: " + st.node() + " hears " + st.subject()
                    + (st.cause().isEmpty() ? "" : " (" + st.cause() + ")");
            case STANDBY -> "standby on " + st.node() + (st.subject().isEmpty() ? "" : " of " + st.subject());
            case TAKEOVER -> "takeover by " + st.node() + (st.subject().isEmpty() ? "" : " of " + st.subject());
            default -> "failback on " + st.node() + (st.subject().isEmpty() ? "" : " of " + st.subject());
        };
        s.append("  ").append(time(st.wallMillis(), zone)).append("  ").append(what);
        if (!st.by().isEmpty()) {
            s.append(", asked by ").append(st.by());
        }
        s.append('\n');
        Map<String, String> steps = new LinkedHashMap<>();
        for (ClusterEvent e : i.events()) {
            String after = " +" + (e.wallMillis() - st.wallMillis()) + " ms";
            String step = switch (e.kind()) {
                case FENCE_ASKED -> e.node() + " asked to fence " + e.subject();
                case FENCE_CONFIRMED -> e.node() + " fenced " + e.subject();
                case FENCE_FAILED -> e.node() + " FAILED to fence " + e.subject() + (e.cause().isEmpty() ? ""
                        : ": " + e.cause());
                case GROUP_STOPPED -> e.node() + " stopped " + e.subject();
                case GROUP_STOP_FAILED -> e.node() + " FAILED to stop " + e.subject();
                case GROUP_STARTED -> e.node() + " started " + e.subject();
                case GROUP_SERVED -> e.node() + " serves " + e.subject() + " (first monitor passed)";
                case GROUP_START_FAILED -> e.node() + " FAILED to start " + e.subject();
                default -> null;
            };
            if (step != null) {
                long d = e.durationMillis();
                String took = d < 0 ? "" : e.kind() == EventKind.GROUP_SERVED ? " (" + d + " ms after its start)"
                        : " (took " + d + " ms)";
                steps.put(step, step + after + took);
            }
        }
        steps.values().forEach(v -> s.append("      ").append(v).append('\n'));
        Optional<ClusterEvent> end = i.lastStarted();
        if (end.isEmpty()) {
            s.append("      no group started after it in the window\n");
            return;
        }
        long took = end.get().wallMillis() - st.wallMillis();
        s.append("      services back on ").append(end.get().node()).append(" after ").append(took).append(" ms");
        if (st.kind() == EventKind.NODE_DEAD && st.durationMillis() >= 0) {
            s.append(" (").append(took + st.durationMillis()).append(" ms after ").append(st.subject())
                    .append("'s last beat)");
        }
        s.append('\n');
        Optional<ClusterEvent> served = i.lastServed();
        served.ifPresent(e -> s.append("      served after ").append(e.wallMillis() - st.wallMillis()).append(" ms (")
                .append(e.subject()).append("'s first monitor passed on ").append(e.node()).append(")\n"));
    }

    private static String time(long ms, ZoneId zone) {
        return DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(zone)
                .format(Instant.ofEpochMilli(ms));
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
