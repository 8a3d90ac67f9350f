package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Whole-protocol scenarios: two engines, real codec, fake clock, no sleeps. */
class TwoNodeScenarioTest {
    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);

    @AfterEach
    void neverBoth() {
        assertThat(h.doubleRun()).as("trace %s", h.trace()).isNull();
    }

    private static int indexOf(List<String> trace, String event) {
        for (int i = 0; i < trace.size(); i++) {
            if (trace.get(i).endsWith(event)) {
                return i;
            }
        }
        throw new AssertionError("no [" + event + "] in " + trace);
    }

    private void bootBoth() {
        h.start(N1);
        h.start(N2);
        h.run(3000);
    }

    @Test
    void bothStartTogetherEachTakesItsOwnGroup() {
        bootBoth();
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
        assertThat(h.engine(N1).localStatus()).isEqualTo(NodeStatus.ACTIVE);
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.STABLE);
        assertThat(h.engine(N2).machine().state()).isEqualTo(TakeoverState.STABLE);
    }

    @Test
    void powerOffPeerIsTakenOverWithinDeadtime() {
        bootBoth();
        h.powerOff(N1);
        h.run(3000);
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
        h.run(600);
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.100/24/eth0", "198.18.0.101");
        assertThat(h.logs()).anyMatch(l -> l.endsWith("node node1: is dead"));
        assertThat(h.logs()).anyMatch(l -> l.endsWith("Link node1:eth1 dead."));
    }

    @Test
    void returningNodeGetsItsGroupBackNeverBothAtOnce() {
        bootBoth();
        h.powerOff(N1);
        h.run(5000);
        h.start(N1);
        h.run(5000);
        assertThat(h.placement()).isEqualTo(java.util.Map.of(
                "node1", java.util.Set.of("198.18.0.100/24/eth0"), "node2", java.util.Set.of("198.18.0.101")));
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 INFO: Heartbeat restart on node node1"));
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.STABLE);
        assertThat(h.engine(N2).machine().state()).isEqualTo(TakeoverState.STABLE);
    }

    @Test
    void daemonRestartedWithinDeadtimeAfterATakeoverEndsWithEachNodeRunningItsOwn() {
        bootBoth();
        h.takeover(N1, ResourceSet.ALL);
        h.run(3000);
        // a SIGKILLed daemon restarted within deadtime: its start-up probe released everything
        h.powerOff(N1);
        h.run(1000);
        h.start(N1);
        h.run(5000);
        assertThat(h.placement()).isEqualTo(java.util.Map.of(
                "node1", java.util.Set.of("198.18.0.100/24/eth0"), "node2", java.util.Set.of("198.18.0.101")));
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 INFO: node1 restarted and holds nothing now"));
    }

    @Test
    void sameProtocolOverClassicFramesAsOnASerialLine() {
        TwoNodeHarness serial = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200)
                .serialEncoding(true);
        serial.start(N1);
        serial.start(N2);
        serial.run(3000);
        assertThat(serial.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        serial.powerOff(N1);
        serial.run(4000);
        assertThat(serial.runningOn(N2)).hasSize(2);
        serial.start(N1);
        serial.run(4000);
        assertThat(serial.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(serial.doubleRun()).isNull();
        assertThat(serial.engine(N1).badPackets().total()).isZero();
    }

    @Test
    void autoFailbackOffLeavesGroupsWhereTheyAre() {
        TwoNodeHarness off = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 200);
        off.start(N1);
        off.start(N2);
        off.run(3000);
        off.powerOff(N1);
        off.run(5000);
        off.start(N1);
        off.run(5000);
        assertThat(off.runningOn(N1)).isEmpty();
        assertThat(off.runningOn(N2)).hasSize(2);
        assertThat(off.doubleRun()).isNull();
    }

    @Test
    void cleanShutdownHandsOverAtOnceAndExits() {
        bootBoth();
        int before = h.logs().size();
        h.shutdown(N1);
        h.run(1500);
        assertThat(h.runningOn(N2)).hasSize(2);
        assertThat(h.engine(N1)).as("exited").isNull();
        assertThat(h.logs()).anyMatch(l -> l.contains("Received shutdown notice from 'node1'."));
        assertThat(h.logs()).noneMatch(l -> l.contains("No STONITH device configured"));
        h.run(5000);
        assertThat(h.logs().subList(before, h.logs().size())).as("the final beats after shutdone do not revive it")
                .noneMatch(l -> l.contains("returning after partition") || l.contains("Status update for node node1"));
        assertThat(h.logs().stream().filter(l -> l.endsWith("node node1: is dead"))).hasSize(1);
    }

    @Test
    void peerNeverSeenTakesEverythingAfterInitdead() {
        h.start(N2);
        h.run(9900);
        assertThat(h.runningOn(N2)).isEmpty();
        h.run(1000);
        assertThat(h.runningOn(N2)).hasSize(2);
    }

    @Test
    void operatorStandbyAllMovesEverythingToPeer() {
        bootBoth();
        h.standby(N1, ResourceSet.ALL);
        h.run(3000);
        assertThat(h.runningOn(N1)).as("%s", h.logs()).isEmpty();
        assertThat(h.runningOn(N2)).hasSize(2);
        assertThat(h.logs()).anyMatch(l -> l.contains("Other node completed standby takeover of all resources."));
    }

    @Test
    void takeoverAllBringsThePeersGroupsHereAndReportsDone() {
        bootBoth();
        h.takeover(N1, ResourceSet.ALL);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(TakeoverMachine.Handover.IN_PROGRESS);
        h.run(3000);
        assertThat(h.runningOn(N1)).hasSize(2);
        assertThat(h.runningOn(N2)).isEmpty();
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(TakeoverMachine.Handover.DONE);
        assertThat(h.engine(N1).machine().handovers().detail()).isEqualTo("acquired [all] from node2");
        h.takeover(N2, ResourceSet.LOCAL);
        h.run(3000);
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
    }

    @Test
    void standbyIsRefusedWhenThePeerIsDeadAndCancelledWhenItNeverAnswers() {
        bootBoth();
        h.powerOff(N2);
        h.standby(N1, ResourceSet.ALL);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(TakeoverMachine.Handover.IN_PROGRESS);
        h.run(4000);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(TakeoverMachine.Handover.CANCELLED);
        assertThat(h.runningOn(N1)).as("node2 died meanwhile: node1 runs everything").hasSize(2);
        h.standby(N1, ResourceSet.ALL);
        assertThat(h.engine(N1).machine().handovers().outcome()).isEqualTo(TakeoverMachine.Handover.REFUSED);
        assertThat(h.engine(N1).machine().handovers().detail()).isEqualTo("node2 is not alive");
    }

    @Test
    void frozenPeerIsFencedBeforeItsGroupsAreTakenOver() {
        TwoNodeHarness f = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        f.start(N1);
        f.start(N2);
        f.run(3000);
        f.freeze(N1);
        f.run(6000);
        assertThat(f.doubleRun()).isNull();
        assertThat(f.fenceAttempts()).isEqualTo(1);
        assertThat(f.runningOn(N2)).hasSize(2);
        assertThat(f.engine(N1)).as("fenced: powered off").isNull();
        assertThat(f.trace()).containsSubsequence(
                f.trace().stream().filter(t -> t.endsWith("node2 fences node1")).findFirst().orElseThrow(),
                f.trace().stream().filter(t -> t.endsWith("node1 power-off")).findFirst().orElseThrow(),
                f.trace().stream().filter(t -> t.endsWith("node2 started 198.18.0.100/24/eth0")).findFirst().orElseThrow());
        assertThat(f.logs()).anyMatch(l -> l.endsWith("node node1 now reset."))
                .noneMatch(l -> l.contains("No STONITH device configured"));
        assertThat(f.engine(N2).machine().fenceStatus()).startsWith("node1 fenced after 1 attempt(s)");
    }

    @Test
    void aFencedNodeIsNotFencedAgainWhenItFallsSilentAfterBeingHeardDuringTheFence() {
        TwoNodeHarness f = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        f.start(N1);
        f.start(N2);
        f.run(3000);
        f.failFences(2);
        f.freeze(N1);
        f.run(4000);               // declared dead, first fence fails
        f.thaw(N1);                // it wakes up while the fence is retried
        f.run(8000);               // the next fence succeeds and powers it off
        f.run(6000);               // silence again: no second fence
        assertThat(f.fenceAttempts()).isEqualTo(3);
        assertThat(f.logs().stream().filter(l -> l.contains("Resetting node node1"))).hasSize(1);
        assertThat(f.runningOn(N2)).hasSize(2);
    }

    @Test
    void failedFencingIsRetriedEveryFiveSecondsAndNothingIsTakenOverMeanwhile() {
        TwoNodeHarness f = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        f.start(N1);
        f.start(N2);
        f.run(3000);
        f.failFences(3);
        f.freeze(N1);
        f.run(15_000);
        assertThat(f.fenceAttempts()).isEqualTo(3);
        assertThat(f.runningOn(N2)).as("no takeover while the fence fails").containsExactly("198.18.0.101");
        assertThat(f.engine(N2).machine().state()).isEqualTo(TakeoverState.FENCING);
        assertThat(f.logs()).anyMatch(l -> l.contains("CRIT: STONITH of node1 failed.  Retrying..."));
        assertThat(f.engine(N2).machine().fenceStatus()).startsWith("fencing node1 failed 3 time(s)");
        f.run(6000);
        assertThat(f.fenceAttempts()).isEqualTo(4);
        assertThat(f.runningOn(N2)).hasSize(2);
        assertThat(f.doubleRun()).isNull();
    }

    @Test
    void cleanShutdownIsNeverFenced() {
        TwoNodeHarness f = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        f.start(N1);
        f.start(N2);
        f.run(3000);
        f.shutdown(N1);
        f.run(6000);
        assertThat(f.fenceAttempts()).isZero();
        assertThat(f.runningOn(N2)).hasSize(2);
        assertThat(f.engine(N2).machine().fenceStatus()).isEqualTo("ready (nothing fenced yet)");
    }

    @Test
    void twentyPercentLossForSixtySecondsIsRepairedByRetransmission() {
        bootBoth();
        int before = h.logs().size();
        h.loss(20);
        h.run(20_000);
        h.standby(N1, ResourceSet.ALL);
        h.run(20_000);
        h.standby(N2, ResourceSet.FOREIGN);
        h.run(20_000);
        h.loss(0);
        h.run(3000);
        List<String> during = h.logs().subList(before, h.logs().size());
        assertThat(h.dropped()).isGreaterThan(50);
        assertThat(during).as("no false death").noneMatch(l -> l.contains("is dead"));
        assertThat(during).anyMatch(l -> l.contains("lost packet(s) for [node2]"))
                .anyMatch(l -> l.contains("No pkts missing from node2!"));
        assertThat(h.runningOn(N1)).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.STABLE);
        assertThat(h.engine(N2).machine().state()).isEqualTo(TakeoverState.STABLE);
    }

    @Test
    void partitionHealEndsWithEachNodeRunningItsOwn() {
        bootBoth();
        h.link(false);
        h.run(5000);
        // split brain while partitioned: each runs both (no STONITH in this issue)
        assertThat(h.doubleRun()).as("without STONITH a partition is a split brain").isNotNull();
        h.forgetDoubleRun();
        h.link(true);
        h.run(3000);
        assertThat(h.runningOn(N1)).as("%s", h.logs()).containsExactly("198.18.0.100/24/eth0");
        assertThat(h.runningOn(N2)).containsExactly("198.18.0.101");
        List<String> afterHeal = h.trace().subList(h.trace().indexOf(
                h.trace().stream().filter(t -> t.endsWith("link up")).findFirst().orElseThrow()), h.trace().size());
        assertThat(afterHeal).as("healing never starts a group on the node that does not own it")
                .noneMatch(t -> t.contains("node1 started 198.18.0.101") || t.contains("node2 started 198.18.0.100"));
        assertThat(afterHeal.subList(indexOf(afterHeal, "node2 stopped 198.18.0.100/24/eth0"), afterHeal.size()))
                .as("node1 re-asserts its address after node2 let go of it")
                .anyMatch(t -> t.contains("node1 started 198.18.0.100/24/eth0"));
        assertThat(afterHeal.subList(indexOf(afterHeal, "node1 stopped 198.18.0.101"), afterHeal.size()))
                .anyMatch(t -> t.contains("node2 started 198.18.0.101"));
        h.forgetDoubleRun(); // the split brain ended by stops only, checked above
    }
}
