package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What hb setup reads of a node's status answer while it waits for the pair. */
class PairStatusTest {
    private static String status(String group) {
        return "{\"schema\":\"jheartbeat.status/1\",\"node\":\"node1\",\"nodes\":[{\"name\":\"node1\",\"status\":\"active\","
                + "\"local\":true},{\"name\":\"node2\",\"status\":\"active\",\"local\":false}],\"groups\":[" + group + "]}";
    }

    private static String group(String stateHere, String runningOn, String problem) {
        return "{\"key\":\"198.18.0.100/24/eth9\",\"preferred_node\":\"node1\",\"state_here\":\"" + stateHere
                + "\",\"running_on\":" + (runningOn == null ? "null" : "\"" + runningOn + "\"")
                + ",\"problem\":" + (problem == null ? "null" : "\"" + problem + "\"") + "}";
    }

    @Test
    void thePeerIsSeenActive() {
        assertThat(PairStatus.seesActive(status(""), "node2")).isTrue();
        assertThat(PairStatus.seesActive(status("").replace("\"active\",\"local\":false", "\"up\",\"local\":false"),
                "node2")).isFalse();
    }

    @Test
    void aGroupThatRunsOnANodeIsSettledOneStartingIsNot() {
        assertThat(PairStatus.groups(status(group("running", "node1", null))))
                .isEqualTo(new PairStatus.Groups(true, List.of()));
        assertThat(PairStatus.groups(status(group("stopped", "node2", null))).settled()).isTrue();
        assertThat(PairStatus.groups(status(group("starting", "node1", null))).settled()).isFalse();
        assertThat(PairStatus.groups(status(group("stopped", null, null))).settled()).isFalse();
        assertThat(PairStatus.groups(status("")).settled()).isTrue();
    }

    @Test
    void aGroupThatFailedIsSaidWithItsProblem() {
        // lab: setup printed "here starting" and exit 0; the group then failed on both nodes
        assertThat(PairStatus.groups(status(group("failed", null, "failed to start here: IPaddr add 198.18.0.100/24 dev"
                + " eth9 failed: Cannot find device eth9; clear with 'hb cleanup 198.18.0.100/24/eth9'"))))
                .isEqualTo(new PairStatus.Groups(true, List.of("198.18.0.100/24/eth9: failed to start here: IPaddr add"
                        + " 198.18.0.100/24 dev eth9 failed: Cannot find device eth9; clear with 'hb cleanup"
                        + " 198.18.0.100/24/eth9'")));
    }
}
