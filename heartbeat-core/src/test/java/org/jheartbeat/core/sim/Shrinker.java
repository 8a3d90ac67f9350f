package org.jheartbeat.core.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Delta debugging (Zeller's ddmin) of a failing schedule: drops chunks of events, then single events,
 * then halves the durations of window faults, keeping each change while the schedule still breaks the
 * same rule. The cluster and the seed of the run's random choices stay as they were, so a change can
 * make it pass by chance: such a change is simply not kept.
 */
final class Shrinker {
    private Shrinker() {
    }

    /**
     * @param first   the violation to keep: each trial must break the same rule, as the same known bug or none
     * @param maxRuns at most this many trial runs
     */
    static ScheduleGenerator.Schedule shrink(ScheduleGenerator.Schedule s, Invariants.Violation first,
                                             Invariants.Options options, int maxRuns) {
        int[] runs = {0};
        java.util.function.Predicate<List<SimEvent>> fails = events -> {
            if (runs[0]++ >= maxRuns) {
                return false;
            }
            Invariants.Violation v = SimRunner.run(s.withEvents(events), options, false).violation();
            return v != null && v.rule().equals(first.rule())
                    && java.util.Objects.equals(v.knownBug(), first.knownBug());
        };
        List<SimEvent> events = new ArrayList<>(s.events());
        int n = 2;
        while (events.size() >= 2) {
            int chunk = (events.size() + n - 1) / n;
            boolean reduced = false;
            for (int start = 0; start < events.size(); start += chunk) {
                List<SimEvent> rest = new ArrayList<>(events.subList(0, start));
                rest.addAll(events.subList(Math.min(events.size(), start + chunk), events.size()));
                if (fails.test(rest)) {
                    events = rest;
                    n = Math.max(n - 1, 2);
                    reduced = true;
                    break;
                }
            }
            if (!reduced) {
                if (n >= events.size()) {
                    break;
                }
                n = Math.min(2 * n, events.size());
            }
        }
        if (events.size() == 1) {
            List<SimEvent> none = List.of();
            if (fails.test(none)) {
                events = new ArrayList<>();
            }
        }
        for (int i = 0; i < events.size(); i++) {
            SimEvent e = events.get(i);
            if (!e.kind().window()) {
                continue;
            }
            long d = e.durationMillis();
            while (d > 100) {
                List<SimEvent> tryShorter = new ArrayList<>(events);
                tryShorter.set(i, e.withDuration(d / 2));
                if (!fails.test(tryShorter)) {
                    break;
                }
                d /= 2;
                events = tryShorter;
            }
        }
        return s.withEvents(events);
    }
}
