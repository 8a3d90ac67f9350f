package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.GroupDigest;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;
import org.junit.jupiter.api.Test;

/**
 * Groups the two haresources define differently are started by neither node, with
 * CRIT on both, until the files agree; groups defined the same run normally.
 */
class DisputedGroupsScenarioTest {
    /** node1's file: the lab's two groups plus one more of each node's, defined the same on node2. */
    static final String NODE1 = """
            node1 198.18.0.100/24/eth0 labweb
            node2 198.18.0.101 labweb2
            node1 198.18.0.102 labdb
            node2 198.18.0.103 labmail
            """;
    /** The observed case: node2's file puts node1's address in node2's own group. */
    static final String NODE2_BAD = """
            node2 198.18.0.100/24/eth0 labweb2
            node1 198.18.0.102 labdb
            node2 198.18.0.103 labmail
            """;
    static final String A = "198.18.0.100/24/eth0";
    static final String B = "198.18.0.101";
    static final String C = "198.18.0.102";
    static final String D = "198.18.0.103";
    static final String CRIT_A = "CRIT: Resource group 198.18.0.100/24/eth0 is defined differently on node1 and node2 (";
    static final String CRIT_B = "CRIT: Resource group 198.18.0.101 is defined differently on node1 and node2 (";

    final TwoNodeHarness h = new TwoNodeHarness(List.of(), FailbackPolicy.ON, 200);

