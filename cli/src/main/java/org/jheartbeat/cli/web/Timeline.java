package org.jheartbeat.cli.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;

/**
 * The timeline's decisions, pure: both nodes' journals merged in time order, and the failovers found in them.
 * A failover starts when one node declares the other dead ({@code node-dead}); it is fenced at the first
 * {@code fence-confirmed} of that node after it, and each group counts as started at its first
 * {@code group-started} on the survivor after it; whatever comes after the dead node is heard again
 * ({@code node-alive}) or after {@link #HORIZON_MS} belongs to another story. Times are each node's wall clock
 * in ms since the epoch, as the journal records them (the two clocks are assumed close: NTP).
 */
public final class Timeline {
    /** The longest a failover is followed after the death, in ms (10 min): a later start is not its consequence. */
    public static final long HORIZON_MS = 10 * 60_000L;

    private Timeline() {
    }

    /** One step of a failover: what happened, when (ms since the epoch), and ms since the death. */
    public record Step(String label, long wallMillis, long sinceDeathMillis) { }

    /**
     * One failover.
     *
     * @param survivor  the node that declared the death and took over
     * @param dead      the node declared dead
     * @param silentFromMillis when the dead node was last heard (death minus the silence the journal recorded),
     *                  or the death itself when no silence was recorded
     * @param deathMillis when it was declared dead
     * @param steps     fenced (if it was), then each group started, in time order
     */
    public record Failover(String survivor, String dead, long silentFromMillis, long deathMillis, List<Step> steps) {
        /** From the death to the last step, in ms; 0 when nothing followed. */
        public long durationMillis() {
            return steps.isEmpty() ? 0 : steps.get(steps.size() - 1).sinceDeathMillis();
        }

        /** When the last step happened, or the death. */
        public long endMillis() {
            return deathMillis + durationMillis();
        }
    }

    /**
     * Both journals as one list in time order (ties: node name, then sequence number), duplicates dropped
     * (the same node and sequence number fetched twice).
     */
    public static List<ClusterEvent> merge(List<ClusterEvent> a, List<ClusterEvent> b) {
        Map<String, ClusterEvent> unique = new LinkedHashMap<>();
        for (List<ClusterEvent> l : List.of(a, b)) {
            for (ClusterEvent e : l) {
                unique.putIfAbsent(e.node() + "#" + e.seq() + "#" + e.wallMillis(), e);
            }
        }
        List<ClusterEvent> out = new ArrayList<>(unique.values());
        out.sort(Comparator.comparingLong(ClusterEvent::wallMillis).thenComparing(ClusterEvent::node)
                .thenComparingLong(ClusterEvent::seq));
        return out;
    }

    /** The events with {@code from <= wallMillis < to}. */
    public static List<ClusterEvent> window(List<ClusterEvent> events, long from, long to) {
        return events.stream().filter(e -> e.wallMillis() >= from && e.wallMillis() < to).toList();
    }

    /** The failovers in {@code merged} (time-ordered, as {@link #merge} gives), oldest first. */
    public static List<Failover> failovers(List<ClusterEvent> merged) {
        List<Failover> out = new ArrayList<>();
        for (int i = 0; i < merged.size(); i++) {
            ClusterEvent death = merged.get(i);
            if (death.kind() != EventKind.NODE_DEAD || death.subject().equals(death.node())) {
                continue;
            }
            String dead = death.subject();
            String survivor = death.node();
            long t0 = death.wallMillis();
            List<Step> steps = new ArrayList<>();
            boolean fenced = false;
            Map<String, Boolean> started = new LinkedHashMap<>();
            for (int j = i + 1; j < merged.size(); j++) {
                ClusterEvent e = merged.get(j);
                if (e.wallMillis() - t0 > HORIZON_MS
                        || e.kind() == EventKind.NODE_ALIVE && e.subject().equals(dead) && e.node().equals(survivor)) {
                    break;
                }
                if (!fenced && e.kind() == EventKind.FENCE_CONFIRMED && e.subject().equals(dead)) {
                    fenced = true;
                    steps.add(new Step("fenced " + dead, e.wallMillis(), e.wallMillis() - t0));
                } else if (e.kind() == EventKind.GROUP_STARTED && e.node().equals(survivor)
                        && started.putIfAbsent(e.subject(), true) == null) {
                    steps.add(new Step("started " + e.subject(), e.wallMillis(), e.wallMillis() - t0));
                }
            }
            long silence = death.durationMillis() > 0 ? death.durationMillis() : 0;
            out.add(new Failover(survivor, dead, t0 - silence, t0, List.copyOf(steps)));
        }
        return out;
    }
}
