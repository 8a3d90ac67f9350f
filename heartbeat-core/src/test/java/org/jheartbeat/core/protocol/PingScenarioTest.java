package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.PingNodeDecl;
import org.jheartbeat.core.config.PingSettings;
import org.jheartbeat.core.ping.PingStatus;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * Ping nodes and the ipfail rule, two engines on a fake clock. The LAN uplink of a
 * node is cut by making its ping node stop answering it ({@link TwoNodeHarness#pingAnswers}).
 */
class PingScenarioTest {
    static final String A = "198.18.0.100/24/eth0";
    static final String B = "198.18.0.101";

    private static TwoNodeHarness harness(FailbackPolicy failback, boolean ipfail) {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), failback, 200);
        ClusterConfig c = h.config();
        ClusterConfig withPing = new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(),
                c.autoFailback(), c.logging(), c.authKeys(), c.resourceGroups(), c.stonith(),
                new PingSettings(List.of(new PingNodeDecl("198.18.0.254", List.of("198.18.0.254"), false, 9)),
                        Duration.ofMillis(2000), ipfail));
        h.configFor(N1, withPing).configFor(N2, withPing);
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        return h;
    }

    @Test
    void theNodeThatLosesItsPingNodeHandsItsGroupsOverAndBothLosingItMovesNothing() {
        TwoNodeHarness h = harness(FailbackPolicy.OFF, true);
        assertThat(h.engine(N1).pingNodes().statuses()).containsEntry("198.18.0.254", PingStatus.PING);
        assertThat(h.engine(N1).peerPingCount()).isEqualTo(1);
        assertThat(h.logs()).noneMatch(l -> l.contains("reports no ping node count"));

        h.pingAnswers(N1, false);
        h.run(15_000);
        assertThat(h.engine(N1).pingNodes().statuses()).containsEntry("198.18.0.254", PingStatus.DEAD);
        assertThat(h.engine(N2).peerPingCount()).isZero();
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(A, B)));
        assertThat(h.logs()).anyMatch(l -> l.contains("node1") && l.contains("ipfail: 0 live ping node(s) here, 1 on node2"));

        h.pingAnswers(N1, true);
        h.run(15_000);
        assertThat(h.placement()).as("auto_failback off: nothing moves back").isEqualTo(
                Map.of("node1", Set.of(), "node2", Set.of(A, B)));

        int opsBefore = h.ops().size();
        h.pingAnswers(N1, false);
        h.pingAnswers(N2, false);
        h.run(20_000);
        assertThat(h.engine(N2).pingNodes().upCount()).isZero();
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(A, B)));
        assertThat(h.ops().subList(opsBefore, h.ops().size())).as("both lost it: nothing moves").isEmpty();
        assertThat(h.doubleRun()).isNull();
    }

    @Test
    void bothLosingItAFewHundredMillisecondsApartMovesNothing() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, true);
        int opsBefore = h.ops().size();
        h.pingAnswers(N1, false);
        h.run(700);
        h.pingAnswers(N2, false);
        h.run(20_000);
        assertThat(h.engine(N1).pingNodes().upCount()).isZero();
        assertThat(h.engine(N2).pingNodes().upCount()).isZero();
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        assertThat(h.ops().subList(opsBefore, h.ops().size())).isEmpty();
        assertThat(h.logs()).noneMatch(l -> l.contains("giving up"));
    }

    @Test
    void withAutoFailbackTheGroupComesBackOnceBothSeeTheSameCount() {
        TwoNodeHarness h = harness(FailbackPolicy.ON, true);
        h.pingAnswers(N1, false);
        h.run(15_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(), "node2", Set.of(A, B)));
        h.pingAnswers(N1, true);
        h.run(15_000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        assertThat(h.doubleRun()).isNull();
    }

    @Test
    void aFrozenDaemonResumedDoesNotCountItsOwnPauseAsItsPingNodesSilence() {
        TwoNodeHarness h = harness(FailbackPolicy.OFF, true);
        int opsBefore = h.ops().size();
        h.suspend(N1); // SIGSTOP for 2.7 s: longer than deadping (2 s), shorter than deadtime (3 s)
        h.run(2700); // resumed between two echo replies (every 500 ms): its first step is a timer
        h.resume(N1, true);
        h.run(10_000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node1") && l.contains("did not run for"));
        assertThat(h.logs()).as("%s", h.trace()).noneMatch(l -> l.contains("198.18.0.254: is dead"));
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        assertThat(h.ops().subList(opsBefore, h.ops().size())).as("nothing moves").isEmpty();
    }

    @Test
    void withoutIpfailPingNodesAreOnlyReported() {
        TwoNodeHarness h = harness(FailbackPolicy.OFF, false);
        h.pingAnswers(N1, false);
        h.run(15_000);
        assertThat(h.engine(N1).pingNodes().statuses()).containsEntry("198.18.0.254", PingStatus.DEAD);
        assertThat(h.engine(N2).peerPingCount()).as("counts are still exchanged, for status").isZero();
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        assertThat(h.logs()).noneMatch(l -> l.contains("ipfail"));
    }

    @Test
    void aPeerThatSendsNoCountMovesNothing() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 200);
        ClusterConfig c = h.config();
        h.configFor(N1, new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(),
                c.autoFailback(), c.logging(), c.authKeys(), c.resourceGroups(), c.stonith(),
                new PingSettings(List.of(new PingNodeDecl("gw", List.of("198.18.0.254"), true, 9)),
                        Duration.ofMillis(2000), true)));
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        h.pingAnswers(N1, false);
        h.run(15_000);
        assertThat(h.engine(N1).peerPingCount()).isEqualTo(-1);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        assertThat(h.logs().stream().filter(l -> l.contains("node1") && l.contains("ipfail: node2 reports no ping node"
                + " count"))).as("said once").hasSize(1);
    }
}
