package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/** A hand-over the peer asks for is journalled on this node with {@code by} = {@code peer NODE}. */
class PeerHandoverEventsTest {
    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 200);

    @Test
    void thePeersStandbyAndTakeoverAreRecordedHereWithThePeerAsWhoAsked() {
        List<ClusterEvent> events = new CopyOnWriteArrayList<>();
        h.start(N1);
        h.start(N2);
        h.engine(N2).recordEventsTo(events::add);
        h.run(15_000);
        h.standby(N1, ResourceSet.LOCAL);
        h.run(15_000);
        assertThat(events).filteredOn(e -> e.kind() == EventKind.TAKEOVER).singleElement().satisfies(e -> {
            assertThat(e.by()).isEqualTo("peer node1");
            assertThat(e.subject()).isEqualTo("node1's local");
            assertThat(e.node()).isEqualTo("node2");
        });
        h.takeover(N1, ResourceSet.FOREIGN);
        h.run(15_000);
        assertThat(events).filteredOn(e -> e.kind() == EventKind.STANDBY).singleElement().satisfies(e -> {
            assertThat(e.by()).isEqualTo("peer node1");
            assertThat(e.subject()).isEqualTo("local");
        });
    }
}
