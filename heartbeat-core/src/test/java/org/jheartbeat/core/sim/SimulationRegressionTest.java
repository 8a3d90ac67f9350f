package org.jheartbeat.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every bug the simulator found keeps its seed here (docs/simulation.md, "Bugs found"). A fixed bug's
 * seed must keep every invariant. An open bug's seed may still break one, but only as that known bug
 * ({@link KnownBugs}); with {@code -Djhb.sim.strict=true} it must pass too (to check a fix). The seeds
 * are those of {@link ScheduleGenerator} as it is: a change to how schedules are drawn needs new seeds
 * (replay one with {@code -Djhb.sim.seed=N} to see its shrunk schedule).
 */
class SimulationRegressionTest {
    /** The seeds: {@code seed, known open bug or null when fixed, what it found}. */
    static Stream<Arguments> seeds() {
        return Stream.of(
                Arguments.of(625L, null, "standby hand-over: the peer lost right after our release was not fenced"
                        + " (\"gave up resources\") and its group was taken over while it ran it"),
                Arguments.of(1832L, null, "a peer heard again during the fence delay (a one-way cut) had lost its"
                        + " holdings: at its next death it \"gave up resources\", was not fenced, and its group ran twice"));
    }

    @ParameterizedTest(name = "seed {0}: {2}")
    @MethodSource("seeds")
    void seedKeepsItsInvariantsOrFailsOnlyAsItsKnownBug(long seed, String knownBug, String what) {
        ScheduleGenerator.Schedule s = ScheduleGenerator.generate(seed);
        Invariants.Violation v = SimRunner.run(s, Invariants.Options.DEFAULT, false).violation();
        if (knownBug == null || Boolean.getBoolean("jhb.sim.strict")) {
            assertThat(v).as("seed %d (%s)", seed, what).isNull();
        } else if (v != null) {
            assertThat(v.knownBug()).as("seed %d breaks %s", seed, v.describe()).isEqualTo(knownBug);
        }
    }
}
