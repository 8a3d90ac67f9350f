package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cluster loop's dropped frames and internal errors in {@code hb status} and {@code --json}. */
class StatusSnapshotLoopHealthTest {
    static StatusSnapshot snapshot(StatusSnapshot.LoopHealth health) {
        return new StatusSnapshot("node1", 7, "stable", "local",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of())), List.of(), 2,
                Map.of("198.18.1.9:694 on eth1", 2L), Map.of(), "none", "same as node2", List.of(), health);
    }

    static Map<String, Long> kinds() {
        Map<String, Long> k = new LinkedHashMap<>();
        k.put("IllegalStateException executing StartGroup", 2L);
        k.put("NullPointerException sending on eth1", 1L);
        return k;
    }

    @Test
    void theTextShowsThemAfterTheBadPackets() {
        assertThat(snapshot(new StatusSnapshot.LoopHealth(4000, 3, kinds(), 12)).render()).contains(
                "Bad packets: 2\n  198.18.1.9:694 on eth1: 2\nFrames dropped (loop queue full): 4000\n"
                        + "Frames from before (replayed, stale or our own; ignored): 12\nInternal errors: 3\n"
                        + "  IllegalStateException executing StartGroup: 2\n  NullPointerException sending on eth1: 1\n");
    }

    @Test
    void theJsonHasTheCountsAndTheKinds() {
        assertThat(snapshot(new StatusSnapshot.LoopHealth(4000, 3, kinds(), 12)).toJson()).contains(
                "\"frames_dropped\":4000,\"frames_from_before\":12,\"internal_errors\":3,\"internal_errors_by_kind\":{"
                        + "\"IllegalStateException executing StartGroup\":2,\"NullPointerException sending on eth1\":1},");
    }

    @Test
    void aSnapshotWithoutThemShowsZeros() {
        StatusSnapshot s = new StatusSnapshot("node1", 7, "stable", "local", List.of(), List.of(), 0, Map.of(),
                Map.of(), "none", "same as node2", List.of());
        assertThat(s.loop()).isEqualTo(StatusSnapshot.LoopHealth.NONE);
        assertThat(s.render()).contains("Frames dropped (loop queue full): 0\n"
                + "Frames from before (replayed, stale or our own; ignored): 0\nInternal errors: 0\n");
        assertThat(s.toJson()).contains("\"frames_dropped\":0,\"frames_from_before\":0,\"internal_errors\":0,\"internal_errors_by_kind\":{},");
    }
}
