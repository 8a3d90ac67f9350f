package org.jheartbeat.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.protocol.SafetyRules;
import org.junit.jupiter.api.Test;

/**
 * Proof that the simulator bites: with one safety rule switched off ({@link SafetyRules}, a test-only
 * switch the daemon never touches), it finds a schedule that breaks invariant (a) within a few hundred
 * schedules, far inside the CI budget, while the same schedules with every rule on do not break it (or
 * only as a known open bug). The schedules are the CI run's, with STONITH on both nodes for the fencing
 * rule; for the generation rule, each also gets replays of old frames (any generation) every few seconds.
 * {@code -Djhb.sim.biteTrace=true} prints the shrunk schedule and trace of what it finds.
 */
class SafetyRulesBiteTest {
    /** At most this many schedules per rule (each about 4 ms of CPU). */
    static final int BUDGET = 500;

    private static final SafetyRules NO_FENCE = new SafetyRules(false, true);
    private static final SafetyRules OLD_GENERATIONS_ACCEPTED = new SafetyRules(true, false);

    /** The first seed whose schedule breaks (a) with {@code rules} but not with every rule on, or -1. */
    private static long firstBite(SafetyRules rules, boolean stonith, boolean replays, List<String> found) {
        for (long seed = 1; seed <= BUDGET; seed++) {
            ScheduleGenerator.Schedule s = schedule(seed, stonith, replays);
            Invariants.Violation off = SimRunner.run(s.withSetup(s.setup().with(rules)), Invariants.Options.DEFAULT,
                    false).violation();
            if (off == null || !off.rule().startsWith("(a)")) {
                continue;
            }
            Invariants.Violation on = SimRunner.run(s, Invariants.Options.DEFAULT, false).violation();
            if (on == null || on.knownBug() != null && !on.rule().equals(off.rule())) {
                found.add("seed " + seed + ": " + off.describe());
                if (Boolean.getBoolean("jhb.sim.biteTrace")) {
                    ScheduleGenerator.Schedule unsafe = s.withSetup(s.setup().with(rules));
                    System.out.println(SimRunner.report(unsafe, off, Invariants.Options.DEFAULT, 80));
                }
                return seed;
            }
        }
        return -1;
    }

    private static ScheduleGenerator.Schedule schedule(long seed, boolean stonith, boolean replays) {
        ScheduleGenerator.Schedule s = ScheduleGenerator.generate(seed);
        if (stonith) {
            s = s.withSetup(s.setup().withStonith(true, 5000));
        }
        if (replays) {
            List<SimEvent> events = new ArrayList<>(s.events());
            for (long t = 3000; t < 45_000; t += 1500) {
                events.add(new SimEvent(t, SimEvent.Kind.REPLAY, 0, 2, (int) (t / 1500) % 2, 20, 0));
            }
            events.sort(java.util.Comparator.comparingLong(SimEvent::atMillis));
            s = s.withEvents(events);
        }
        return s;
    }

    @Test
    void withoutFencingBeforeTakeoverAGroupRunsTwiceWithinTheBudget() {
        List<String> found = new ArrayList<>();
        long seed = firstBite(NO_FENCE, true, false, found);
        System.out.println("[sim] fence before takeover off: " + found);
        assertThat(seed).as("a seed within %d schedules", BUDGET).isPositive();
        assertThat(found.get(0)).contains("(a)");
    }

    @Test
    void acceptingOlderGenerationsBreaksTheClusterWithinTheBudget() {
        List<String> found = new ArrayList<>();
        long seed = firstBite(OLD_GENERATIONS_ACCEPTED, false, true, found);
        System.out.println("[sim] older generations accepted: " + found);
        assertThat(seed).as("a seed within %d schedules", BUDGET).isPositive();
        assertThat(found.get(0)).contains("(a)");
    }
}
