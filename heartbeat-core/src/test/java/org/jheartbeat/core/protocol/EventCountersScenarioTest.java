package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.Map;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * The event counts the metrics endpoint exposes ({@link NodeEngine#counters()}), driven by whole
 * scenarios on a fake clock: each count moves with the log line it stands for.
 */
class EventCountersScenarioTest {
    private static final String G1 = "198.18.0.100/24/eth0";

    @Test
    void aFreshNodeCountsNothingAndListsEveryHandoverOutcome() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        ClusterCounters c = h.engine(N2).counters();
        assertThat(c.lateHeartbeats()).isZero();
        assertThat(c.nodeDeaths()).isZero();
        assertThat(c.linkDeaths()).isEmpty();
        assertThat(c.takeovers()).isZero();
        assertThat(c.handovers()).isEqualTo(Map.of(
                "standby", Map.of("done", 0L, "failed", 0L, "cancelled", 0L, "refused", 0L),
                "takeover", Map.of("done", 0L, "failed", 0L, "cancelled", 0L, "refused", 0L)));
        assertThat(c.groupStartFailures()).isEmpty();
        assertThat(c.fencesSucceeded() + c.fencesFailed()).isZero();
    }

    @Test
    void lateBeatDeathLinkDeathTakeoverAndHandoversAreCounted() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.standby(N2, ResourceSet.ALL);
        h.run(3000);
        h.takeover(N2, ResourceSet.ALL);
        h.run(3000);
        h.freeze(N1);   // silent beyond warntime (2 s), back before deadtime (3 s): a late heartbeat
        h.run(2500);
        h.thaw(N1);
        h.run(2000);
        h.powerOff(N1);
        h.run(4000);
        h.standby(N2, ResourceSet.ALL); // the peer is dead: refused
        h.run(500);
        ClusterCounters c = h.engine(N2).counters();
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 WARN: Late heartbeat"));
        assertThat(c.lateHeartbeats()).isEqualTo(h.logs().stream().filter(l -> l.contains("node2 WARN: Late heartbeat")
                || l.contains("node2 CRIT: Late heartbeat")).count());
        assertThat(c.nodeDeaths()).isEqualTo(1);
        assertThat(c.linkDeaths()).isEqualTo(Map.of("eth1", 1L));
        assertThat(c.takeovers()).isEqualTo(1);
        assertThat(c.handovers().get("standby")).containsEntry("done", 1L).containsEntry("refused", 1L);
        assertThat(c.handovers().get("takeover")).containsEntry("done", 1L);
    }

    @Test
    void groupFailuresAndFencingResultsAreCounted() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, true);
        h.failStarts(N1, G1, true);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        assertThat(h.engine(N1).counters().groupStartFailures()).isEqualTo(Map.of(G1, 1L));
        assertThat(h.engine(N1).counters().groupStopFailures()).isEmpty();
        h.failFences(1);
        h.freeze(N1);
        h.run(15_000);   // declared dead, the first fence fails, the retry succeeds
        ClusterCounters c = h.engine(N2).counters();
        assertThat(c.fencesFailed()).isEqualTo(1);
        assertThat(c.fencesSucceeded()).isEqualTo(1);
        assertThat(c.takeovers()).isEqualTo(1);
    }
}
