package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.TakeoverSettings;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * Every link cut between two nodes that each run a group (active-active), both with STONITH (the fault
 * matrix's "both links cut, STONITH, active-active"). With the fence delay, node2 (as many groups as
 * node1, later in ha.cf) waits, node1 fences it first and serves both groups; without it both fence at
 * once, as Heartbeat 3.0.6 (and jheartbeat before the delay) did. The harness's fence takes 0.5 s.
 */
class FenceDelayScenarioTest {
    static final long DELAY = 5_000_000_000L;

    static TwoNodeHarness activeActiveCut(long delayNanos) {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        h.takeoverSettings(TwoNodeHarness.N1, TakeoverSettings.DEFAULTS.withFenceDelayNanos(delayNanos));
        h.takeoverSettings(TwoNodeHarness.N2, TakeoverSettings.DEFAULTS.withFenceDelayNanos(delayNanos));
        h.start(TwoNodeHarness.N1);
        h.start(TwoNodeHarness.N2);
        h.run(20_000);
        assertThat(h.runningOn(TwoNodeHarness.N1)).hasSize(1);
        assertThat(h.runningOn(TwoNodeHarness.N2)).hasSize(1);
        h.link(false);
        h.run(20_000);
        return h;
    }

    @Test
    void withTheDelayOnlyTheFirstNodeFencesAndItServesBothGroups() {
        TwoNodeHarness h = activeActiveCut(DELAY);
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 INFO: Delaying STONITH of node1 by 5 s: it holds 1"
                        + " resource group(s), we hold 1, and it comes first in ha.cf"))
                .anyMatch(l -> l.contains("node1 INFO: Resetting node node2 with STONITH"))
                .noneMatch(l -> l.contains("node2 INFO: Resetting node node1"));
        assertThat(h.trace()).anyMatch(t -> t.endsWith("node1 fences node2"))
                .noneMatch(t -> t.endsWith("node2 fences node1"));
        assertThat(h.fenceAttempts()).isEqualTo(1);
        assertThat(h.engine(TwoNodeHarness.N2)).as("node2 powered off by node1's fence").isNull();
        assertThat(h.runningOn(TwoNodeHarness.N1)).hasSize(2);
        assertThat(h.doubleRun()).isNull();
    }

    @Test
    void withoutTheDelayBothNodesFenceEachOther() {
        TwoNodeHarness h = activeActiveCut(0);
        assertThat(h.trace()).anyMatch(t -> t.endsWith("node1 fences node2"))
                .anyMatch(t -> t.endsWith("node2 fences node1"));
        assertThat(h.logs()).noneMatch(l -> l.contains("Delaying STONITH"));
    }

    /**
     * A mixed cluster: node2 plays a Heartbeat 3.0.6 node (no jhb- messages, no fence delay: it fences at
     * once). node1, first in ha.cf with as many groups, would fence at once by the weights, and both would be
     * powered off; knowing its peer never waits, node1 waits instead, node2 fences it and serves both groups.
     */
    @Test
    void againstAHeartbeatPeerTheJheartbeatNodeAlwaysWaits() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        h.asHeartbeat306(TwoNodeHarness.N2);
        h.takeoverSettings(TwoNodeHarness.N1, TakeoverSettings.DEFAULTS.withFenceDelayNanos(DELAY));
        h.start(TwoNodeHarness.N1);
        h.start(TwoNodeHarness.N2);
        h.run(20_000);
        assertThat(h.runningOn(TwoNodeHarness.N1)).hasSize(1);
        assertThat(h.runningOn(TwoNodeHarness.N2)).hasSize(1);
        h.link(false);
        h.run(20_000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 INFO: Delaying STONITH of node2 by 5 s: it is a Heartbeat"
                + " 3.0.6 node, which fences at once without a delay"));
        assertThat(h.trace()).anyMatch(t -> t.endsWith("node2 fences node1"))
                .noneMatch(t -> t.endsWith("node1 fences node2"));
        assertThat(h.engine(TwoNodeHarness.N1)).as("node1 powered off by node2's fence").isNull();
        assertThat(h.runningOn(TwoNodeHarness.N2)).hasSize(2);
        assertThat(h.doubleRun()).isNull();
    }

    /** Between two jheartbeat nodes the same cut is decided by the weights, not by this rule. */
    @Test
    void aJheartbeatPeerIsNotTakenForAHeartbeatOne() {
        TwoNodeHarness h = activeActiveCut(DELAY);
        assertThat(h.logs()).noneMatch(l -> l.contains("it is a Heartbeat 3.0.6 node"));
    }
}
