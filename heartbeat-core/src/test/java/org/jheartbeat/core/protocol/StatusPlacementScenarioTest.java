package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.StatusGroups;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * What each node's {@code hb status} says about where a group runs is true: a group is shown on a node
 * only while that node holds it, or with the transition it is in; a group that runs nowhere is shown
 * on none. Each node's group lines are read through {@link StatusGroups}, as the cluster loop takes
 * its snapshot, on two engines with a fake clock.
 */
class StatusPlacementScenarioTest {
    static final String TWO = """
            node1 198.18.0.100/24/eth0 labweb
            node2 198.18.0.101 labweb2
            """;
    /** A group preferred by node2 that an operator adds to node1's haresources only. */
    static final String NEW_LINE = "node2 198.18.0.105/24/eth0 labmail\n";
    static final String A = "198.18.0.100/24/eth0";
    static final String B = "198.18.0.101";
    static final String E = "198.18.0.105/24/eth0";

    final TwoNodeHarness h = new TwoNodeHarness(List.of(), FailbackPolicy.ON, 200);
    final Map<NodeName, ClusterConfig> running = new LinkedHashMap<>();

    private ClusterConfig config(String haresources) {
        ClusterConfig c = h.config();
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, c.nodes());
        assertThat(parsed.hasErrors()).isFalse();
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), parsed.groups(), c.stonith());
    }

    private void start(NodeName n, String haresources) {
        running.put(n, config(haresources));
        h.configFor(n, running.get(n));
        h.start(n);
    }

    private void reload(NodeName n, String haresources) {
        running.put(n, config(haresources));
        h.reload(n, running.get(n));
    }

    /** {@code n}'s group lines by key, as its {@code hb status} shows them now. */
    private Map<String, StatusSnapshot.GroupView> view(NodeName n) {
        Map<String, StatusSnapshot.GroupView> out = new LinkedHashMap<>();
        StatusGroups.of(h.engine(n), running.get(n).resourceGroups()).forEach(g -> out.put(g.key(), g));
        return out;
    }

    private StatusSnapshot snapshot(NodeName n) {
        return new StatusSnapshot(n.value(), 1, "stable", "local", List.of(), List.copyOf(view(n).values()), 0,
                Map.of(), Map.of(), "none", "same", List.of());
    }

    /**
     * Settled: every confirmed place of either node's status is a node that runs the group, and a
     * group that runs nowhere is shown on none (not even unconfirmed, as both nodes report).
     */
    private void assertStatusTrue() {
        for (NodeName n : List.of(N1, N2)) {
            for (StatusSnapshot.GroupView g : view(n).values()) {
                boolean anywhere = h.runningOn(N1).contains(g.key()) || h.runningOn(N2).contains(g.key());
                if (!g.runningOn().equals("-")) {
                    assertThat(h.runningOn(NodeName.of(g.runningOn()))).as("%s's status: %s on %s\n%s", n, g.key(),
                            g.runningOn(), h.trace()).contains(g.key());
                } else {
                    assertThat(anywhere).as("%s's status: %s on no node\n%s", n, g.key(), h.trace()).isFalse();
                }
                if (!anywhere) {
                    assertThat(g.unconfirmedOn()).as("%s's status of %s", n, g.key()).isNull();
                }
            }
        }
    }

    @Test
    void aGroupOfNode2AddedToNode1OnlyIsShownOnNoNode() {
        start(N1, TWO);
        start(N2, TWO);
        h.run(10_000);
        assertThat(view(N1).get(A).runningOn()).isEqualTo("node1");
        assertThat(view(N1).get(B).runningOn()).isEqualTo("node2");
        assertStatusTrue();

        reload(N1, TWO + NEW_LINE);
        h.run(12_000);
        assertThat(h.runningOn(N1)).doesNotContain(E);
        assertThat(h.runningOn(N2)).doesNotContain(E);
        StatusSnapshot.GroupView e = view(N1).get(E);
        assertThat(e.runningOn()).isEqualTo("-");
        assertThat(e.unconfirmedOn()).isNull();
        assertThat(e.placement()).isEqualTo("node2 does not define it (not in its haresources)");
        assertThat(snapshot(N1).render()).contains("  " + E + " labmail on -          (preferred node2,"
                + " here stopped)\n    placement: node2 does not define it (not in its haresources)\n")
                .doesNotContain("on node2?");
        assertThat(snapshot(N1).toJson()).contains("{\"key\":\"" + E + "\",\"preferred_node\":\"node2\","
                + "\"state_here\":\"stopped\",\"running_on\":null,");
        assertStatusTrue();

        // once node2 has the line too, node2 starts it and node1 says so
        reload(N2, TWO + NEW_LINE);
        h.run(3_000);
        assertThat(h.runningOn(N2)).contains(E);
        assertThat(view(N1).get(E).runningOn()).isEqualTo("node2");
        assertThat(view(N1).get(E).placement()).isNull();
        assertStatusTrue();
    }

    @Test
    void aGroupThatFailedToStartOnBothNodesIsShownOnNoNode() {
        h.failStarts(N1, A, true);
        h.failStarts(N2, A, true);
        start(N1, TWO);
        start(N2, TWO);
        h.run(12_000);
        assertThat(h.count("node1 failed to start " + A)).isEqualTo(1);
        assertThat(h.count("node2 failed to start " + A)).isEqualTo(1);
        assertThat(h.runningOn(N1)).isEmpty();
        assertThat(view(N2).get(A).runningOn()).as("node2's status").isEqualTo("-");
        assertThat(view(N2).get(A).placement()).isEqualTo("failed on node1");
        assertThat(view(N1).get(A).runningOn()).as("node1's status").isEqualTo("-");
        assertThat(view(N1).get(A).placement()).isEqualTo("failed on node2");
        assertThat(snapshot(N2).toJson()).contains("\"key\":\"" + A + "\",\"preferred_node\":\"node1\","
                + "\"state_here\":\"failed\",\"running_on\":null,");
        assertStatusTrue();
    }

    /**
     * A group node2 took because it failed on node1: node2's rsc_hold still says only {@code local}, yet
     * node1's status names node2, from node2's own report.
     */
    @Test
    void aGroupTakenAfterAFailureOnItsPreferredNodeIsShownWhereItRuns() {
        h.failStarts(N1, A, true);
        start(N1, TWO);
        start(N2, TWO);
        h.run(10_000);
        assertThat(h.runningOn(N2)).contains(A, B);
        assertThat(view(N1).get(A).runningOn()).isEqualTo("node2");
        assertStatusTrue();
    }

    /**
     * Step by step (10 ms, the harness delivers a packet at the next step), node1's status of a group of
     * node2's follows node2's state as node2 had it one step before: on node2 while it starts, runs or
     * stops it, with the transition named; on no node once stopped.
     */
    @Test
    void aGroupMovingOnThePeerIsShownThereWithItsTransition() {
        start(N1, TWO);
        start(N2, TWO);
        h.run(10_000);
        reload(N1, TWO + NEW_LINE);
        reload(N2, TWO + NEW_LINE);
        Map<GroupState, String> expected = Map.of(GroupState.STOPPED, "- / null",
                GroupState.STARTING, "node2 / starting on node2", GroupState.RUNNING, "node2 / null",
                GroupState.STOPPING, "node2 / stopping on node2");
        Map<GroupState, Integer> steps = new EnumMap<>(GroupState.class);
        GroupState before = h.engine(N2).machine().groupState(2);
        for (int step = 0; step < 600; step++) {
            if (step == 200) {
                h.standby(N2, org.jheartbeat.core.takeover.ResourceSet.ALL);
            }
            h.run(10);
            StatusSnapshot.GroupView e = view(N1).get(E);
            if (e.runningOn().equals("node1")) {
                break; // node1 took it over: its own state from here on
            }
            assertThat(e.runningOn() + " / " + e.placement()).as("step %d, node2 was %s\n%s", step, before, h.trace())
                    .isEqualTo(expected.get(before));
            steps.merge(before, 1, Integer::sum);
            before = h.engine(N2).machine().groupState(2);
        }
        assertThat(steps).containsKeys(GroupState.STARTING, GroupState.RUNNING, GroupState.STOPPING,
                GroupState.STOPPED);
        h.run(5_000);
        assertThat(h.runningOn(N1)).contains(A, B, E);
        assertStatusTrue();
    }

    /**
     * A Heartbeat 3.0.6 peer reports only its rsc_hold: node1 never names it as a confirmed place, only
     * as unconfirmed, for its groups and for a group it may not even define.
     */
    @Test
    void aHeartbeatPeerIsNeverAConfirmedPlace() {
        h.asHeartbeat306(N2);
        start(N1, TWO);
        start(N2, TWO);
        h.run(12_000);
        assertThat(h.runningOn(N2)).containsExactly(B);
        StatusSnapshot.GroupView b = view(N1).get(B);
        assertThat(b.runningOn()).isEqualTo("-");
        assertThat(b.unconfirmedOn()).isEqualTo("node2");
        assertThat(b.placement()).isEqualTo("not confirmed: node2 reports holding its own groups (rsc_hold local),"
                + " not which of them run");
        assertThat(snapshot(N1).render()).contains("  " + B + " labweb2         on node2?     (preferred node2,"
                + " here stopped)\n");
        assertThat(snapshot(N1).toJson()).contains("\"key\":\"" + B + "\",\"preferred_node\":\"node2\","
                + "\"state_here\":\"stopped\",\"running_on\":null,").contains("\"running_on_unconfirmed\":\"node2\"");
        assertThat(view(N1).get(A).runningOn()).isEqualTo("node1");
        // node2's own view of node1 (a jheartbeat node's reports reach it) is confirmed
        assertThat(view(N2).get(A).runningOn()).isEqualTo("node1");

        reload(N1, TWO + NEW_LINE);
        h.run(12_000);
        assertThat(h.runningOn(N2)).doesNotContain(E);
        assertThat(view(N1).get(E).runningOn()).isEqualTo("-");
        assertThat(view(N1).get(E).unconfirmedOn()).isEqualTo("node2");
    }

    @Test
    void aMalformedReportIsCountedAsABadPacketAndChangesNothing() {
        start(N1, TWO);
        start(N2, TWO);
        h.run(10_000);
        long bad = h.engine(N1).badPackets().total();
        h.inject(N2, org.jheartbeat.core.wire.HaMessage.builder()
                .add(org.jheartbeat.core.wire.Field.TYPE, "jhb-groups")
                .add(org.jheartbeat.core.wire.Field.GROUP_STATES, "stopped:" + B + ",running:" + B).build());
        h.run(100);
        assertThat(h.engine(N1).badPackets().total()).isEqualTo(bad + 1);
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 ERROR:") && l.contains("listed twice"));
        assertThat(view(N1).get(B).runningOn()).isEqualTo("node2");
        assertStatusTrue();
    }
}
