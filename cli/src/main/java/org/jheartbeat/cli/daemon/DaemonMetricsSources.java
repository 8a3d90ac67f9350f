package org.jheartbeat.cli.daemon;

import org.jheartbeat.cli.alert.AlertDispatcher;
import java.util.function.Supplier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.cli.logging.DaemonLog;
import org.jheartbeat.cli.metrics.MetricsEndpoint;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.resources.executor.ResourceGroupExecutor;
import org.jheartbeat.resources.monitor.GroupMonitor;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.replication.JobState;

/**
 * What the daemon's metrics endpoint reads on each scrape: the cluster loop's observation, the sync
 * and backup states, the log's and the journal's loss counters and the monitor's fail counts. Every call is answered by
 * the part that owns the value; nothing here blocks the loop.
 */
record DaemonMetricsSources(ClusterLoop loop, SyncRuntime sync, DaemonLog log, ResourceGroupExecutor groups,
                            Supplier<Optional<AlertDispatcher.Stats>> alertStats,
                            java.util.function.LongSupplier journal)
        implements MetricsEndpoint.Sources {

    @Override
    public long journalDropped() {
        return journal.getAsLong();
    }

    @Override
    public Optional<AlertDispatcher.Stats> alerts() {
        return alertStats.get();
    }

    @Override
    public CompletableFuture<ClusterLoop.Observation> observe() {
        return loop.observe();
    }

    @Override
    public List<JobState> jobs() {
        return sync.replication().status();
    }

    @Override
    public Optional<Duration> replicaAge(String job) {
        return sync.replication().replicaAge(job);
    }

    @Override
    public List<BackupState> backups() {
        return sync.backups().status();
    }

    @Override
    public long logDropped() {
        return log.droppedLines();
    }

    @Override
    public long syslogRecordsLost() {
        return log.syslogRecordsLost();
    }

    @Override
    public Map<String, List<GroupMonitor.ResourceWatch>> monitor() {
        return groups.monitorStatus();
    }
}
