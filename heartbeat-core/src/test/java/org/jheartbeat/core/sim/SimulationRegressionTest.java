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
                Arguments.of(9L, null, "node2 frozen 4.8 s (deadtime 3 s): node1 takes its group, node2 resumes and"
                        + " never notices; both ran it for good (the lab's report)"),
                Arguments.of(54L, null, "the same after a one-way cut node1->node2 of 9.4 s"),
                Arguments.of(1069L, null, "STONITH: node1 frozen 9.4 s while node2 shuts down and restarts; node2"
                        + " took its own group while node1, resumed, still ran it"),
                Arguments.of(302L, null, "node1 frozen while node2 goes standby: node1 resumed, took up the request that"
                        + " waited, and waited in STANDBY_TAKING for good while both ran its group"),
                Arguments.of(351L, null, "node1 frozen during its negotiation: resumed, it read the answer that waited"
                        + " and started its group, which node2 had taken over meanwhile"),
                Arguments.of(1196L, null, "node2 frozen twice: resumed, it re-announced (restarted) its group on a"
                        + " stale partition report while node1 had taken it over again"),
                Arguments.of(314L, null, "after a cut and a cleanup both run node1's group; node2, whose failback"
                        + " standby waits for an answer, never let go of it"),
                Arguments.of(4874L, null, "STONITH with fence delay: a failback standby cancelled on node2 by node1's"
                        + " death (fence delayed, then cancelled) while node1 had released the group: it ran nowhere"),
                Arguments.of(223L, null, "node1 killed, restarts while node2 still takes node1's"
                        + " group over: node2 answers rsc_hold=none isstable=0, node1 takes its group too"),
                Arguments.of(1313L, null, "STONITH: node2 runs node1's group after a failure offer;"
                        + " node1's daemon restarts and takes it back while node2 runs it"),
                Arguments.of(1971L, null, "STONITH: the same offer, then node2's daemon is killed:"
                        + " \"gave up resources\", not fenced, its group taken over while it runs"),
                Arguments.of(386L, null, "after maintenance, node2 releases node1's group as"
                        + " \"owned by both\" from node1's bits alone: it runs nowhere"),
                Arguments.of(146L, null, "node2 killed and restarted while node1 takes its group over: node1's"
                        + " answer in flux claims nothing yet, node2 took its group too"),
                Arguments.of(2033L, null, "a group released as \"owned by both\" from the peer's bits: it ran nowhere"),
                Arguments.of(755L, null, "node1's start of node2's group fails and its rollback too: the group"
                        + " must stay BLOCKED on node1, not be offered back to node2 while node1 runs part of it"),
                Arguments.of(319L, null, "STONITH: node2's starting lost in a cut; 10 s later it"
                        + " takes its group, which node1 runs"),
                Arguments.of(3415L, null, "STONITH: the same negotiation timeout while node1 runs node2's group"),
                Arguments.of(1884L, null, "STONITH: the fence confirms 7 s late, after node2"
                        + " booted and took its group; node1 takes it over too"),
                Arguments.of(7183L, null, "STONITH: the same late confirmation after node2 rebooted"),
                Arguments.of(8673L, null, "a done delayed 3 s across node1's restart ends node1's new"
                        + " standby exchange: it starts the group node2 still stops"),
                Arguments.of(2612L, null, "a standby request cancelled during a one-way cut reaches"
                        + " node2 later; node2 waits in STANDBY_TAKING for good and both run node1's group"),
                Arguments.of(2839L, null, "node2's haresources drops, then adds back its group that node1 runs:"
                        + " node2 must not start it too (node1's jhb-groups says it runs there)"),
                Arguments.of(19528L, null, "a group re-added by a reload on one node must not run nowhere (the long"
                        + " run; the converse of 2839)"),
                Arguments.of(5437L, null, "a reload removing a group in maintenance must leave it as it is"),
                Arguments.of(1401L, null, "STONITH: node2 stopped in maintenance (its group left running);"
                        + " maintenance off on node1 must not start that group, nor node2's restart make node1 take it"),
                Arguments.of(51806L, null, "STONITH: node1's haresources loses node2's group while node1's daemon is"
                        + " down and runs it: the start-up must release it (state directory), or node2 runs it too"),
                Arguments.of(3570L, null, "after a cut, node2's auto_failback standby (after a"
                        + " cleanup) is ignored by node1, and node2 never releases node1's group"),
                Arguments.of(1749L, null, "every link cut 7 s: node2's auto_failback standby, ignored by node1 (in"
                        + " flux), kept node2 from releasing node1's group for 10 s"),
                Arguments.of(6721L, null, "the same double ownership, reported during a standby exchange"),
                Arguments.of(24322L, null, "the serial line flooded by retransmissions after a cut, eth1 still cut:"
                        + " beats queued behind them, node1 declared dead while its frames arrived, its group taken"),
                Arguments.of(101320L, null, "the same flood: a split brain healed later than its bound"),
                Arguments.of(23445L, null, "STONITH: node2 fenced node1, took its group, the group failed there and stayed"
                        + " down (node1 dead); hb cleanup on node2 cleared it but did not try it again as it said, and the"
                        + " rejoined node1 saw rsc_hold=all: it ran nowhere"),
                Arguments.of(1944L, null, "STONITH: node1's reload drops node2's group during a cut, node2 \"gave up"
                        + " resources\" (unfenced); the reload adding it back must not take it while node2 reports it running"),
                Arguments.of(4346L, null, "a one-way cut node1->node2 as node1 restarts: node2 takes node1's group and its"
                        + " mach_down bits reach node1, whose report of node2 was older (none sent to a dead peer): node1 took its group"),
                Arguments.of(8826L, null, "the same after a one-way loss node1->node2 of 72 %"),
                Arguments.of(1486L, null, "eth1 cut: node2's group fails, node2 offers it to node1 over the serial line"
                        + " and reloads a haresources without it, then with it again: the re-added group stays failed here"),
                Arguments.of(5793L, null, "loss 56 %, hb takeover foreign on node2: node1's done read with its"
                        + " \"stopping\" and \"stopped\" reports missing; node2 released the group it had just"
                        + " taken on the stale \"running\": it ran nowhere"),
                Arguments.of(6391L, null, "the same stale report after hb standby all on node2, delays and 89 % loss"),
                Arguments.of(9673L, null, "the same after hb cleanup, delays up to 3.8 s and hb standby local"),
                Arguments.of(8592L, null, "node2 started while node1 shut down; node1 restarted during node2's"
                        + " negotiation: each waited for the other's stable answer until the 10 s timeout"),
                Arguments.of(9487L, null, "every link cut 20 s, a reload on node1 dropping node2's group, node1 frozen"
                        + " 15.7 s: the reload adding it back, read first on resume, must not start it while node2 runs it"),
                Arguments.of(17685L, null, "node2 frozen 3.6 s before its comm up, node1 declares it dead at initdead"
                        + " and takes its group: node2, resumed, read node1's queued starting as both starting and took it too"),
                Arguments.of(27548L, null, "node1 frozen 25 s with hb maintenance off queued: read first on resume, it"
                        + " took node2 for dead still and started node2's group, which node2 ran"),
                Arguments.of(27940L, null, "node1 frozen with node2's standby done queued, node1->node2 cut: node2"
                        + " declares node1 dead and starts its group without telling node1, which starts it too"),
                Arguments.of(10200L, null, "a reload on node1 drops node2's group in cluster-wide maintenance (left"
                        + " running); maintenance off on node2 must not start it (node1's probe answer lists it), nor the"
                        + " reload adding it back take it for stopped"),
                Arguments.of(110400L, null, "node2 restarted, node1 frozen, then cut node1->node2: node2 takes node1's"
                        + " group at initdead; once healed it never heard node1's report (sent before it tracked node1's"
                        + " frames) and ran the group on beside node1"),
                Arguments.of(146810L, null, "the same unhealed split brain: node1's report lost to a peer that took it"
                        + " for dead"),
                Arguments.of(239689L, null, "node1's daemon killed running node2's group, its haresources loses it,"
                        + " the start-up release fails (BLOCKED); the reload adding it back must not take it for stopped"),
                Arguments.of(243478L, null, "a reload drops node2's group from node1 and its stop fails: the reload"
                        + " adding it back must find it BLOCKED, not stopped, or it runs on both for good"),
                Arguments.of(11868L, null, "node1 frozen 9.1 s with hb standby all waiting: node2, which took node1's group,"
                        + " accepted the request before node1's return and released the group on that return; node1 gave"
                        + " it up, then cancelled on node2's partition claim: it ran nowhere"),
                Arguments.of(22076L, null, "the same with both nodes frozen and hb standby all on node2"),
                Arguments.of(31675L, null, "the same with hb standby local on node2 after a serial cut"),
                Arguments.of(47721L, null, "STONITH, fence delay: node2 starts past node1's initdead; node1's device fails,"
                        + " and node1 kept fencing node2, heard starting meanwhile: nothing ran for 12 s, then node2 was reset"),
                Arguments.of(48141L, null, "STONITH: the same with node1's first request timing out (8 s) while node2 starts"),
                Arguments.of(40370L, null, "STONITH, fence delay: the same with the device timing out (node2 left on)"),
                Arguments.of(51266L, null, "STONITH, fence delay, auto_failback legacy: the same with a failing device"),
                Arguments.of(58384L, null, "STONITH, fence delay: the same with the device timing out once"),
                Arguments.of(45646L, null, "STONITH: node2's group failed there and ran on node1; node1 power-cycled, node2"
                        + " reloads without then with that group: its kept failure was reported as stopped and never offered"
                        + " to node1's new run: it ran nowhere"),
                Arguments.of(39330L, null, "hb maintenance off on node1 while node2 was taken for dead never reached node2,"
                        + " which shut down leaving its group running in maintenance: node1 took it over at the shutdone"),
                Arguments.of(63457L, null, "STONITH: the same with node1 shutting down on resume; node2 took node1's"
                        + " group over, unfenced (\"gave up resources\"), while node1 ran it"),
                Arguments.of(157712L, null, "STONITH: a reload on node1 drops node2's group; node2, declared dead while it"
                        + " runs it, \"gave up resources\" by the groups node1 defines: not fenced, and maintenance off"
                        + " later started the re-added group"),
                Arguments.of(7781L, null, "STONITH: node1's jhb-maint lost, its daemon killed and restarted in"
                        + " maintenance: node2 took it for holding nothing and started its group"),
                Arguments.of(6528L, null, "node2 killed and restarted, then frozen past deadtime: node1's hold of node2's"
                        + " group (its last report) ended as node2 resumed, and both started it"),
                Arguments.of(9037L, null, "the same with the nodes swapped: node1 killed 1.9 s, then frozen 5.4 s (deadtime 3 s)"),
                Arguments.of(14222L, null, "STONITH: node1 runs node2's group and reloads a haresources without it"
                        + " as node2 negotiates: node1's report dropped the group it was stopping, node2 started it"),
                Arguments.of(15617L, null, "the same reload after node2's daemon was killed and restarted"),
                Arguments.of(25481L, null, "the same reload while node2 boots"),
                Arguments.of(63695L, null, "node2 reloads without its own group and goes standby during that stop:"
                        + " node1 took the group at the done while node2 still stopped it"),
                Arguments.of(52076L, null, "the same standby 390 ms after the reload"),
                Arguments.of(84588L, null, "node1's reload drops node2's group (run there after a failure offer) and"
                        + " node1 shuts down during that stop: shutdone must wait for it, and a failed stop is told to node2"),
                Arguments.of(26728L, null, "STONITH, fence delay: node1 frozen in its standby, heard again in the delay;"
                        + " it took its group back as node2's claim showed, the report lost in a one-way cut: node2 took"
                        + " it for stable and holding nothing (\"gave up resources\") and took the group unfenced"),
                Arguments.of(36070L, null, "STONITH: node1's group failed, node2 restarted and took it as an offer, hb"
                        + " cleanup on node1, then 86 % loss node2->node1: node1 started it as it asked for node2's fence"));
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
