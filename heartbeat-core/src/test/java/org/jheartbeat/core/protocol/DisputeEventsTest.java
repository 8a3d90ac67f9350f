package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/** Groups the two haresources define differently are journalled once each as config-dispute, with the reason. */
class DisputeEventsTest {
    final TwoNodeHarness h = new TwoNodeHarness(List.of(), FailbackPolicy.ON, 200);

    private ClusterConfig config(String haresources) {
        ClusterConfig c = h.config();
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, c.nodes());
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), parsed.groups(), c.stonith());
    }

    @Test
    void eachDisputedGroupIsOneEvent() {
        h.configFor(N1, config(DisputedGroupsScenarioTest.NODE1))
                .configFor(N2, config(DisputedGroupsScenarioTest.NODE2_BAD));
        List<ClusterEvent> events = new CopyOnWriteArrayList<>();
        h.start(N1);
        h.engine(N1).recordEventsTo(events::add);
        h.start(N2);
        h.run(45_000);
        List<ClusterEvent> disputes = events.stream().filter(e -> e.kind() == EventKind.CONFIG_DISPUTE).toList();
        // the groups, and the file they differ in ("Configuration differs from node2: haresources")
        assertThat(disputes).extracting(ClusterEvent::subject)
                .containsExactlyInAnyOrder(DisputedGroupsScenarioTest.A, DisputedGroupsScenarioTest.B, "haresources");
        assertThat(disputes).allSatisfy(e -> assertThat(e.node()).isEqualTo("node1"));
        assertThat(disputes.stream().filter(e -> e.subject().equals(DisputedGroupsScenarioTest.B)).findFirst()
                .orElseThrow().cause()).contains("resource labweb2 is in group " + DisputedGroupsScenarioTest.A
                + " on node2");
        assertThat(events).extracting(ClusterEvent::kind).contains(EventKind.NODE_ALIVE, EventKind.LINK_UP);
    }
}
