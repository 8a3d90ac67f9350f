package org.jheartbeat.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.protocol.SafetyRules;
import org.jheartbeat.core.takeover.GroupState;
import org.junit.jupiter.api.Test;

/**
 * The two questions docs/simulation.md answers, settled on the simulator: is auto_failback lost after a
 * group failed on both nodes ("local resources in flux"), and do both nodes fence each other when every
 * link is cut while both hold groups (what the fence delay should prevent).
 */
class SimulationQuestionsTest {
    private static final int G1 = 0; // node1's group, 198.18.0.100/24/eth0 labweb
    private static final int G2 = 1; // node2's group, 198.18.0.101 labweb2

    private static Simulator run(SimSetup setup, List<SimEvent> events, long millis) {
        return run(setup, events, millis, true);
    }

    private static Simulator run(SimSetup setup, List<SimEvent> events, long millis, boolean trace) {
        Simulator sim = new Simulator(7, setup, events, millis, Invariants.Options.DEFAULT, trace);
        sim.run();
        return sim;
    }

    private static SimSetup activeActive(boolean stonith, long fenceDelayMillis, FailbackPolicy failback) {
        return new SimSetup(stonith, fenceDelayMillis, failback, false, true, false, 0, 300, 200, 500, 10_000,
                SafetyRules.ALL, SimSetup.FAST);
    }

    private static boolean runs(Simulator sim, int node, int gid) {
        int i = sim.nodes[node].agents.localOf(gid);
        return i >= 0 && sim.nodes[node].agents.runsFully(i);
    }

    private static long lines(Simulator sim, String part) {
        return sim.traceLines().stream().filter(l -> l.contains(part)).count();
    }

    /**
     * node2's group fails on node2 and on node1 (each start fails), so it stays down on both nodes while
     * node1 runs its own group. node1 is power-cycled: node2 takes node1's group over. When node1 returns
     * auto_failback gives it back, though not at once: node2 announces its failure with node1's rejoin,
     * the new node1 daemon (which forgot its own failure) takes node2's failed group as an offer, node2's
     * failback standby arrives while node1 is starting it and is ignored ("local resources in flux"), node2
     * cancels it after 10 s. Heartbeat 3.0.6 never asks again and node1's group stays on node2 for good;
     * here the failback stays due and node2 asks again once both nodes are stable (docs/simulation.md,
     * question 1).
     */
    @Test
    void autoFailbackIsAskedAgainWhenTheRejoinedPeerWasInFlux() {
        List<SimEvent> events = List.of(
                new SimEvent(5_000, SimEvent.Kind.AGENT, 0, G2, 0, SimEvent.AgentFault.START_FAILS.ordinal(), 40_000),
                new SimEvent(5_000, SimEvent.Kind.AGENT, 1, G2, 0, SimEvent.AgentFault.START_FAILS.ordinal(), 40_000),
                new SimEvent(6_000, SimEvent.Kind.MONITOR, 1, G2, 0, 0, 0),
                new SimEvent(12_000, SimEvent.Kind.POWER, 0, 0, 0, 0, 3_000));
        Simulator sim = new Simulator(7, activeActive(false, 0, FailbackPolicy.ON), events, 40_000,
                Invariants.Options.DEFAULT, true);
        sim.run();
        assertThat(sim.nodes[1].engine.machine().groupState(sim.nodes[1].agents.localOf(G2)))
                .as("node2's group failed on node2").isEqualTo(GroupState.FAILED);
        assertThat(runs(sim, 0, G2) || runs(sim, 1, G2)).as("node2's group runs nowhere").isFalse();
        assertThat(lines(sim, "auto_failback: giving node1 its resource groups back")).isEqualTo(1);
        assertThat(lines(sim, "standby message [me] from node2 ignored.  local resources in flux.")).isEqualTo(1);
        assertThat(lines(sim, "No reply to standby request.  Standby request cancelled.")).isEqualTo(1);
        assertThat(lines(sim, "node2 INFO: auto_failback: handing node1 back its share [foreign]"))
                .as("asked again once both nodes are stable").isEqualTo(1);
        assertThat(runs(sim, 0, G1)).as("node1's group back on node1 (auto_failback)\n%s",
                String.join("\n", sim.traceLines())).isTrue();
        assertThat(runs(sim, 1, G1)).isFalse();
        assertThat(sim.invariants.violation()).isNull();
    }

    /**
     * Every link cut while each node runs its group, STONITH on both: with the fence delay only node1
     * (first in ha.cf, as many groups) fences, and it serves both groups; without it both fence each other.
     */
    @Test
    void everyLinkCutWhileBothHoldGroups() {
        List<SimEvent> cut = List.of(new SimEvent(15_000, SimEvent.Kind.CUT, 0, 2, 2, 0, 10_000));
        Simulator delayed = run(activeActive(true, 5000, FailbackPolicy.ON), cut, 26_000);
        assertThat(lines(delayed, "node2 INFO: Delaying STONITH of node1 by 5 s")).isEqualTo(1);
        assertThat(delayed.stats.fences).isEqualTo(1);
        assertThat(delayed.stats.mutualFences).isZero();
        assertThat(lines(delayed, "node1 power off")).isZero();
        assertThat(runs(delayed, 0, G1) && runs(delayed, 0, G2)).as("node1 serves both groups").isTrue();
        assertThat(delayed.invariants.violation()).isNull();

        Simulator racing = run(activeActive(true, 0, FailbackPolicy.ON), cut, 26_000);
        assertThat(racing.stats.mutualFences).as("without the delay both fence each other").isEqualTo(1);
        assertThat(runs(racing, 0, G1) || runs(racing, 1, G1)).as("nothing runs: both were powered off").isFalse();
    }

    /**
     * The same over many clusters and cuts: every link cut once for 0.5 to 30 s, in 300 random clusters with
     * STONITH. Cut once the cluster has settled (both nodes up and done acquiring: at least 8 s after the
     * later node started), no cut ends in a mutual fencing with the fence delay, while without it many do.
     * Cut at any time, including the first seconds while a node still starts its own group, the delay
     * prevents most but not all (docs/simulation.md: the weights come from {@code rsc_hold} bits, which do
     * not show a group still starting, and each node sees the other's last report only).
     */
    @Test
    void noMutualFencingWithTheDelayOnceTheClusterSettled() {
        long[] settled = mutualFencings(true);
        long[] any = mutualFencings(false);
        System.out.println("[sim] question 2: mutual fencings in 300 cuts of a settled cluster: " + settled[0]
                + " with fence_delay 5 s, " + settled[1] + " without; in 300 cuts at any time: " + any[0] + " with, "
                + any[1] + " without");
        assertThat(settled[0]).isZero();
        assertThat(settled[1]).isPositive();
        assertThat(any[0]).isLessThan(any[1] / 4);
    }

    /** Mutual fencings over 300 single cuts: [with the 5 s fence delay, without]. */
    private static long[] mutualFencings(boolean settled) {
        long[] out = new long[2];
        for (long seed = 1; seed <= 300; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            SimSetup base = SimSetup.draw(r);
            long at = settled ? base.node2StartMillis() + 8_000 + r.nextLong(10_000) : 3_000 + r.nextLong(25_000);
            List<SimEvent> cut = List.of(new SimEvent(at, SimEvent.Kind.CUT, 0, 2, 2, 0, 500 + r.nextLong(30_000)));
            out[0] += run(base.withStonith(true, 5000), cut, 60_000, false).stats.mutualFences;
            out[1] += run(base.withStonith(true, 0), cut, 60_000, false).stats.mutualFences;
        }
        return out;
    }
}
