package org.jheartbeat.sync.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.jheartbeat.sync.replication.JobResult;
import org.jheartbeat.sync.replication.JobState;
import org.junit.jupiter.api.Test;

/** The pure parts of {@link SyncRuntime}: when a stopped group is pushed, and the status sections. */
class SyncRuntimeTest {
    private static StatusSnapshot snapshot(String takeoverState, String peerStatus, String groupHere) {
        return new StatusSnapshot("node2", 7, takeoverState, "all",
                List.of(new StatusSnapshot.NodeView("node2", "active", true, Map.of()),
                        new StatusSnapshot.NodeView("node1", peerStatus, false, Map.of("eth1", "up"))),
                List.of(new StatusSnapshot.GroupView("198.18.0.100/24/eth0", "node1", groupHere, "node2",
                        "labweb")), 0, Map.of(), Map.of(), "none", "same as node1", List.of());
    }

    @Test
    void handOverToALivePeerSyncs() {
        assertThat(SyncRuntime.finalSyncRefusal(GroupOpReason.STANDBY_RELEASE,
                Optional.of(snapshot("standby_giving", "active", "stopping")))).isEmpty();
        assertThat(SyncRuntime.finalSyncRefusal(GroupOpReason.SHUTDOWN,
                Optional.of(snapshot("shutting_down", "up", "stopping")))).isEmpty();
    }

    @Test
    void deadPeerGetsNothing() {
        assertThat(SyncRuntime.finalSyncRefusal(GroupOpReason.SHUTDOWN,
                Optional.of(snapshot("shutting_down", "dead", "stopping")))).contains("the peer is not up");
        assertThat(SyncRuntime.finalSyncRefusal(GroupOpReason.STANDBY_RELEASE, Optional.empty()))
                .contains("cluster status not available");
    }

    @Test
    void aStopOutsideAHandOverNeverOverwritesThePeer() {
        // a healed partition: both ran the group; this node releases it (the status string is not read)
        assertThat(SyncRuntime.finalSyncRefusal(GroupOpReason.PARTITION_RELEASE,
                Optional.of(snapshot("standby_giving", "active", "stopping"))))
                .get().asString().startsWith("the stop is not a hand-over (partition_release)");
        assertThat(GroupOpReason.values()).filteredOn(GroupOpReason::handsOver)
                .containsExactlyInAnyOrder(GroupOpReason.STANDBY_RELEASE, GroupOpReason.SHUTDOWN);
    }

    @Test
    void runningHereListsOnlyRunningGroups() {
        assertThat(SyncRuntime.runningHere(snapshot("stable", "active", "running")))
                .containsExactly("198.18.0.100/24/eth0");
        assertThat(SyncRuntime.runningHere(snapshot("stable", "active", "stopped"))).isEmpty();
    }

    @Test
    void statusSectionsAndJson() {
        SyncConfig cfg = new SyncConfig(null, SyncConfig.DEFAULT_STATE_DIR, SyncConfig.DEFAULT_SSH,
                Map.of("node1", "198.18.1.1", "node2", "198.18.1.2"),
                List.of(new ReplicationJobSpec("web", "198.18.0.100/24/eth0", List.of(java.nio.file.Path.of("/srv/web")),
                        Optional.empty(), "*/5 * * * *", true, List.of(), true, 0.5, 3, Duration.ofSeconds(30),
                        Duration.ofHours(1), 3)), List.of());
        Instant t = Instant.parse("2026-11-29T22:00:00Z");
        JobState st = new JobState("web", Optional.of(t), Optional.of(t.plusSeconds(2)), JobResult.REFUSED,
                "/srv/web is empty", 0, 0, 0, 0, Optional.of(t.minusSeconds(300)), Map.of());
        String text = SyncRuntime.render(cfg, List.of(st), List.of(), j -> Optional.of(Duration.ofSeconds(42)));
        assertThat(text).startsWith("Sync jobs:\n  web          group 198.18.0.100/24/eth0 REFUSED ")
                .contains(": /srv/web is empty (replica here 42 s old)").doesNotContain("Backups:");
        String json = org.jheartbeat.core.control.JsonText.write(g -> {
            g.writeStartObject();
            g.writeStringField("schema", "jheartbeat.status/1");
            SyncRuntime.writeJson(g, cfg, List.of(st), List.of(), j -> Optional.empty());
            g.writeEndObject();
        });
        assertThat(json).isEqualTo("{\"schema\":\"jheartbeat.status/1\",\"sync_jobs\":[{\"name\":\"web\","
                + "\"group\":\"198.18.0.100/24/eth0\",\"result\":\"REFUSED\",\"last_start\":\"2026-11-29T22:00:00Z\","
                + "\"last_end\":\"2026-11-29T22:00:02Z\",\"last_success\":\"2026-11-29T21:55:00Z\",\"bytes\":0,"
                + "\"files_transferred\":0,\"files_total\":0,\"replica_age_s\":null,"
                + "\"message\":\"/srv/web is empty\"}],\"backups\":[]}");
    }

    @Test
    void aRunningJobShowsSinceWhen() {
        SyncConfig cfg = new SyncConfig(null, SyncConfig.DEFAULT_STATE_DIR, SyncConfig.DEFAULT_SSH, Map.of(),
                List.of(new ReplicationJobSpec("web", "g", List.of(java.nio.file.Path.of("/srv/web")), Optional.empty(),
                        "*/5 * * * *", true, List.of(), false, 0.5, 3, Duration.ofSeconds(30), Duration.ofHours(1), 3)),
                List.of());
        Instant t = Instant.parse("2026-11-29T22:00:00Z");
        JobState st = JobState.never("web").running(t);
        assertThat(SyncRuntime.render(cfg, List.of(st), List.of(), j -> Optional.empty()))
                .endsWith("RUNNING          since " + org.jheartbeat.core.time.TimeFormats.LOCAL_TIME.format(t) + "\n");
    }
}
