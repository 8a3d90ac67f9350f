package org.jheartbeat.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulator's CI run: a fixed number of schedules (seeds {@code jhb.sim.baseSeed} onwards), each
 * checked against every invariant after every step. A violation that is not an instance of a known open
 * bug ({@link KnownBugs}) fails the test; the first of each kind is shrunk and reported. Properties:
 * {@code -Djhb.sim.schedules=N} (default 10000), or {@code -Djhb.sim.nodeSeconds=S} (schedules = S / 100,
 * for the long run), {@code -Djhb.sim.baseSeed=B}, {@code -Djhb.sim.seed=N} (replays one seed with its full
 * trace), {@code -Djhb.sim.strict=true} (known open bugs fail too), {@code -Djhb.sim.status=true} (checks
 * what {@code hb status} says, known to fail), {@code -Djhb.sim.reports=N} (reports at most N kinds, default
 * 3). Asserts no timing: the figures it prints are for docs/simulation.md.
 */
class SimulationTest {
    static long schedules() {
        String ns = System.getProperty("jhb.sim.nodeSeconds");
        if (ns != null) {
            return Math.max(1, Long.parseLong(ns) / (2 * ScheduleGenerator.LENGTH_MILLIS / 1000));
        }
        return Long.getLong("jhb.sim.schedules", 10_000);
    }

    static Invariants.Options options() {
        return new Invariants.Options(Boolean.getBoolean("jhb.sim.status"));
    }

    @Test
    void everyScheduleKeepsEveryInvariant() {
        String replay = System.getProperty("jhb.sim.seed");
        if (replay != null) {
            replay(Long.parseLong(replay));
            return;
        }
        long base = Long.getLong("jhb.sim.baseSeed", 1);
        long count = schedules();
        SimStats total = new SimStats();
        List<String> reports = new ArrayList<>();
        List<Long> failing = new ArrayList<>();
        java.util.Map<String, List<Long>> byKind = new java.util.TreeMap<>();
        boolean strict = Boolean.getBoolean("jhb.sim.strict");
        long t0 = System.nanoTime();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = mx.getCurrentThreadCpuTime();
        for (long k = 0; k < count; k++) {
            long seed = base + k;
            ScheduleGenerator.Schedule s = ScheduleGenerator.generate(seed);
            SimRunner.Result r = SimRunner.run(s, options(), false);
            total.add(r.stats());
            if (count >= 100_000 && (k + 1) % (count / 20) == 0) {
                System.out.printf(java.util.Locale.ROOT, "[sim] progress: %d of %d schedules, %d violations (%d not"
                        + " known), %.0f s%n", k + 1, count, total.violations, failing.size(),
                        (System.nanoTime() - t0) / 1e9);
            }
            if (r.violation() != null) {
                String kind = r.violation().rule() + (r.violation().knownBug() == null ? ""
                        : " [known: " + r.violation().knownBug() + "]");
                byKind.computeIfAbsent(kind, x -> new ArrayList<>()).add(seed);
                if (strict || r.violation().knownBug() == null) {
                    failing.add(seed);
                }
            }
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        System.out.println("[sim] " + total.describe(wall) + String.format(java.util.Locale.ROOT,
                "; %.1f s of CPU (%.2f ms per schedule)", (mx.getCurrentThreadCpuTime() - cpu0) / 1e9,
                (mx.getCurrentThreadCpuTime() - cpu0) / 1e6 / count));
        byKind.forEach((kind, seeds) -> System.out.println("[sim] " + seeds.size() + " x " + kind + ": seeds "
                + seeds.subList(0, Math.min(20, seeds.size()))));
        int reportsWanted = Integer.getInteger("jhb.sim.reports", 3);
        for (List<Long> seeds : byKind.values()) {
            long seed = seeds.get(0);
            if (reports.size() < reportsWanted && (strict || failing.contains(seed))) {
                ScheduleGenerator.Schedule s = ScheduleGenerator.generate(seed);
                reports.add(SimRunner.report(s, SimRunner.run(s, options(), false).violation(), options(), 60));
            }
        }
        reports.forEach(System.out::println);
        assertThat(failing).as("seeds that broke an invariant (reports above)").isEmpty();
        assertThat(total.schedules).isEqualTo(count);
    }

    private static void replay(long seed) {
        ScheduleGenerator.Schedule s = ScheduleGenerator.generate(seed);
        SimRunner.Result r = SimRunner.run(s, options(), true);
        System.out.println("[sim] seed " + seed + ": " + s.setup().describe());
        r.trace().forEach(l -> System.out.println("  " + l));
        if (r.violation() != null) {
            System.out.println(SimRunner.report(s, r.violation(), options(), 200));
        }
        assertThat(r.violation()).as("seed " + seed).isNull();
    }
}
