package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.sync.backup.BackupResult;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.backup.DiskState;
import org.jheartbeat.sync.replication.JobResult;
import org.jheartbeat.sync.replication.JobState;
import org.junit.jupiter.api.Test;

/** The metric families from one snapshot, as the text exposition format shows them to Prometheus. */
class ClusterMetricsTest {
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    static ClusterLoop.Observation observation(String peerStatus, String eth1) {
        StatusSnapshot s = new StatusSnapshot("node1", 7, "stable", "local",
                List.of(new StatusSnapshot.NodeView("node1", "active", true, Map.of()),
                        new StatusSnapshot.NodeView("node2", peerStatus, false, Map.of("eth0", "up", "eth1", eth1))),
                List.of(new StatusSnapshot.GroupView("198.18.0.100/24/eth0", "node1", "running", "node1",
                        "198.18.0.100/24/eth0 labweb"),
                        new StatusSnapshot.GroupView("198.18.0.101", "node2", "failed", "-", "198.18.0.101")),
                3, Map.of(), Map.of(), "ready (nothing fenced yet)", "same as node2", List.of(),
                new StatusSnapshot.LoopHealth(6, 2, Map.of("IllegalStateException executing StartGroup", 2L)));
        ClusterCounters c = new ClusterCounters(4, 1, Map.of("eth1", 2L), 1,
                Map.of("standby", Map.of("done", 2L, "failed", 0L, "cancelled", 0L, "refused", 1L),
                        "takeover", Map.of("done", 0L, "failed", 0L, "cancelled", 1L, "refused", 0L)),
                Map.of("198.18.0.101", 1L), Map.of(), 1, 2);
        return new ClusterLoop.Observation(s, c);
    }

