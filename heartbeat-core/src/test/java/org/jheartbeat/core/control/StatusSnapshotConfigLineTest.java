package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusSnapshotConfigLineTest {
    @Test
    void statusShowsHowThePeersConfigCompares() {
        StatusSnapshot s = new StatusSnapshot("node1", 7, "stable", "local",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of())), List.of(), 0, Map.of(),
                Map.of(), "none", "DIFFERS from node2 in haresources", List.of());
        assertThat(s.render()).contains("\nConfig: DIFFERS from node2 in haresources\nFencing: none\n");
    }
}
