package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * Each start and stop the engines issue carries the {@link GroupOpReason} that the group executor
 * and the sync hooks act on (active/active lab groups, fake time), and the peer's loss reaches the
 * shell before the takeover's starts.
 */
class GroupOpReasonScenarioTest {
    private static final String G1 = "198.18.0.100/24/eth0";
    private static final String G2 = "198.18.0.101";

    private final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 200);
    private int mark;

    /** The operations since the previous call. */
    private List<String> step() {
        List<String> all = h.ops();
        List<String> out = all.subList(mark, all.size());
        mark = all.size();
        return out;
    }

    @Test
    void startStandbyDeathPartitionAndShutdownEachNameTheirReason() {
        h.start(N1);
        h.start(N2);
        h.run(15_000);
        assertThat(step()).containsExactlyInAnyOrder("node1 start " + G1 + " LOCAL_START",
                "node2 start " + G2 + " LOCAL_START");

        h.standby(N1, ResourceSet.ALL);
        h.run(5_000);
        assertThat(step()).containsExactly("node1 stop " + G1 + " STANDBY_RELEASE",
                "node2 start " + G1 + " STANDBY_ACQUIRE");

        h.powerOff(N2);
        h.run(8_000);
        assertThat(step()).as("the loss first, then the takeover's starts").containsExactly(
                "node1 peer-lost node2 died", "node1 start " + G1 + " TAKEOVER", "node1 start " + G2 + " TAKEOVER");

        h.start(N2);
        h.run(15_000);
        h.link(false);
        h.run(8_000);
        step();
        h.link(true);
        h.run(15_000);
        assertThat(step()).as("after the partition each node lets go of the other's group")
                .contains("node1 stop " + G2 + " PARTITION_RELEASE", "node2 stop " + G1 + " PARTITION_RELEASE")
                .anySatisfy(op -> assertThat(op).endsWith(" REANNOUNCE"))
                .noneSatisfy(op -> assertThat(op).contains("STANDBY_RELEASE"));

        h.shutdown(N1);
        h.run(8_000);
        assertThat(step()).containsSubsequence("node1 stop " + G1 + " SHUTDOWN", "node2 peer-lost node1 shut down",
                "node2 start " + G1 + " TAKEOVER");
    }

    @Test
    void theLogTextComesFromTheReason() {
        assertThat(GroupOpReason.TAKEOVER.describe(N2)).isEqualTo("takeover: node2 is down");
        assertThat(GroupOpReason.LOCAL_START.describe(N2)).isEqualTo("local");
        assertThat(GroupOpReason.STANDBY_RELEASE.describe(N2)).isEqualTo("standby: handing over to node2");
        assertThat(GroupOpReason.REANNOUNCE.describe(N2)).isEqualTo("re-announce after the partition healed");
        assertThat(GroupOpReason.values()).filteredOn(GroupOpReason::starts).containsExactly(
                GroupOpReason.LOCAL_START, GroupOpReason.TAKEOVER, GroupOpReason.STANDBY_ACQUIRE,
                GroupOpReason.OFFER_ACCEPT, GroupOpReason.REANNOUNCE);
        assertThat(GroupOpReason.OFFER_ACCEPT.describe(N2)).isEqualTo("node2 could not start it");
        assertThat(GroupOpReason.values()).filteredOn(GroupOpReason::handsOver)
                .containsExactly(GroupOpReason.STANDBY_RELEASE, GroupOpReason.SHUTDOWN);
    }
}
