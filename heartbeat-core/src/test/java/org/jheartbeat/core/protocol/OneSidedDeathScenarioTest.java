package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * One node declares the other dead while the other never notices (a freeze of about deadtime, SIGSTOP then
 * SIGCONT): the live node takes over and, when the resumed node is heard again, claims what it took
 * ({@code info=partition}); the resumed node first reads the frames that waited while it was stopped, which
 * may be stale (docs/simulation.md, "one-sided-death", simulator seeds 302 and 9). Harness: keepalive
 * 500 ms, deadtime 3 s, group operations 200 ms.
 */
class OneSidedDeathScenarioTest {
    private static final String G1 = "198.18.0.100/24/eth0";
    private static final String G2 = "198.18.0.101";

    /**
     * Simulator seed 302: node2 goes standby while node1 is frozen; it declares node1 dead, cancels its
     * request and takes node1's group. node1 resumes and reads the request that waited. Before: node1
     * accepted it, waited in STANDBY_TAKING for a {@code done} that never came and answered no claim, so
     * both ran G1 for good.
     */
    @Test
    void aStandbyRequestThatWaitedDuringAFreezeIsNotTakenUpAndTheDoubleCopyEnds() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive().subList(0, 1), FailbackPolicy.ON, 200);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        assertThat(h.runningOn(N1)).containsExactly(G1);
        h.suspend(N1);
        h.run(2000);
        h.standby(N2, ResourceSet.ALL);
        h.run(2500);
        assertThat(h.runningOn(N2)).as("node1 declared dead: node2 took its group").containsExactly(G1);
        h.forgetDoubleRun(); // the split brain of a freeze without STONITH
        h.resume(N1, false); // the request that waited is read before the overdue timer
        h.run(3000);
        assertThat(h.runningOn(N1)).containsExactly(G1);
        assertThat(h.runningOn(N2)).as("node2 let go of node1's group").isEmpty();
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.STABLE);
        assertThat(h.logs()).anyMatch(l -> l.endsWith("node1 INFO: standby message [me] from node2 ignored.  local"
                + " resources in flux."));
        assertThat(h.ops()).contains("node2 stop " + G1 + " PARTITION_RELEASE").noneMatch(op -> op.startsWith("node1 stop"));
    }

    /**
     * node2 hands its group to node1 ({@code hb standby local}); node1 is frozen just after it answered, so
     * node2's {@code done} waits in node1's socket while node2 declares node1 dead and takes both groups.
     * Before: the resumed node1 read the {@code done} and started G2, which node2 ran again, while the links
     * worked. Now nothing starts until node2 has answered node1's return; node2's {@code jhb-groups}, sent
     * with its takeover although it took node1 for dead, waits in the socket behind the {@code done} and
     * shows G2 running there, so the exchange ends with nothing acquired (before those reports went to a
     * dead peer, node2's {@code partition} claim cancelled it).
     */
    @Test
    void aDoneThatWaitedDuringAFreezeStartsNothingThePeerTookBack() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 200);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.standby(N2, ResourceSet.LOCAL);
        h.run(1); // node1 answers other
        h.suspend(N1);
        h.run(4000);
        assertThat(h.runningOn(N2)).as("node1 declared dead: node2 took both groups").containsExactly(G1, G2);
        h.forgetDoubleRun();
        h.resume(N1, false);
        h.run(4000);
        assertThat(h.ops()).noneMatch(op -> op.startsWith("node1 start " + G2));
        assertThat(h.runningOn(N1)).containsExactly(G1);
        assertThat(h.runningOn(N2)).containsExactly(G2);
        // held back by the resynchronisation: the done read first ends the exchange, but starts nothing node2 reports
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 WARN: node2 may have declared this node dead during its"
                + " pause: no resource group is started until node2 has answered its return"));
        assertThat(h.logs()).anyMatch(l -> l.endsWith("node1 INFO: Standby resource acquisition done [local]."));
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.STABLE);
    }

    /**
     * The same freeze during a negotiation with a Heartbeat 3.0.6 peer (no {@code jhb-groups}): node1 is
     * frozen before its own group started; node2 takes it over. Resumed, node1 reads node2's first answer
     * ({@code rsc_hold=local}) and would take its group; it waits out the resynchronisation instead and,
     * node2's {@code rsc_hold} then covering node1's group, leaves it where it runs (as Heartbeat's nice_failback
     * does: the group stays on the node that took it over).
     */
    @Test
    void withAHeartbeatPeerTheBitsKeepTheResumedNodeFromStartingWhatThePeerTookOver() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 200);
        h.asHeartbeat306(N2);
        h.start(N2);
        h.run(3000);
        h.start(N1);
        for (int t = 0; t < 3000 && h.engine(N1).machine().state() != TakeoverState.NEGOTIATING; t++) {
            h.run(1);
        }
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.NEGOTIATING);
        h.suspend(N1); // node2's answer waits in node1's socket
        h.run(5000);
        assertThat(h.runningOn(N2)).as("node1 declared dead: node2 took its group").containsExactly(G1, G2);
        h.resume(N1, false);
        h.run(4000);
        assertThat(h.ops()).noneMatch(op -> op.startsWith("node1 start"));
        assertThat(h.runningOn(N1)).isEmpty();
        assertThat(h.runningOn(N2)).containsExactly(G1, G2);
    }
}
