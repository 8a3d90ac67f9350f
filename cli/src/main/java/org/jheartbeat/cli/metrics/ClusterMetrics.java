package org.jheartbeat.cli.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.core.membership.LinkStatus;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.resources.monitor.GroupMonitor;
import org.jheartbeat.sync.backup.BackupResult;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.replication.JobResult;
import org.jheartbeat.sync.replication.JobState;

/**
 * The metric families of the Prometheus endpoint, built from what the daemon already knows: a status
 * snapshot and the event counts ({@code ClusterLoop.observe()}), the sync jobs' and backups' states,
 * and the log's drop count. Pure: the caller gathers the inputs (off the loop thread) and the time.
 * States are exposed as one gauge per possible value, 1 for the current one and 0 for the others
 * (e.g. {@code jheartbeat_node_status{node="node2",status="dead"} 1}), so a query can select a state
 * by label and a dashboard can plot its changes.
 *
 * <p>Families (all prefixed {@code jheartbeat_}): {@code up}; {@code node_status}, {@code link_status};
 * {@code late_heartbeats_total}, {@code node_deaths_total}, {@code link_deaths_total},
 * {@code takeovers_total}, {@code handovers_total}; {@code group_state}, {@code group_failures_total};
 * {@code fencing_total}; {@code bad_packets_total}, {@code frames_dropped_total},
 * {@code internal_errors_total}, {@code log_lines_dropped_total},
 * {@code syslog_records_lost_total};
 * {@code sync_job_result}, {@code sync_job_replica_age_seconds}, {@code sync_job_last_success_age_seconds};
 * {@code backup_result}, {@code backup_last_run_age_seconds}, {@code backup_snapshots};
 * {@code resource_fail_count} (monitoring: failures of each watched resource within its window). Ages are in
 * seconds at the time of the scrape; an age that is not known (never ran) is left out.
 */
public final class ClusterMetrics {
    private ClusterMetrics() {
    }

    /**
     * What one scrape reads.
     *
     * @param loop         the loop's snapshot and counts; empty when the loop did not answer in time
     *                     (then only {@code jheartbeat_up 0} and the sync/log families are exposed)
     * @param jobs         replication jobs' states, in sync.yaml order
     * @param replicaAges  per job: age of the replica on this node, when known
     * @param backups      backups' states, in sync.yaml order
     * @param logDropped   log lines dropped since start (the log queues were full)
     * @param syslogLost   syslog records lost since start ({@code /dev/log} did not take them)
     * @param now          the scrape's wall-clock time, for ages
     * @param monitor      group key → its watched resources with their fail counts (monitoring)
     */
    public record Inputs(Optional<ClusterLoop.Observation> loop, List<JobState> jobs,
                         Map<String, Optional<Duration>> replicaAges, List<BackupState> backups, long logDropped,
                         long syslogLost, Instant now, Map<String, List<GroupMonitor.ResourceWatch>> monitor) {
        public Inputs {
            jobs = List.copyOf(jobs);
            replicaAges = Map.copyOf(replicaAges);
            backups = List.copyOf(backups);
            monitor = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(monitor));
        }

