package org.jheartbeat.core.sim;

import java.util.List;
import java.util.Locale;

/** Runs schedules, shrinks failing ones and writes the report a developer replays from. */
final class SimRunner {
    /** How a schedule ended: its first violation (or null), its counts, and its trace when asked for. */
    record Result(Invariants.Violation violation, SimStats stats, List<String> trace) { }

    private SimRunner() {
    }

    static Result run(ScheduleGenerator.Schedule s, Invariants.Options options, boolean trace) {
        Simulator sim = new Simulator(s.seed(), s.setup(), s.events(), ScheduleGenerator.LENGTH_MILLIS, options, trace);
        Invariants.Violation v = sim.run();
        sim.stats.schedules = 1;
        return new Result(v, sim.stats, sim.traceLines());
    }

    /**
     * The report of a violation: seed, cluster, the shrunk schedule (the events that still break the same
     * rule) and the end of its trace.
     */
    static String report(ScheduleGenerator.Schedule original, Invariants.Violation first, Invariants.Options options,
                         int traceLines) {
        ScheduleGenerator.Schedule shrunk = Shrinker.shrink(original, first, options, 300);
        Result again = run(shrunk, options, true);
        StringBuilder sb = new StringBuilder();
        sb.append("VIOLATION ").append(first.describe()).append('\n');
        sb.append("seed ").append(original.seed()).append(" (replay: -Djhb.sim.seed=").append(original.seed())
                .append(")\ncluster: ").append(original.setup().describe()).append('\n');
        sb.append(String.format(Locale.ROOT, "shrunk schedule (%d of %d events)%s:%n", shrunk.events().size(),
                original.events().size(), again.violation() == null ? " [does not reproduce alone!]"
                        : ", violation: " + again.violation().describe()));
        for (SimEvent e : shrunk.events()) {
            sb.append("  ").append(e.describe()).append('\n');
        }
        sb.append("as Java: List.of(");
        for (int i = 0; i < shrunk.events().size(); i++) {
            sb.append(i == 0 ? "" : ",\n        ").append(shrunk.events().get(i).toJava());
        }
        sb.append(")\n");
        List<String> t = again.trace();
        sb.append("trace of the shrunk schedule (last ").append(Math.min(traceLines, t.size())).append(" of ")
                .append(t.size()).append(" lines):\n");
        for (String line : t.subList(Math.max(0, t.size() - traceLines), t.size())) {
            sb.append("  ").append(line).append('\n');
        }
        return sb.toString();
    }
}
