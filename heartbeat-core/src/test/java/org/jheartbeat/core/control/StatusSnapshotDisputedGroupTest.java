package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code hb status} shows a disputed group, with the reason, in text and JSON, so the admin sees why it runs nowhere. */
class StatusSnapshotDisputedGroupTest {
    static final String WHY = "defined differently on node2 (node2 names node2 as its preferred node, node1 names node1);"
            + " started by neither node until haresources agree";

    final StatusSnapshot s = new StatusSnapshot("node1", 7, "stable", "none",
            List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of())),
            List.of(new StatusSnapshot.GroupView("198.18.0.100/24/eth0", "node1", "stopped", "-",
                            "198.18.0.100/24/eth0 labweb", "", WHY),
                    new StatusSnapshot.GroupView("198.18.0.102", "node1", "running", "node1", "198.18.0.102 labdb")),
            0, Map.of(), Map.of(), "none", "DIFFERS from node2 in haresources", List.of());

    @Test
    void textMarksTheGroupDisputedAndGivesTheReasonOnTheNextLine() {
        assertThat(s.render()).contains("(preferred node1, here stopped, disputed)\n    disputed: " + WHY + "\n")
                .contains("(preferred node1, here running)\n");
    }

    @Test
    void jsonHasTheReasonOrNull() {
        assertThat(s.toJson()).contains("\"resources\":\"198.18.0.100/24/eth0 labweb\",\"problem\":null,\"disputed\":\""
                + WHY.replace("\"", "\\\"") + "\"}")
                .contains("\"resources\":\"198.18.0.102 labdb\",\"problem\":null,\"disputed\":null}");
    }
}