        /** Inputs without monitoring. */
        public Inputs(Optional<ClusterLoop.Observation> loop, List<JobState> jobs,
                      Map<String, Optional<Duration>> replicaAges, List<BackupState> backups, long logDropped,
                      long syslogLost, Instant now) {
            this(loop, jobs, replicaAges, backups, logDropped, syslogLost, now, Map.of());
        }
    }

    /**
     * The families in the Prometheus text exposition format 0.0.4 (the client library's writer).
     *
     * @throws java.io.UncheckedIOException never in practice: the text is written to memory
     */
    static byte[] text(MetricSnapshots families) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(8192);
        try {
            io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create().write(out, families);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Every family for one scrape. */
    public static MetricSnapshots of(Inputs in) {
        List<MetricSnapshot> out = new ArrayList<>();
        out.add(gauge("jheartbeat_up", "1 when the cluster loop answered this scrape, 0 when it did not in time"
                + " (then node, link, group and event families are left out)",
                List.of(point(in.loop().isPresent() ? 1 : 0))));
        in.loop().ifPresent(o -> {
            status(o.status(), out);
            counters(o.counters(), o.status(), out);
        });
        out.add(counter("jheartbeat_log_lines_dropped", "log lines dropped because a log output was too slow",
                List.of(counterPoint(in.logDropped()))));
        out.add(counter("jheartbeat_syslog_records_lost", "syslog records lost because /dev/log did not take them"
                + " (ha.cf logfacility)", List.of(counterPoint(in.syslogLost()))));
        sync(in, out);
        if (!in.monitor().isEmpty()) {
            List<GaugeDataPointSnapshot> fails = new ArrayList<>();
            in.monitor().forEach((group, watches) -> watches.forEach(w ->
                    fails.add(point(w.failCount(), "group", LabelText.of(group), "resource",
                            LabelText.of(w.resource())))));
            out.add(gauge("jheartbeat_resource_fail_count", "monitor failures of each watched resource that still"
                    + " count (within its restart window); hb resources cleanup GROUP resets them", fails));
        }
        return new MetricSnapshots(out);
    }

    private static void status(StatusSnapshot s, List<MetricSnapshot> out) {
        List<GaugeDataPointSnapshot> nodes = new ArrayList<>();
        List<GaugeDataPointSnapshot> links = new ArrayList<>();
        for (StatusSnapshot.NodeView n : s.nodes()) {
            if (n.ping()) {
                continue; // ping pseudo-nodes are not cluster nodes
            }
            for (NodeStatus st : NodeStatus.values()) {
                nodes.add(point(st.wireName().equals(n.status()) ? 1 : 0, "node", n.name(), "local",
                        Boolean.toString(n.local()), "status", st.wireName()));
            }
            for (Map.Entry<String, String> l : new TreeMap<>(n.links()).entrySet()) {
                for (LinkStatus st : LinkStatus.values()) {
                    links.add(point(st.wireName().equals(l.getValue()) ? 1 : 0, "node", n.name(), "link", l.getKey(),
                            "status", st.wireName()));
                }
            }
        }
        out.add(gauge("jheartbeat_node_status", "status of each node as this node sees it (Heartbeat's init, up,"
                + " active, dead): 1 for the current one", nodes));
        out.add(gauge("jheartbeat_link_status", "status of each link (medium interface or serial device) to the"
                + " peer: 1 for the current one", links));
        List<GaugeDataPointSnapshot> groups = new ArrayList<>();
        for (StatusSnapshot.GroupView g : s.groups()) {
            for (GroupState st : GroupState.values()) {
                groups.add(point(st.displayName().equals(g.localState()) ? 1 : 0, "group", LabelText.of(g.key()),
                        "preferred_node", g.preferredNode(), "state", st.displayName()));
            }
        }
        out.add(gauge("jheartbeat_group_state", "run state of each resource group on this node: 1 for the current"
                + " one", groups));
        List<GaugeDataPointSnapshot> where = new ArrayList<>();
        for (StatusSnapshot.GroupView g : s.groups()) {
            for (StatusSnapshot.NodeView n : s.nodes().stream().filter(v -> !v.ping()).toList()) {
                where.add(point(n.name().equals(g.runningOn()) ? 1 : 0, "group", LabelText.of(g.key()), "node",
                        n.name()));
            }
        }
        out.add(gauge("jheartbeat_group_running_on", "1 for the node each resource group runs on by that node's own"
                + " account (all 0: on no node, or on one not confirmed)", where));
        out.add(counter("jheartbeat_bad_packets", "packets dropped since start: authentication or parse failures,"
                + " unknown senders", List.of(counterPoint(s.badPackets()))));
        out.add(counter("jheartbeat_frames_dropped", "received frames dropped because too many already waited for the"
                + " cluster loop (a flood on a medium, or a slowed-down loop)",
                List.of(counterPoint(s.loop().framesDropped()))));
        out.add(counter("jheartbeat_frames_from_before", "authenticated frames ignored as from before: an older"
                + " generation, a stale sequence, our own name, or a frame its link already carried (a replay)",
                List.of(counterPoint(s.loop().framesFromBefore()))));
        out.add(counter("jheartbeat_internal_errors", "exceptions the cluster loop caught and went on after (each kind"
                + " logged once; hb status lists them)", List.of(counterPoint(s.loop().internalErrors()))));
    }

    private static void counters(ClusterCounters c, StatusSnapshot s, List<MetricSnapshot> out) {
        String peer = s.nodes().stream().filter(n -> !n.local() && !n.ping()).findFirst().map(StatusSnapshot.NodeView::name)
                .orElse("");
        out.add(counter("jheartbeat_late_heartbeats", "heartbeats of the peer that came later than warntime"
                + " (Heartbeat's \"Late heartbeat\" warning)", List.of(counterPoint(c.lateHeartbeats(), "node", peer))));
        out.add(counter("jheartbeat_node_deaths", "times the peer was declared dead (silent for deadtime on every"
                + " link)", List.of(counterPoint(c.nodeDeaths(), "node", peer))));
        List<CounterDataPointSnapshot> links = new ArrayList<>();
        new TreeMap<>(c.linkDeaths()).forEach((l, n) -> links.add(counterPoint(n, "node", peer, "link", l)));
        out.add(counter("jheartbeat_link_deaths", "times a link to the peer was declared dead", links));
        out.add(counter("jheartbeat_takeovers", "times this node took over the resource groups of a peer that died"
                + " or left", List.of(counterPoint(c.takeovers()))));
        List<CounterDataPointSnapshot> handovers = new ArrayList<>();
        new TreeMap<>(c.handovers()).forEach((kind, byOutcome) -> new TreeMap<>(byOutcome).forEach((outcome, n) ->
                handovers.add(counterPoint(n, "kind", kind, "outcome", outcome))));
        out.add(counter("jheartbeat_handovers", "standby and takeover requests of this node (hb standby,"
                + " hb takeover, auto_failback) that ended, by outcome", handovers));
        List<CounterDataPointSnapshot> failures = new ArrayList<>();
        for (String g : s.groups().stream().map(StatusSnapshot.GroupView::key).toList()) {
            failures.add(counterPoint(c.groupStartFailures().getOrDefault(g, 0L), "group", LabelText.of(g), "operation",
                    "start"));
            failures.add(counterPoint(c.groupStopFailures().getOrDefault(g, 0L), "group", LabelText.of(g), "operation",
                    "stop"));
        }
        out.add(counter("jheartbeat_group_failures", "starts and stops of each resource group that failed on this"
                + " node", failures));
        out.add(counter("jheartbeat_fencing", "STONITH attempts on the peer by result: fenced (the device confirmed)"
                + " or failed", List.of(counterPoint(c.fencesSucceeded(), "result", "fenced"),
                        counterPoint(c.fencesFailed(), "result", "failed"))));
    }

    private static void sync(Inputs in, List<MetricSnapshot> out) {
        List<GaugeDataPointSnapshot> results = new ArrayList<>();
        List<GaugeDataPointSnapshot> replicaAges = new ArrayList<>();
        List<GaugeDataPointSnapshot> successAges = new ArrayList<>();
        for (JobState j : in.jobs()) {
            for (JobResult r : JobResult.values()) {
                results.add(point(r == j.result() ? 1 : 0, "job", j.job(), "result", word(r)));
            }
            in.replicaAges().getOrDefault(j.job(), Optional.empty()).ifPresent(a ->
                    replicaAges.add(point(a.toMillis() / 1000.0, "job", j.job())));
            j.lastSuccess().ifPresent(t -> successAges.add(point(age(t, in.now()), "job", j.job())));
        }
        out.add(gauge("jheartbeat_sync_job_result", "outcome of each replication job's latest run on this node:"
                + " 1 for the current one", results));
        out.add(gauge("jheartbeat_sync_job_replica_age_seconds", "age of each job's replica on this node (since the"
                + " start of the run that wrote it), in s", replicaAges));
        out.add(gauge("jheartbeat_sync_job_last_success_age_seconds", "time since the start of each job's latest"
                + " successful run on this node, in s", successAges));
        List<GaugeDataPointSnapshot> backupResults = new ArrayList<>();
        List<GaugeDataPointSnapshot> backupAges = new ArrayList<>();
        List<GaugeDataPointSnapshot> snapshots = new ArrayList<>();
        for (BackupState b : in.backups()) {
            for (BackupResult r : BackupResult.values()) {
                backupResults.add(point(r == b.lastResult() ? 1 : 0, "backup", b.name(), "result", word(r)));
            }
            b.lastEnd().ifPresent(t -> backupAges.add(point(age(t, in.now()), "backup", b.name())));
            snapshots.add(point(b.snapshots(), "backup", b.name()));
        }
        out.add(gauge("jheartbeat_backup_result", "outcome of each backup's latest run: 1 for the current one",
                backupResults));
        out.add(gauge("jheartbeat_backup_last_run_age_seconds", "time since each backup's latest run ended, in s",
                backupAges));
        out.add(gauge("jheartbeat_backup_snapshots", "complete snapshots on each backup's disk after its latest run",
                snapshots));
    }

    private static String word(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    private static double age(Instant t, Instant now) {
        return Math.max(0, Duration.between(t, now).toMillis()) / 1000.0;
    }

    private static GaugeSnapshot gauge(String name, String help, List<GaugeDataPointSnapshot> points) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        points.forEach(b::dataPoint);
        return b.build();
    }

    /** A counter family; {@code name} without {@code _total} (the exposition adds it). */
    private static CounterSnapshot counter(String name, String help, List<CounterDataPointSnapshot> points) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
        points.forEach(b::dataPoint);
        return b.build();
    }

    private static GaugeDataPointSnapshot point(double value, String... labels) {
        return GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build();
    }

    private static CounterDataPointSnapshot counterPoint(double value, String... labels) {
        return CounterDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build();
    }
}
