package org.jheartbeat.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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
                        + " holdings: at its next death it \"gave up resources\", was not fenced, and its group ran twice"),
                open(9, KnownBugs.FROZEN_RESUME, "node2 frozen 4.8 s (deadtime 3 s): node1 takes its group, node2"
                        + " resumes and never notices; both run it for good (the lab's report)"),
                open(54, KnownBugs.FROZEN_RESUME, "the same after a one-way cut node1->node2 of 9.4 s"),
                open(1069, KnownBugs.FROZEN_RESUME, "STONITH: node1 frozen 9.4 s while node2 shuts down and restarts;"
                        + " node2 takes its own group while node1, resumed, still runs it"),
                open(223, KnownBugs.RSC_HOLD_NOT_WHAT_RUNS, "node1 killed, restarts while node2 still takes node1's"
                        + " group over: node2 answers rsc_hold=none isstable=0, node1 takes its group too"),
                open(1313, KnownBugs.RSC_HOLD_NOT_WHAT_RUNS, "STONITH: node2 runs node1's group after a failure offer;"
                        + " node1's daemon restarts and takes it back while node2 runs it"),
                open(1971, KnownBugs.RSC_HOLD_NOT_WHAT_RUNS, "STONITH: the same offer, then node2's daemon is killed:"
                        + " \"gave up resources\", not fenced, its group taken over while it runs"),
                open(386, KnownBugs.RSC_HOLD_NOT_WHAT_RUNS, "after maintenance, node2 releases node1's group as"
                        + " \"owned by both\" from node1's bits alone: it runs nowhere"),
                open(755, KnownBugs.FAILED_START_LEAVES_RUNNING, "node1's start of node2's group fails and its"
                        + " rollback too; the group is offered back to node2, which starts it while node1 runs part of it"),
                open(319, KnownBugs.NEGOTIATION_TIMEOUT, "STONITH: node2's starting lost in a cut; 10 s later it"
                        + " takes its group, which node1 runs"),
                open(1884, KnownBugs.FENCE_CONFIRMED_AFTER_REBOOT, "STONITH: the fence confirms 7 s late, after node2"
                        + " booted and took its group; node1 takes it over too"),
                open(8673, KnownBugs.STALE_STANDBY_DONE, "a done delayed 3 s across node1's restart ends node1's new"
                        + " standby exchange: it starts the group node2 still stops"),
                open(2612, KnownBugs.STANDBY_TAKING_STUCK, "a standby request cancelled during a one-way cut reaches"
                        + " node2 later; node2 waits in STANDBY_TAKING for good and both run node1's group"),
                open(2839, KnownBugs.RELOAD_READDS_HELD_GROUP, "node2's haresources drops, then adds back its group"
                        + " that node1 runs: node2 starts it too"),
                open(5437, KnownBugs.RELOAD_STOPS_MAINTENANCE, "a reload removing a group in maintenance stops it"),
                open(1401, KnownBugs.MAINTENANCE_OFF_PEER_DOWN, "STONITH: node2 stopped in maintenance (its group left"
                        + " running); maintenance off on node1 starts that group on node1 too"),
                Arguments.of(24322L, null, "the serial line flooded by retransmissions after a cut, eth1 still cut:"
                        + " beats queued behind them, node1 declared dead while its frames arrived, its group taken"),
                Arguments.of(101320L, null, "the same flood: a split brain healed later than its bound"),
                Arguments.of(23445L, null, "STONITH: node2 fenced node1, took its group, the group failed there and stayed"
                        + " down (node1 dead); hb cleanup on node2 cleared it but did not try it again as it said, and the"
                        + " rejoined node1 saw rsc_hold=all: it ran nowhere"),
                open(3570, KnownBugs.DOUBLE_OWNERSHIP_UNRESOLVED, "after a cut, node2's auto_failback standby (after a"
                        + " cleanup) is ignored by node1, and node2 never releases node1's group"));
    }

    /**
     * Found by the long run (it stopped the run: the exception escaped): node2 reports in its {@code
     * jhb-maint} that it runs its group; a reload on node1 drops that group from node1's haresources; then
     * {@code hb maintenance on} on node1 threw IndexOutOfBoundsException in {@code NodeEngine}: the peer's
     * reported groups were kept as indices into the haresources before the reload ({@code ClusterLoop}
     * logs and drops it: the command never completes).
     */
    @org.junit.jupiter.api.Test
    void maintenanceAfterAReloadThatDroppedAGroupThePeerRuns() {
        List<SimEvent> events = List.of(
                new SimEvent(10_000, SimEvent.Kind.MAINTENANCE, 1, 1, 0, 4, 0),
                new SimEvent(14_000, SimEvent.Kind.RELOAD, 0, 0, 0, 3, 0),
                new SimEvent(16_000, SimEvent.Kind.MAINTENANCE, 0, 0, 0, 2, 0),
                new SimEvent(20_000, SimEvent.Kind.MAINTENANCE, 0, 0, 0, 3, 0),
                new SimEvent(22_000, SimEvent.Kind.MAINTENANCE, 1, 1, 0, 5, 0));
        Simulator sim = new Simulator(1, SimSetup.typical(), events, 40_000, Invariants.Options.DEFAULT, false);
        assertThat(sim.run()).isNull();
        assertThat(sim.nodes[0].persisted.nodes()).as("node1's maintenance on and off again applied").isEmpty();
        assertThat(sim.nodes[0].persisted.version()).isGreaterThanOrEqualTo(3);
    }

    /**
     * The serial line flooded by retransmissions (the long run's seeds 24322 and 101320 above): every link
     * cut for 8 s, then the serial line back while eth1 stays cut, keepalive 0.5 s and deadtime 3 s. Each
     * node asks for each of the other's missing packets every 250 ms, over the serial line alone
     * (19200 baud: about 1,900 bytes a second), and answers each request. The serial writer's queue holds
     * 4 s of line time: written in order (as before), a beat queued behind a full line arrived after
     * deadtime, node2 declared node1 dead 3 s after the line came back although its frames arrived, and
     * both ran node1's group until eth1 came back. Beats go first now, retransmissions are dropped first,
     * and a packet asked for on two media is sent again once per 240 ms.
     */
    @org.junit.jupiter.api.Test
    void beatsAreNotDelayedBehindRetransmissionsOnTheSerialLine() {
        List<SimEvent> events = List.of(
                new SimEvent(10_000, SimEvent.Kind.CUT, 0, 2, 2, 0, 8_000),
                new SimEvent(12_000, SimEvent.Kind.CUT, 0, 0, 2, 0, 20_000));
        SimSetup noStonith = new SimSetup(false, 0, org.jheartbeat.core.config.FailbackPolicy.ON, false, true, false,
                0, 300, 200, 500, 10_000, org.jheartbeat.core.protocol.SafetyRules.ALL, SimSetup.FAST);
        Simulator sim = new Simulator(1, noStonith, events, 40_000, Invariants.Options.DEFAULT, true);
        assertThat(sim.run()).as("%s", String.join("\n", sim.traceLines())).isNull();
        assertThat(sim.traceLines()).as("retransmissions asked for over the serial line")
                .anyMatch(l -> l.contains("lost packet(s) for"));
        assertThat(sim.traceLines()).as("nobody declared dead after the serial line came back")
                .noneMatch(l -> l.contains(": is dead") && time(l) > 18.0);
    }

    private static double time(String traceLine) {
        return Double.parseDouble(traceLine.trim().split(" ")[0]);
    }

    private static Arguments open(long seed, String knownBug, String what) {
        return Arguments.of(seed, knownBug, what);
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
