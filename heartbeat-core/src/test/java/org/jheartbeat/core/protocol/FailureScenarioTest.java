package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * Where a group goes after each failure (docs/design/takeover.md, "Failures"): two engines, real
 * codec, fake clock. Every test also checks that no group ever ran on both nodes.
 */
class FailureScenarioTest {
    static final String G1 = "198.18.0.100/24/eth0";
    static final String G2 = "198.18.0.101";

    private static TwoNodeHarness harness(FailbackPolicy failback, boolean stonith) {
        return new TwoNodeHarness(TwoNodeHarness.activeActive(), failback, 200, stonith);
    }

    private static void neverBoth(TwoNodeHarness h) {
        assertThat(h.doubleRun()).as("trace %s", h.trace()).isNull();
    }

    @Test
    void startFailureOnThePreferredNodeIsOfferedToTheHealthyPeerOnce() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.failStarts(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        assertThat(h.engine(N1).machine().groupState(0)).isEqualTo(GroupState.FAILED);
        assertThat(h.engine(N1).machine().groupProblem(0)).startsWith("failed to start here");
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 CRIT: Resource group " + G1
                + " failed to start on node1 (resource labweb failed (test)); offering it to node2"));
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 WARN: node1 could not start resource group " + G1
                + "; taking it over"));
        h.run(20_000);
        assertThat(h.count("node1 failed to start " + G1)).as("no ping-pong").isEqualTo(1);
        assertThat(h.count("node2 started " + G1)).isEqualTo(1);
        neverBoth(h);
    }

    /**
     * auto_failback on: the group failed on its preferred node1 and runs on node2; once its failure is cleared
     * ({@code hb cleanup} on either node) node2 hands it back, as when node1 joins; with auto_failback off it
     * stays. (It used to stay on node2 until node1 restarted.)
     */
    @Test
    void aClearedFailureOnThePreferredNodeFailsTheGroupBackWithAutoFailbackOn() {
        for (var on : java.util.List.of(N1, N2)) {
            TwoNodeHarness h = harness(FailbackPolicy.ON, false);
            h.failStarts(N1, G1, true);
            h.start(N1);
            h.start(N2);
            h.run(5000);
            assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
            h.failStarts(N1, G1, false);
            h.cleanup(on, 0);
            h.run(5000);
            assertThat(h.placement()).as("cleanup on %s\n%s", on, h.trace())
                    .isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
            assertThat(h.logs()).anyMatch(l -> l.contains("node2 INFO: auto_failback: handing node1 back its share"));
            assertThat(h.engine(N1).machine().groupProblem(0)).isEmpty();
            neverBoth(h);
        }
        TwoNodeHarness off = harness(FailbackPolicy.OFF, false);
        off.failStarts(N1, G1, true);
        off.start(N1);
        off.start(N2);
        off.run(5000);
        off.failStarts(N1, G1, false);
        off.cleanup(N1, 0);
        off.run(5000);
        assertThat(off.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        neverBoth(off);
    }

    /** A cleanup that leaves the group failed on node1 (the start fails again) hands nothing back: no ping-pong. */
    @Test
    void aCleanupWhileTheGroupStillCannotStartOnThePreferredNodeMovesItOnceAndBack() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.failStarts(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        h.cleanup(N1, 0);
        h.run(20_000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        assertThat(h.count("node1 failed to start " + G1)).as("one retry after the cleanup").isEqualTo(2);
        neverBoth(h);
    }

    @Test
    void groupThatFailsWhileRunningIsStoppedThenMovesToTheHealthyPeerAndThePeersOwnGroupIsUntouched() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        h.failRunning(N1, 0, "resource lsb:lighttpd failed 4 times within 600 s");
        h.run(5000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        assertThat(h.ops()).contains("node1 stop " + G1 + " MONITOR_FAILURE", "node2 start " + G1 + " OFFER_ACCEPT");
        assertThat(h.count("node2 stopped " + G2)).as("the peer's own group is never touched").isZero();
        assertThat(h.engine(N1).machine().groupState(0)).isEqualTo(GroupState.FAILED);
        assertThat(h.engine(N1).machine().groupProblem(0)).startsWith("failed while running here: resource lsb:lighttpd");
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 CRIT: Resource group " + G1 + " failed on node1"
                + " (resource lsb:lighttpd failed 4 times within 600 s): stopping it; it leaves this node"));
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 CRIT: Resource group " + G1
                + " failed while running on node1 (resource lsb:lighttpd failed 4 times within 600 s); offering it to node2"));
        // it fails on node2 too: stopped on both, until the cleanup; then its preferred node runs it again
        h.failRunning(N2, 0, "resource lsb:lighttpd failed");
        h.run(5000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G2)));
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 CRIT: Resource group " + G1 + " failed while running on"
                + " node2 (resource lsb:lighttpd failed) and failed to start on node1: it stays stopped on both nodes"));
        h.cleanup(N1, 0);
        h.run(3000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        neverBoth(h);
    }

    @Test
    void groupThatFailsWhileRunningStaysStoppedWithCritWhenThePeerIsDown() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        h.powerOff(N2);
        h.run(15_000);
        assertThat(h.runningOn(N1)).isEqualTo(Set.of(G1, G2));
        h.failRunning(N1, 1, "resource g2 failed");
        h.run(3000);
        assertThat(h.runningOn(N1)).isEqualTo(Set.of(G1));
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 CRIT: Resource group " + G2 + " failed while running on"
                + " node1 (resource g2 failed); it stays down: node2 is not alive to run it"));
        neverBoth(h);
    }

    @Test
    void aGroupThatFailsWhileRunningAndCannotBeStoppedIsBlockedHereAndNeverStartedOnThePeer() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        h.failStops(N1, G1, true);
        h.failRunning(N1, 0, "resource lsb:db failed");
        h.run(5000);
        assertThat(h.engine(N1).machine().groupState(0)).isEqualTo(GroupState.BLOCKED);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        assertThat(h.count("node2 started " + G1)).isZero();
        // a second report while it is not running here changes nothing
        h.failRunning(N1, 0, "resource lsb:db failed again");
        h.run(1000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 WARN: Resource group " + G1 + " failed while running"
                + " (resource lsb:db failed again), but it is blocked here now; nothing more is done for that failure"));
        neverBoth(h);
    }

    /**
     * The start fails and its rollback cannot stop what it started: part of the group still runs on node1, so
     * it is blocked there as after a failed stop and never offered; node2 never starts it, not even once node1
     * is gone (no STONITH). Cleared after the repair, it is stopped once more and runs on node1 again.
     */
    @Test
    void aStartWhoseRollbackFailsIsBlockedHereAndNeverStartedOnThePeer() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.failStarts(N1, G1, true);
        h.failRollbacks(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        assertThat(h.engine(N1).machine().groupState(0)).isEqualTo(GroupState.BLOCKED);
        assertThat(h.engine(N1).machine().groupState(0).displayName()).isEqualTo("blocked");
        assertThat(h.engine(N1).machine().groupProblem(0)).isEqualTo("could not be stopped here: resource labweb"
                + " failed (test); Resource STOP failure during rollback: [IPaddr]; clear with 'hb cleanup " + G1 + "'");
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 CRIT: Resource group " + G1 + " failed to start on node1"
                + " and could not be stopped again (resource labweb failed (test); Resource STOP failure during"
                + " rollback: [IPaddr]): it may still run here. It is blocked"));
        assertThat(h.logs()).noneMatch(l -> l.contains("offering it to node2"));
        assertThat(h.engine(N2).machine().groupProblem(0)).startsWith("could not be stopped on node1");
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 CRIT: Resource group " + G1
                + " could not be stopped on node1: not starting it here (no STONITH device"));
        h.run(20_000);
        assertThat(h.ops()).noneMatch(o -> o.startsWith("node2 start " + G1));
        assertThat(h.count("node1 failed to start " + G1 + ", rollback left it running")).as("never retried").isEqualTo(1);
        // the admin stops what was left and repairs the start; the cleanup stops it once more and node1 runs it
        h.failStarts(N1, G1, false);
        h.failRollbacks(N1, G1, false);
        h.cleanup(N1, 0);
        h.run(5000);
        assertThat(h.ops()).contains("node1 stop " + G1 + " CLEANUP");
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        assertThat(h.engine(N1).machine().groupState(0)).isEqualTo(GroupState.RUNNING);
        assertThat(h.engine(N1).machine().groupProblem(0)).isEmpty();
        assertThat(h.engine(N2).machine().groupProblem(0)).isEmpty();
        assertThat(h.ops()).noneMatch(o -> o.startsWith("node2 start " + G1));
        neverBoth(h);
    }

    /** node1 dies with a group its failed rollback left running: node2, without STONITH, still does not start it. */
    @Test
    void aGroupLeftRunningByAFailedRollbackIsNotTakenOverWhenItsNodeDies() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.failStarts(N1, G1, true);
        h.failRollbacks(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        h.freeze(N1);
        h.run(10_000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node2") && l.contains("node1: is dead"));
        assertThat(h.runningOn(N2)).as("%s", h.trace()).containsExactly(G2);
        neverBoth(h);
    }

    /** With STONITH, as after any failed stop: node2 fences node1, then runs the group. */
    @Test
    void aStartWhoseRollbackFailsWithStonithMakesThePeerFenceThenStartTheGroup() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, true);
        h.failStarts(N1, G1, true);
        h.failRollbacks(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        assertThat(h.engine(N1)).as("node1 was powered off by the fence").isNull();
        assertThat(h.trace()).anyMatch(t -> t.endsWith("node2 fences node1"));
        assertThat(h.runningOn(N2)).as("%s", h.trace()).containsExactly(G1, G2);
        neverBoth(h);
    }

    @Test
    void startFailureOnBothNodesStaysStoppedWithCritUntilCleared() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.failStarts(N1, G1, true);
        h.failStarts(N2, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(20_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G2)));
        assertThat(h.count("failed to start " + G1)).as("one try on each node").isEqualTo(2);
        assertThat(h.logs()).anyMatch(l -> l.contains("CRIT: Resource group " + G1 + " failed to start on")
                && l.contains("stays stopped on both nodes until an operator clears it (hb cleanup " + G1 + ")"));
        assertThat(h.engine(N1).machine().groupProblem(0)).contains("failed to start on node2")
                .contains("hb cleanup " + G1);
        // the admin repairs the resource and clears the failure on one node: it runs on its preferred node
        h.failStarts(N1, G1, false);
        h.failStarts(N2, G1, false);
        h.cleanup(N2, 0);
        h.run(3000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        assertThat(h.engine(N1).machine().groupProblem(0)).isEmpty();
        assertThat(h.engine(N2).machine().groupProblem(0)).isEmpty();
        neverBoth(h);
    }

    @Test
    void autoFailbackOntoANodeThatCannotStartTheGroupGivesItBack() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.powerOff(N1);
        h.run(5000);
        assertThat(h.runningOn(N2)).containsExactly(G1, G2);
        h.failStarts(N1, G1, true);
        h.start(N1);
        h.run(10_000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        assertThat(h.count("node1 failed to start " + G1)).isEqualTo(1);
        assertThat(h.engine(N2).machine().handovers().outcome()).isEqualTo(Handover.FAILED);
        assertThat(h.engine(N2).machine().handovers().detail()).contains("node1 could not start resource group " + G1)
                .contains("it runs on node2 again");
        neverBoth(h);
    }

    @Test
    void operatorTakeoverWhoseStartFailsReportsFailureAndTheGroupGoesBack() {
        TwoNodeHarness h = harness(FailbackPolicy.OFF, false);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.powerOff(N1);
        h.run(5000);
        h.failStarts(N1, G1, true);
        h.start(N1);
        h.run(5000);
        assertThat(h.runningOn(N2)).containsExactly(G1, G2);
        h.takeover(N1, ResourceSet.LOCAL);
        h.run(10_000);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(Handover.FAILED);
        assertThat(h.engine(N1).machine().handovers().detail()).startsWith("acquired [local] from node2, but")
                .contains("resource group " + G1 + " failed to start on node1");
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        neverBoth(h);
    }

    @Test
    void stopFailureWithoutStonithBlocksTheHandOverOfThatGroupOnly() {
        TwoNodeHarness h = new TwoNodeHarness(java.util.List.of(
                TwoNodeHarness.activeActive().get(0), TwoNodeHarness.activeActive().get(1),
                new org.jheartbeat.core.config.ResourceGroupDecl(N1, java.util.List.of(
                        new org.jheartbeat.core.config.ResourceSpec("IPaddr", java.util.List.of("198.18.0.102"),
                                "198.18.0.102")), 3)), FailbackPolicy.ON, 200, false);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        assertThat(h.runningOn(N1)).containsExactly(G1, "198.18.0.102");
        h.failStops(N1, G1, true);
        h.standby(N1, ResourceSet.LOCAL);
        h.run(30_000);
        assertThat(h.placement()).as("%s", h.trace())
                .isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2, "198.18.0.102")));
        assertThat(h.engine(N1).machine().groupState(0)).isEqualTo(GroupState.BLOCKED);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(Handover.FAILED);
        assertThat(h.engine(N1).machine().handovers().detail())
                .contains("resource group " + G1 + " could not be stopped on node1 (resource labweb failed (test))");
        assertThat(h.engine(N2).machine().groupProblem(0)).contains("could not be stopped on node1");
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 CRIT: Resource group " + G1
                + " could not be stopped on node1: not starting it here (no STONITH device"));
        // node1 dies for good: node2 still does not start what may run on node1
        h.powerOff(N1);
        h.run(10_000);
        assertThat(h.runningOn(N2)).containsExactly(G2, "198.18.0.102");
        neverBoth(h);
    }

    @Test
    void stopFailureWithStonithMakesThePeerFenceThenStartTheGroup() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, true);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.failStops(N1, G1, true);
        h.standby(N1, ResourceSet.LOCAL);
        h.run(15_000);
        assertThat(h.engine(N1)).as("node1 was powered off by the fence").isNull();
        assertThat(h.runningOn(N2)).containsExactly(G1, G2);
        assertThat(h.trace()).anyMatch(t -> t.endsWith("node2 fences node1"));
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 CRIT: Resource group " + G1
                + " could not be stopped on node1: resetting node1 with STONITH before starting it here."));
        neverBoth(h);
    }

    @Test
    void aPeerThatRestartsWithinDeadtimeHoldsNothingAndOurGroupComesBack() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.standby(N1, ResourceSet.LOCAL);
        h.run(5000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(G1, G2)));
        h.powerOff(N2);
        h.run(1000);
        h.start(N2);
        h.run(8000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 INFO: node2 restarted and holds nothing now"));
        neverBoth(h);
    }

    @Test
    void cleanupOfABlockedGroupStopsItAgainAndReleasesIt() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.failStops(N1, G1, true);
        h.standby(N1, ResourceSet.LOCAL);
        h.run(15_000);
        assertThat(h.runningOn(N1)).containsExactly(G1);
        h.failStops(N1, G1, false);
        h.cleanup(N1, 0);
        h.run(5000);
        assertThat(h.engine(N1).machine().groupState(0)).isNotEqualTo(GroupState.BLOCKED);
        assertThat(h.runningOn(N1).size() + h.runningOn(N2).size()).as("%s", h.trace()).isEqualTo(2);
        assertThat(h.engine(N1).machine().groupProblem(0)).isEmpty();
        assertThat(h.engine(N2).machine().groupProblem(0)).isEmpty();
        neverBoth(h);
    }

    @Test
    void aGroupThePeerCannotRunStaysHereInAStandbyAndATakeoverOfAGroupFailedHereIsRefused() {
        TwoNodeHarness h = harness(FailbackPolicy.OFF, false);
        h.failStarts(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        assertThat(h.runningOn(N2)).containsExactly(G1, G2);
        h.takeover(N1, ResourceSet.LOCAL);
        h.run(1000);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(Handover.REFUSED);
        assertThat(h.engine(N1).machine().handovers().detail())
                .isEqualTo("resource group " + G1 + " failed to start on node1; clear it first with 'hb cleanup " + G1 + "'");
        h.standby(N2, ResourceSet.FOREIGN);
        h.run(10_000);
        assertThat(h.runningOn(N2)).as("%s", h.trace()).containsExactly(G1, G2);
        assertThat(h.engine(N2).machine().handovers().outcome()).isEqualTo(Handover.FAILED);
        assertThat(h.engine(N2).machine().handovers().detail())
                .contains("resource group " + G1 + " stays on node2: node1 could not start it");
        assertThat(h.count("node2 stopped " + G1)).isZero();
        neverBoth(h);
    }

    @Test
    void withSelfFencingConfiguredANodeThatCannotStopAGroupResetsItselfAndThePeerTakesOver() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, false);
        h.takeoverSettings(N1, org.jheartbeat.core.takeover.TakeoverSettings.DEFAULTS.withSelfFenceOnStopFailure(true));
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.failStops(N1, G1, true);
        h.standby(N1, ResourceSet.LOCAL);
        h.run(10_000);
        assertThat(h.trace()).anyMatch(t -> t.contains("node1 self-fences (resource group " + G1 + " could not be stopped"));
        assertThat(h.engine(N1)).as("reset").isNull();
        assertThat(h.runningOn(N2)).as("%s", h.trace()).containsExactly(G1, G2);
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 CRIT: Resource group " + G1
                + " could not be stopped on node1, which resets itself: it is started here once node1 is gone."));
        neverBoth(h);
    }
}
