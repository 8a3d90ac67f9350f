package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * On two engines and a fake clock: a reload ({@code hb reload}) adds and removes
 * groups without touching the others, announces the new config digest so that the peer compares
 * again, applies timings and keys, and a group the peer defines differently after a reload is
 * disputed on both nodes.
 */
class ReloadScenarioTest {
    static final String TWO = """
            node1 198.18.0.100/24/eth0 labweb
            node2 198.18.0.101 labweb2
            """;
    static final String FOUR = TWO + """
            node1 198.18.0.102 labdb
            node2 198.18.0.103 labmail
            """;
    static final String A = "198.18.0.100/24/eth0";
    static final String B = "198.18.0.101";
    static final String C = "198.18.0.102";
    static final String D = "198.18.0.103";

    final TwoNodeHarness h = new TwoNodeHarness(List.of(), FailbackPolicy.ON, 200);

    private ClusterConfig config(String haresources) {
        ClusterConfig c = h.config();
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, c.nodes());
        assertThat(parsed.hasErrors()).isFalse();
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), parsed.groups(), c.stonith());
    }

    private void bothRunning(String haresources) {
        h.configFor(N1, config(haresources)).configFor(N2, config(haresources));
        h.start(N1);
        h.start(N2);
        h.run(10_000);
    }

    private long ops(String op) {
        return h.ops().stream().filter(o -> o.equals(op)).count();
    }

    @Test
    void groupsAddedOnBothNodesStartOnTheirPreferredNodesAndTheRunningOnesAreNotTouched() {
        bothRunning(TWO);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        int opsBefore = h.ops().size();

        h.reload(N2, config(FOUR));
        h.run(2_000);
        // node2 starts its own new group at once (node1 does not know it: not a conflict)
        assertThat(h.runningOn(N2)).isEqualTo(Set.of(B, D));
        assertThat(h.runningOn(N1)).isEqualTo(Set.of(A));
        assertThat(h.engine(N1).configStatus()).isEqualTo("DIFFERS from node2 in haresources");
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 WARN: Configuration differs from node2: haresources."));

        h.reload(N1, config(FOUR));
        h.run(2_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A, C), "node2", Set.of(B, D)));
        assertThat(h.doubleRun()).isNull();
        assertThat(h.ops().subList(opsBefore, h.ops().size()))
                .containsExactlyInAnyOrder("node2 start " + D + " LOCAL_START", "node1 start " + C + " LOCAL_START");
        assertThat(ops("node1 start " + A + " LOCAL_START")).isEqualTo(1);
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
        assertThat(h.engine(N2).configStatus()).isEqualTo("same as node1");
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 INFO: Configuration matches node2 now."))
                .anyMatch(l -> l.contains("node2 INFO: Configuration matches node1 now."));
        assertThat(h.engine(N1).rscStatus()).isEqualTo("local");
        assertThat(h.engine(N2).machine().state()).isEqualTo(TakeoverState.STABLE);

        // the new groups are real groups: node2 dies, node1 takes B and D
        h.powerOff(N2);
        h.run(10_000);
        assertThat(h.runningOn(N1)).isEqualTo(Set.of(A, B, C, D));
    }

    @Test
    void aGroupRemovedOnBothNodesStopsWhereItRanAndTheOthersRunOn() {
        bothRunning(FOUR);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A, C), "node2", Set.of(B, D)));
        int opsBefore = h.ops().size();
        String withoutB = """
                node1 198.18.0.100/24/eth0 labweb
                node1 198.18.0.102 labdb
                node2 198.18.0.103 labmail
                """;
        h.reload(N2, config(withoutB));
        h.reload(N1, config(withoutB));
        h.run(3_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A, C), "node2", Set.of(D)));
        assertThat(h.ops().subList(opsBefore, h.ops().size())).containsExactly("node2 stop " + B + " REMOVED");
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
        // indices moved (D was 4th, is 3rd): node2 still stops D when it shuts down, and node1 takes it
        h.shutdown(N2);
        h.run(5_000);
        assertThat(h.runningOn(N1)).isEqualTo(Set.of(A, C, D));
    }

    @Test
    void aGroupTheNodesAddWithDifferentPreferredNodesIsDisputedAndStartedByNeither() {
        bothRunning(TWO);
        h.reload(N2, config(TWO + "node2 198.18.0.103 labmail\n"));
        h.run(1_000);
        assertThat(h.runningOn(N2)).isEqualTo(Set.of(B, D)); // node1 does not know D yet
        h.reload(N1, config(TWO + "node1 198.18.0.103 labmail\n"));
        h.run(3_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
        assertThat(h.ops()).contains("node2 stop " + D + " DISPUTED").doesNotContain("node1 start " + D + " LOCAL_START");
        assertThat(h.engine(N1).disputeReason(2)).contains("node2 names node2 as its preferred node, node1 names node1");
        assertThat(h.engine(N2).disputeReason(2)).isPresent();
        assertThat(h.doubleRun()).isNull();
        // node1 takes its line out again: D is agreed and runs on node2
        h.reload(N1, config(TWO));
        h.run(3_000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B, D)));
        assertThat(h.engine(N2).disputeReason(2)).isEmpty();
    }

    @Test
    void newTimingsGoToTheBeatTimerAndNewKeysSignEveryPacket() {
        bothRunning(TWO);
        ClusterConfig c = config(TWO);
        ClusterConfig slower = new ClusterConfig(c.configDir(), Timing.ofMillis(1000, 4000, 8000, 20_000), c.udpPort(),
                c.nodes(), c.media(), c.autoFailback(), c.logging(), c.authKeys(), c.resourceGroups(), c.stonith());
        assertThat(h.reload(N1, slower)).hasSize(4);
        assertThat(h.engine(N1).configGraceNanos()).isEqualTo(2_000_000_000L);
        h.reload(N2, slower);
        // 7 s of silence would kill under the old deadtime (3 s); not under the new one (8 s, advertised in dt)
        h.run(2_000);
        h.freeze(N2);
        h.run(7_000);
        h.thaw(N2);
        h.run(2_000);
        assertThat(h.logs()).noneMatch(l -> l.contains("node1 WARN: node node2: is dead"));
        assertThat(h.engine(N1).detector().status(N2).isAlive()).isTrue();

        // new keys: node1 alone signs with a key node2 does not know; node2 drops its packets (counted)
        ClusterConfig rekeyed = new ClusterConfig(c.configDir(), slower.timing(), c.udpPort(), c.nodes(), c.media(),
                c.autoFailback(), c.logging(), AuthKeys.single(2, AuthMethod.SHA1, "rolled".getBytes()),
                c.resourceGroups(), c.stonith());
        long badBefore = h.engine(N2).badPackets().total();
        h.reload(N1, rekeyed);
        h.run(1_000);
        assertThat(h.engine(N2).badPackets().total()).isGreaterThan(badBefore);
        h.reload(N2, rekeyed);
        long badAfter = h.engine(N2).badPackets().total();
        h.run(3_000);
        assertThat(h.engine(N2).badPackets().total()).isEqualTo(badAfter);
        assertThat(h.engine(N1).detector().status(N2).isAlive()).isTrue();
        assertThat(h.engine(N2).detector().status(N1).isAlive()).isTrue();
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(A), "node2", Set.of(B)));
    }
}