    private ClusterConfig config(String haresources) {
        ClusterConfig c = h.config();
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, c.nodes());
        assertThat(parsed.hasErrors()).isFalse();
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), parsed.groups(), c.stonith());
    }

    private long count(String node, String text) {
        return h.logs().stream().filter(l -> l.trim().split(" ")[1].equals(node) && l.contains(text)).count();
    }

    /** Trace lines that start {@code key} anywhere. */
    private List<String> starts(String key) {
        return h.trace().stream().filter(t -> t.endsWith(" started " + key)).toList();
    }

    private void assertDisputedNeverStartedAndTheRestRuns() {
        assertThat(starts(A)).as("%s", h.trace()).isEmpty();
        assertThat(starts(B)).as("%s", h.trace()).isEmpty();
        assertThat(h.placement()).isEqualTo(java.util.Map.of("node1", Set.of(C), "node2", Set.of(D)));
        assertThat(h.doubleRun()).isNull();
        assertThat(count("node1", CRIT_A)).isEqualTo(1);
        assertThat(count("node1", CRIT_B)).isEqualTo(1);
        assertThat(count("node2", CRIT_A)).isEqualTo(1);
        assertThat(count("node2", "CRIT: Resource group")).isEqualTo(1);
        assertThat(h.logs()).anyMatch(l -> l.endsWith("node1 " + CRIT_A + "node2 names node2 as its preferred node,"
                + " node1 names node1; its resources differ on node2): started by neither node until haresources agree"));
        assertThat(h.engine(N1).disputeReason(0)).isPresent();
        assertThat(h.engine(N1).disputeReason(1)).contains("resource labweb2 is in group " + A + " on node2");
        assertThat(h.engine(N1).disputeReason(2)).isEmpty();
        assertThat(h.engine(N2).disputeReason(0)).isPresent();
        assertThat(h.engine(N1).machine().disputed(0)).isTrue();
        assertThat(h.engine(N2).machine().disputed(0)).isTrue();
        assertThat(h.engine(N1).machine().settled()).isTrue();
        assertThat(h.engine(N2).machine().settled()).isTrue();
    }

    @Test
    void nodesStartedTogetherNeverStartTheDisputedGroupsAndRunNormallyOnceTheFilesAgree() {
        h.configFor(N1, config(NODE1)).configFor(N2, config(NODE2_BAD));
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        assertDisputedNeverStartedAndTheRestRuns();
        h.run(30_000); // once per change: no repeats
        assertDisputedNeverStartedAndTheRestRuns();

        // node2 restarts with node1's file: everything runs where it is preferred
        h.powerOff(N2);
        h.configFor(N2, config(NODE1));
        h.start(N2);
        h.run(10_000);
        assertThat(h.placement()).isEqualTo(java.util.Map.of("node1", Set.of(A, C), "node2", Set.of(B, D)));
        assertThat(h.doubleRun()).isNull();
        assertThat(count("node1", "INFO: Resource group 198.18.0.100/24/eth0 is defined the same on node1 and node2 now"))
                .isEqualTo(1);
        assertThat(h.engine(N1).disputeReason(0)).isEmpty();
        assertThat(h.engine(N2).disputeReason(0)).isEmpty();
        assertThat(count("node2", "CRIT: Resource group")).isEqualTo(1); // only from its first run
    }

    @Test
    void aPeerRestartingWithTheBadFileMakesTheOtherStopTheGroupAndNeverStartsItItself() {
        h.configFor(N1, config(NODE1)).configFor(N2, config(NODE1));
        h.start(N1);
        h.start(N2);
        h.run(10_000);
        assertThat(h.placement()).isEqualTo(java.util.Map.of("node1", Set.of(A, C), "node2", Set.of(B, D)));

        h.powerOff(N2);
        h.configFor(N2, config(NODE2_BAD));
        h.start(N2);
        h.run(15_000);
        assertThat(h.trace()).as("%s", h.trace()).anyMatch(t -> t.endsWith("node1 stopped " + A))
                .noneMatch(t -> t.endsWith("node2 started " + A));
        assertThat(h.placement()).isEqualTo(java.util.Map.of("node1", Set.of(C), "node2", Set.of(D)));
        assertThat(h.doubleRun()).isNull();
        assertThat(count("node1", CRIT_A)).isEqualTo(1);
        assertThat(count("node2", CRIT_A)).isEqualTo(1);
    }

    /** Speaks for node2 (its daemon powered off): status, then repnodes, so node1 reaches comm up. */
    private void fakeNode2UpAndCommUp() {
        h.start(N1);
        h.start(N2);
        h.powerOff(N2);
        h.run(100);
        beat();
        h.run(100);
        h.inject(N2, HaMessage.builder().add(Field.TYPE, MessageType.REPLY_NODES.wireName()).add(Field.DESTINATION, "node1")
                .add(Field.NODE_LIST, "node1 node2 ").add(Field.DELETED_NODE_LIST, " ").build());
        h.run(100);
        h.inject(N2, HaMessage.builder().add(Field.TYPE, MessageType.RESOURCE.wireName())
                .add(Field.RESOURCES_HELD, "local").add(Field.RESOURCE_REPORT_TYPE, "full")
                .add(Field.IS_STABLE, "1").add(Field.INFO, "req_our_resources()").build());
    }

    private void beat() {
        h.inject(N2, HaMessage.builder().add(Field.TYPE, MessageType.STATUS.wireName()).add(Field.STATUS, "active")
                .add(Field.DEADTIME, "bb8").add(Field.PROTOCOL, "1").build());
    }

    /**
     * The comm-up race: the peer's {@code resource} answer arrives before its digest (here 400 ms
     * later). The answer is held back until the digest, so the group it disputes is never started.
     */
    @Test
    void aResourceAnswerBeforeThePeersDigestWaitsForIt() {
        h.configFor(N1, config(NODE1));
        fakeNode2UpAndCommUp();
        h.run(400);
        assertThat(h.trace()).noneMatch(t -> t.contains(" started "));
        ClusterConfig bad = config(NODE2_BAD);
        ConfigDigest d = ConfigDigest.of(bad);
        h.inject(N2, HaMessage.builder().add(Field.TYPE, MessageType.CONFIG_DIGEST.wireName())
                .add(Field.CONFIG_HARESOURCES, d.haresources()).add(Field.CONFIG_AUTHKEYS, d.authkeys())
                .add(Field.CONFIG_HA_CF, d.haCf())
                .add(Field.CONFIG_GROUPS, GroupDigest.encode(bad.resourceGroups().stream().map(GroupDigest::of).toList()))
                .build());
        for (int i = 0; i < 8; i++) {
            h.run(500);
            beat();
        }
        assertThat(h.runningOn(N1)).containsExactly(C);
        assertThat(starts(A)).isEmpty();
        assertThat(count("node1", CRIT_A)).isEqualTo(1);
        assertThat(count("node1", CRIT_B)).isEqualTo(1);
        assertThat(h.logs()).noneMatch(l -> l.contains("No configuration digest"));
    }

    @Test
    void withAPeerThatSendsNoDigestGroupsAreTakenAfterTwoKeepalives() {
        h.configFor(N1, config(NODE1));
        fakeNode2UpAndCommUp(); // node2's daemon never runs: we speak for it, as a Heartbeat 3.0.6 node would
        for (int i = 0; i < 8; i++) {
            h.run(500);
            beat();
        }
        assertThat(h.runningOn(N1)).containsExactlyInAnyOrder(A, C);
        String started = starts(A).get(0).trim();
        double commUp = h.logs().stream().filter(l -> l.contains("node1 INFO: Comm_now_up()")).findFirst()
                .map(l -> Double.parseDouble(l.trim().split(" ")[0])).orElseThrow();
        double at = Double.parseDouble(started.split(" ")[0]);
        System.out.printf("no digest: node1 started its groups %.2f s after comm up (keepalive 0.5 s)%n", at - commUp);
        assertThat(at - commUp).isBetween(1.0, 1.5); // two keepalives of fake time, plus the 200 ms group start
        assertThat(h.logs()).anyMatch(l -> l.contains("node1 INFO: No configuration digest from node2 within 1000 ms"));
        assertThat(h.engine(N1).disputeReason(0)).isEmpty();
    }
}