    static String text(MetricSnapshots m) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, m, io.prometheus.metrics.config.EscapingScheme.ALLOW_UTF8);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyFamilyFromOneSnapshot() throws IOException {
        JobState job = new JobState("web", Optional.of(NOW.minusSeconds(70)), Optional.of(NOW.minusSeconds(60)),
                JobResult.OK, "ok", 10, 1, 5, 1, Optional.of(NOW.minusSeconds(70)), Map.of());
        BackupState backup = new BackupState("nightly", DiskState.MISSING, BackupResult.FAILED,
                Optional.of(NOW.minusSeconds(3700)), Optional.of(NOW.minusSeconds(3600)), "disk gone", 4,
                Optional.of("2026-11-30"), 0, 0);
        String t = text(ClusterMetrics.of(new ClusterMetrics.Inputs(Optional.of(observation("active", "up")),
                List.of(job), Map.of("web", Optional.of(Duration.ofSeconds(65))), List.of(backup), 5, 9, NOW)));
        assertThat(t).contains("jheartbeat_up 1.0\n")
                .contains("# HELP jheartbeat_node_status status of each node as this node sees it")
                .contains("# TYPE jheartbeat_node_status gauge")
                .contains("jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"active\"} 1.0\n")
                .contains("jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"dead\"} 0.0\n")
                .contains("jheartbeat_node_status{local=\"true\",node=\"node1\",status=\"active\"} 1.0\n")
                .contains("jheartbeat_link_status{link=\"eth1\",node=\"node2\",status=\"up\"} 1.0\n")
                .contains("jheartbeat_link_status{link=\"eth0\",node=\"node2\",status=\"init\"} 0.0\n")
                .contains("# TYPE jheartbeat_late_heartbeats_total counter")
                .contains("jheartbeat_late_heartbeats_total{node=\"node2\"} 4.0\n")
                .contains("jheartbeat_node_deaths_total{node=\"node2\"} 1.0\n")
                .contains("jheartbeat_link_deaths_total{link=\"eth1\",node=\"node2\"} 2.0\n")
                .contains("jheartbeat_takeovers_total 1.0\n")
                .contains("jheartbeat_handovers_total{kind=\"standby\",outcome=\"done\"} 2.0\n")
                .contains("jheartbeat_handovers_total{kind=\"standby\",outcome=\"refused\"} 1.0\n")
                .contains("jheartbeat_handovers_total{kind=\"takeover\",outcome=\"cancelled\"} 1.0\n")
                .contains("jheartbeat_group_state{group=\"198.18.0.100/24/eth0\",preferred_node=\"node1\","
                        + "state=\"running\"} 1.0\n")
                .contains("jheartbeat_group_state{group=\"198.18.0.101\",preferred_node=\"node2\",state=\"failed\"} 1.0\n")
                .contains("jheartbeat_group_running_on{group=\"198.18.0.100/24/eth0\",node=\"node1\"} 1.0\n")
                .contains("jheartbeat_group_running_on{group=\"198.18.0.101\",node=\"node2\"} 0.0\n")
                .contains("jheartbeat_group_failures_total{group=\"198.18.0.101\",operation=\"start\"} 1.0\n")
                .contains("jheartbeat_group_failures_total{group=\"198.18.0.101\",operation=\"stop\"} 0.0\n")
                .contains("jheartbeat_fencing_total{result=\"fenced\"} 1.0\n")
                .contains("jheartbeat_fencing_total{result=\"failed\"} 2.0\n")
                .contains("jheartbeat_bad_packets_total 3.0\n")
                .contains("# TYPE jheartbeat_frames_dropped_total counter")
                .contains("jheartbeat_frames_dropped_total 6.0\n")
                .contains("jheartbeat_internal_errors_total 2.0\n")
                .contains("jheartbeat_log_lines_dropped_total 5.0\n")
                .contains("jheartbeat_syslog_records_lost_total 9.0\n")
                .contains("jheartbeat_sync_job_result{job=\"web\",result=\"ok\"} 1.0\n")
                .contains("jheartbeat_sync_job_result{job=\"web\",result=\"failed_fatal\"} 0.0\n")
                .contains("jheartbeat_sync_job_replica_age_seconds{job=\"web\"} 65.0\n")
                .contains("jheartbeat_sync_job_last_success_age_seconds{job=\"web\"} 70.0\n")
                .contains("jheartbeat_backup_result{backup=\"nightly\",result=\"failed\"} 1.0\n")
                .contains("jheartbeat_backup_last_run_age_seconds{backup=\"nightly\"} 3600.0\n")
                .contains("jheartbeat_backup_snapshots{backup=\"nightly\"} 4.0\n");
        // a state set: exactly one 1 per node
        assertThat(t.lines().filter(l -> l.startsWith("jheartbeat_node_status{local=\"false\"") && l.endsWith(" 1.0")))
                .hasSize(1);
    }

    @Test
    void aDeadPeerAndItsDeadLinksShowAsDead() throws IOException {
        String t = text(ClusterMetrics.of(new ClusterMetrics.Inputs(Optional.of(observation("dead", "dead")), List.of(),
                Map.of(), List.of(), 0, 0, NOW)));
        assertThat(t).contains("jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"dead\"} 1.0\n")
                .contains("jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"active\"} 0.0\n")
                .contains("jheartbeat_link_status{link=\"eth1\",node=\"node2\",status=\"dead\"} 1.0\n");
    }

    @Test
    void withoutTheLoopsAnswerOnlyUpZeroAndWhatIsReadElsewhere() throws IOException {
        String t = text(ClusterMetrics.of(new ClusterMetrics.Inputs(Optional.empty(), List.of(JobState.never("web")),
                Map.of("web", Optional.empty()), List.of(BackupState.initial("nightly")), 0, 0, NOW)));
        assertThat(t).contains("jheartbeat_up 0.0\n").doesNotContain("jheartbeat_node_status")
                .doesNotContain("jheartbeat_takeovers").contains("jheartbeat_sync_job_result{job=\"web\",result=\"never\"} 1.0")
                .doesNotContain("jheartbeat_sync_job_replica_age_seconds{")
                .doesNotContain("jheartbeat_backup_last_run_age_seconds{")
                .contains("jheartbeat_backup_result{backup=\"nightly\",result=\"never\"} 1.0");
    }

    @Test
    void monitorFailCountsPerWatchedResource() throws IOException {
        var w = new org.jheartbeat.resources.monitor.GroupMonitor.ResourceWatch("lsb:lighttpd",
                org.jheartbeat.resources.monitor.MonitorSettings.DEFAULT, 2, "not running", java.time.Duration.ZERO);
        String t = text(ClusterMetrics.of(new ClusterMetrics.Inputs(Optional.empty(), List.of(), Map.of(), List.of(), 0, 0,
                NOW, Map.of("198.18.0.100", List.of(w)))));
        assertThat(t).contains("jheartbeat_resource_fail_count{group=\"198.18.0.100\",resource=\"lsb:lighttpd\"} 2.0\n");
        assertThat(text(ClusterMetrics.of(new ClusterMetrics.Inputs(Optional.empty(), List.of(), Map.of(), List.of(), 0,
                0, NOW)))).doesNotContain("jheartbeat_resource_fail_count");
    }

    @Test
    void aSecretParameterNeverReachesALabel() throws IOException {
        var w = new org.jheartbeat.resources.monitor.GroupMonitor.ResourceWatch(
                "ocf:heartbeat:mysql::replication_passwd=s3cret", org.jheartbeat.resources.monitor.MonitorSettings.DEFAULT,
                1, "not running", java.time.Duration.ZERO);
        String t = text(ClusterMetrics.of(new ClusterMetrics.Inputs(Optional.empty(), List.of(), Map.of(), List.of(), 0,
                0, NOW, Map.of("ocf:heartbeat:IPaddr2::ip=198.18.0.100::api_token=t0k", List.of(w)))));
        assertThat(t).doesNotContain("s3cret").doesNotContain("t0k").contains("jheartbeat_resource_fail_count{group="
                + "\"ocf:heartbeat:IPaddr2::ip=198.18.0.100::api_token=hidden\",resource=\"ocf:heartbeat:mysql"
                + "::replication_passwd=hidden\"} 1.0\n");
    }
}
