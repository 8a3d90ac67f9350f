package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * Every link cut between a node that runs the only group and an idle node, both with STONITH (issue
 * 16's fault matrix, "both links cut, STONITH"): only the idle node fences (the other held a group);
 * the node running it sees an idle peer die, which gave up nothing, and does not fence it. Before,
 * both fenced each other and no node was left.
 */
class AllLinksCutScenarioTest {

    @Test
    void onlyTheNodeThatHeldNothingFencesSoExactlyOneNodeIsLeft() {
        TwoNodeHarness h = new TwoNodeHarness(List.of(TwoNodeHarness.activeActive().get(0)), FailbackPolicy.ON, 200,
                true);
        h.start(TwoNodeHarness.N1);
        h.start(TwoNodeHarness.N2);
        h.run(20_000);
        assertThat(h.runningOn(TwoNodeHarness.N1)).hasSize(1);
        h.link(false);
        h.run(20_000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 INFO: Dead node node2 gave up resources."))
                .anyMatch(l -> l.contains("node2 INFO: Resetting node node1 with STONITH"))
                .noneMatch(l -> l.contains("node1 INFO: Resetting node node2"));
        assertThat(h.fenceAttempts()).isEqualTo(1);
        assertThat(h.runningOn(TwoNodeHarness.N2)).hasSize(1);
    }
}
