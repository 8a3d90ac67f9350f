package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.wire.HaMessage;
import org.junit.jupiter.api.Test;

/** The nodes exchange config digests ({@code jhb-config}) and report a mismatch. */
class ConfigDigestScenarioTest {
    /** Keepalive of {@link TwoNodeHarness}, ms. */
    static final long KEEPALIVE_MS = 500;

    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200);

    /** The harness config with node2's group given one more resource: a different haresources. */
    private ClusterConfig differentHaresources() {
        ClusterConfig c = h.config();
        List<ResourceGroupDecl> groups = List.of(c.resourceGroups().get(0), new ResourceGroupDecl(N2, List.of(
                new ResourceSpec("IPaddr", List.of("198.18.0.101"), "198.18.0.101"),
                new ResourceSpec("labweb2", List.of(), "labweb2"), new ResourceSpec("labdb", List.of(), "labdb")), 2));
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), groups, c.stonith());
    }

    /** Fake time (s) of the first log line of {@code node} containing {@code text}. */
    private double timeOf(String node, String text) {
        return h.logs().stream().filter(l -> on(l, node) && l.contains(text)).findFirst()
                .map(l -> Double.parseDouble(l.trim().split(" ")[0]))
                .orElseThrow(() -> new AssertionError("no [" + text + "] on " + node + " in " + h.logs()));
    }

    private long count(String node, String text) {
        return h.logs().stream().filter(l -> on(l, node) && l.contains(text)).count();
    }

    /** Whether harness log line {@code l} ({@code "  12.34 node1 WARN: ..."}) was logged by {@code node}. */
    private static boolean on(String l, String node) {
        return l.trim().split(" ")[1].equals(node);
    }

    @Test
    void sameConfigIsReportedSameAndNotWarned() {
        h.start(N1);
        h.start(N2);
        h.run(3000);
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
        assertThat(h.engine(N2).configStatus()).isEqualTo("same as node1");
        assertThat(h.logs()).noneMatch(l -> l.contains("Configuration"));
        assertThat(h.engine(N1).peerConfigDigest()).contains(h.engine(N2).localConfigDigest());
    }

    @Test
    void aDeadPeersLastDigestIsNotReportedAsTheSame() {
        h.start(N1);
        h.start(N2);
        h.run(3000);
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
        h.powerOff(N2);
        h.run(15_000);
        assertThat(h.engine(N1).machine().peerPresence().departed()).isTrue();
        // its files may change while it is down: "same" would be a claim about a run that ended
        assertThat(h.engine(N1).configStatus()).isEqualTo("unknown (node2 is not running; compare again once it is back)");
        assertThat(h.engine(N1).peerConfigDigest()).isEmpty();
        h.start(N2);
        h.run(5000);
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
    }

    @Test
    void differentHaresourcesIsWarnedOnBothNodesWithinOneKeepaliveOfCommUpAndOncePerGeneration() {
        h.configFor(N2, differentHaresources());
        h.start(N1);
        h.start(N2);
        h.run(3000);
        String warn = "WARN: Configuration differs from ";
        for (String[] p : new String[][] {{"node1", "node2"}, {"node2", "node1"}}) {
            double up = timeOf(p[0], "Comm_now_up()");
            double warned = timeOf(p[0], warn + p[1] + ": haresources. ");
            assertThat(warned - up).as("%s: comm up %.2f, warned %.2f", p[0], up, warned)
                    .isBetween(0.0, KEEPALIVE_MS / 1000.0);
        }
        assertThat(h.logs()).anyMatch(l -> l.endsWith("node1 WARN: Configuration differs from node2: haresources."
                + " Make these files the same on both nodes and reload both (hb reload), or compare with 'hb config diff'."));
        assertThat(h.engine(N1).configStatus()).isEqualTo("DIFFERS from node2 in haresources");
        assertThat(h.engine(N2).configStatus()).isEqualTo("DIFFERS from node1 in haresources");

        h.run(10_000);
        assertThat(count("node1", warn)).isEqualTo(1);
        assertThat(count("node2", warn)).isEqualTo(1);
        // the cluster still runs: the files differ in one group, which neither node starts
        // (DisputedGroupsScenarioTest); the rest is a warning, not a fault
        assertThat(h.engine(N1).machine().state()).isEqualTo(TakeoverState.STABLE);
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(h.placement()).isEqualTo(java.util.Map.of("node1", java.util.Set.of("198.18.0.100/24/eth0"),
                "node2", java.util.Set.of()));

        // node2 restarts with the same config as node1: node1 says so once, node2 says nothing
        h.powerOff(N2);
        h.configFor(N2, h.config());
        h.start(N2);
        h.run(3000);
        assertThat(count("node1", "INFO: Configuration matches node2 now.")).isEqualTo(1);
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
        assertThat(h.engine(N2).configStatus()).isEqualTo("same as node1");
        assertThat(count("node2", "Configuration")).isEqualTo(1); // only the first run's warning
    }

    @Test
    void aRestartedPeerStillDifferentIsWarnedAgain() {
        h.configFor(N2, differentHaresources());
        h.start(N1);
        h.start(N2);
        h.run(3000);
        h.powerOff(N2);
        h.run(1000);
        h.start(N2);
        h.run(3000);
        assertThat(count("node1", "WARN: Configuration differs from node2")).isEqualTo(2);
        assertThat(count("node2", "WARN: Configuration differs from node1")).isEqualTo(2);
        assertThat(h.engine(N2).configStatus()).isEqualTo("DIFFERS from node1 in haresources");
    }

    @Test
    void aMessageTypeWeDoNotKnowIsIgnoredHarmlessly() {
        h.start(N1);
        h.start(N2);
        h.run(3000);
        int before = h.logs().size();
        h.inject(N2, HaMessage.builder().add("t", "jhb-something-newer").add("cfg_x", "1").build());
        h.run(2000);
        assertThat(h.logs().subList(before, h.logs().size())).isEmpty();
        assertThat(h.engine(N1).badPackets().total()).isZero();
        assertThat(h.engine(N1).configStatus()).isEqualTo("same as node2");
        assertThat(h.engine(N1).detector().status(N2)).isEqualTo(NodeStatus.ACTIVE);
    }

    @Test
    void aMalformedDigestIsWarnedAndIgnored() {
        h.start(N1);
        h.run(200);
        h.start(N2);
        h.run(3000);
        h.powerOff(N2); // a new generation whose first message after its status is a bad digest
        h.start(N2);
        h.run(10);
        h.inject(N2, HaMessage.builder().add("t", "jhb-config").add("cfg_haresources", "xyz").build());
        h.run(10); // node1 reads node2's first status and the bad digest; node2's good one comes after comm up
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 WARN: malformed jhb-config message from node2; ignored"));
        assertThat(h.engine(N1).configStatus()).isEqualTo("unknown (node2 sent no digest \u2014 a Heartbeat 3.0.6 peer?)");
    }

    @Test
    void beforeThePeerIsHeardTheStatusSaysSo() {
        h.start(N1);
        h.run(100);
        assertThat(h.engine(N1).configStatus()).isEqualTo("unknown (node2 not heard from)");
    }
}
