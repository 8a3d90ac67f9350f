package org.jheartbeat.sync.cluster;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.TimeFormats;
import org.jheartbeat.resources.executor.ResourceGroupExecutor;
import org.jheartbeat.sync.backup.BackupService;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.jheartbeat.sync.replication.JobState;
import org.jheartbeat.sync.replication.ReplicationService;
import org.jheartbeat.sync.replication.RunOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's replication and backup services, tied to the cluster: jobs fire only for groups
 * running here, a group's data is synced to the peer after the group stopped and before the peer
 * gets it (failback without loss), and the replica's age is logged before a takeover starts a
 * group. Also renders the {@code Sync jobs:} and {@code Backups:} sections of {@code hb status}.
 */
public final class SyncRuntime implements ResourceGroupExecutor.Lifecycle, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("sync");
    private static final DateTimeFormatter TIME = TimeFormats.LOCAL_TIME;

    private final SyncConfig config;
    private final String localNode;
    private final Supplier<Optional<StatusSnapshot>> snapshots;
    private final ReplicationService replication;
    private final BackupService backups;
    private final MonotonicClock ticks;
    private final Clock clock;
    /** Keys of groups started here while the peer was not up (a takeover after a crash). */
    private final Set<String> startedWhilePeerDown = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Hand-over syncs in flight; also the lock for cancelling them. */
    private final List<Handover> handovers = new java.util.ArrayList<>();
    /** How often the peer left the cluster: a sync decided before a loss is not started after it. */
    private final java.util.concurrent.atomic.AtomicLong peerLosses = new java.util.concurrent.atomic.AtomicLong();

    /**
     * @param resolved  sync.yaml after {@code SyncConfigParser.resolve}
     * @param localNode this node's name
     * @param snapshots the cluster's current status (empty when not available within a few s)
     * @param clock     wall clock
     */
    public SyncRuntime(SyncConfig resolved, String localNode, Supplier<Optional<StatusSnapshot>> snapshots,
                       Clock clock) {
        this(resolved, localNode, snapshots, clock, MonotonicClock.system());
    }

    /**
     * @param resolved  sync.yaml after {@code SyncConfigParser.resolve}
     * @param localNode this node's name
     * @param snapshots the cluster's current status (empty when not available within a few s)
     * @param clock     wall clock
     * @param ticks     monotonic clock for the hand-over durations in the log
     */
    public SyncRuntime(SyncConfig resolved, String localNode, Supplier<Optional<StatusSnapshot>> snapshots,
                       Clock clock, MonotonicClock ticks) {
        this.ticks = java.util.Objects.requireNonNull(ticks, "ticks");
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
        this.config = resolved;
        this.localNode = localNode;
        this.snapshots = snapshots;
        this.replication = new ReplicationService(resolved, localNode, this::runningGroupKeys, clock);
        this.replication.peerUp(() -> snapshots.get().map(SyncRuntime::peerIsUp).orElse(false));
        this.backups = new BackupService(resolved, clock);
    }

    /** The wall clock the jobs' and backups' times are read on. */
    public Clock clock() {
        return clock;
    }

    /** Starts the job scheduler and the backup disk poll (when there is anything to do). */
    public void start() {
        if (!config.jobs().isEmpty()) {
            replication.start();
        }
        if (!config.backups().isEmpty()) {
            backups.start();
        }
    }

    /** Adapts a loop's asynchronous snapshot to the supplier this class needs (waits at most 5 s). */
    public static Supplier<Optional<StatusSnapshot>> fromFuture(
            Supplier<java.util.concurrent.CompletableFuture<StatusSnapshot>> source) {
        return () -> {
            try {
                return Optional.of(source.get().get(5, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } catch (Exception e) {
                return Optional.empty();
            }
        };
    }

    /** Group keys whose state here is {@code running}: the jobs that may fire on this node. */
    Set<String> runningGroupKeys() {
        return snapshots.get().map(SyncRuntime::runningHere).orElse(Set.of());
    }

    /** Group keys running on the node that produced {@code s}. */
    public static Set<String> runningHere(StatusSnapshot s) {
        return s.groups().stream().filter(g -> g.state() == GroupState.RUNNING)
                .map(StatusSnapshot.GroupView::key).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * Whether a group that just stopped here may be pushed to the peer one last time (pure): only
     * when the stop {@linkplain GroupOpReason#handsOver() hands the group over} (a standby release:
     * auto_failback, hb standby/takeover/failback; or a clean shutdown) and the peer is up. Any other
     * stop (a partition healed and both nodes ran the group) must not overwrite the peer's copy,
     * which may be the live one.
     *
     * @param reason why the group stopped
     * @param s      the status at the time of the stop (for the peer's liveness), or empty when it
     *               was not available
     * @return empty to sync; otherwise why not (logged)
     */
    public static Optional<String> finalSyncRefusal(GroupOpReason reason, Optional<StatusSnapshot> s) {
        if (!reason.handsOver()) {
            return Optional.of("the stop is not a hand-over (" + reason.name().toLowerCase(java.util.Locale.ROOT)
                    + "): the peer's copy may be the live one and is not overwritten; compare the copies by hand");
        }
        if (s.isEmpty()) {
            return Optional.of("cluster status not available");
        }
        if (!peerIsUp(s.get())) {
            return Optional.of("the peer is not up");
        }
        return Optional.empty();
    }

    /** Whether the peer's status in {@code s} is {@code up} or {@code active}. */
    static boolean peerIsUp(StatusSnapshot s) {
        return s.nodes().stream().anyMatch(n -> !n.local() && !n.ping() && n.member());
    }

    /**
     * Lines warning about final syncs (hand-over runs) that started at or after {@code since} and
     * did not succeed: appended to the answer of {@code hb standby}/{@code takeover}/{@code failback},
     * so a hand-over that left the peer on an old replica does not look like a clean success.
     *
     * @param since when the hand-over was requested
     * @return one line per failed job, empty when none
     */
    public List<String> failedHandoverSyncs(Instant since) {
        return replication.status().stream()
                .filter(j -> j.lastStart().map(t -> !t.isBefore(since)).orElse(false))
                .filter(j -> j.result() != org.jheartbeat.sync.replication.JobResult.RUNNING && !j.result().success())
                .map(j -> "WARNING: sync job " + j.job() + ": " + j.result() + ": " + j.message()
                        + " (the peer may run the group on an older replica; see hb sync status)")
                .toList();
    }

    private boolean hasJobs(ResourceGroupDecl group) {
        return config.jobs().stream().anyMatch(j -> j.group().equals(group.key()));
    }

    @Override
    public void beforeStart(ResourceGroupDecl group, GroupOpReason reason) {
        if (hasJobs(group)) {
            replication.logReplicaAge(group.key());
            replication.groupStarted(group.key());
            if (reason == GroupOpReason.TAKEOVER || reason == GroupOpReason.OFFER_ACCEPT) {
                startedWhilePeerDown.add(group.key());
            } else {
                startedWhilePeerDown.remove(group.key());
            }
        }
    }

    /**
     * When the group's data is at rest here (its services stopped, its file system still mounted, or
     * the whole group stopped when it has no file system resource): when this is a hand-over to a live peer (see
     * {@link #finalSyncRefusal}), push the group's data to it once more, so it starts on what this
     * node last had. When the peer is dead nothing can be sent and nobody takes the group over from
     * this copy. A sync in flight when the peer is lost is cancelled ({@link #peerLost}): its rsync
     * is killed and this returns, so the takeover can start the group here again.
     */
    @Override
    public void dataAtRest(ResourceGroupDecl group, GroupOpReason reason) {
        if (!hasJobs(group)) {
            return;
        }
        long losses = peerLosses.get();
        Optional<String> refusal = finalSyncRefusal(reason, reason.handsOver() ? snapshots.get() : Optional.empty());
        if (refusal.isEmpty() && peerLosses.get() != losses) {
            refusal = Optional.of("the peer left the cluster");
        }
        if (refusal.isPresent()) {
            LOG.warn("sync: group {} stopped here: no final sync: {}", group.key(), refusal.get());
            return;
        }
        long t0 = ticks.nanoTime();
        Handover h = new Handover(group.key(), Thread.currentThread());
        synchronized (handovers) {
            if (peerLosses.get() != losses) {
                LOG.warn("sync: group {} stopped here: no final sync: the peer left the cluster", group.key());
                return;
            }
            handovers.add(h);
        }
        List<RunOutcome> outcomes;
        try {
            outcomes = replication.syncBeforeHandover(group.key(), startedWhilePeerDown.remove(group.key()));
        } finally {
            synchronized (handovers) {
                handovers.remove(h);
                // an interrupt from peerLost that came after the sync ended must not reach the next operation
                Thread.interrupted();
            }
        }
        if (h.cancelled) {
            LOG.warn("sync: group {}: hand-over sync cancelled after {} ms ({}); the group stays here", group.key(),
                    (ticks.nanoTime() - t0) / 1_000_000, h.why);
            return;
        }
        for (RunOutcome o : outcomes) {
            if (!o.ok()) {
                LOG.error("sync job {}: final sync before hand-over failed ({}): {}; the peer starts group {} on"
                        + " the last replica", o.job(), o.result(), o.message(), group.key());
            }
        }
        LOG.info("sync: group {} handed over after {} final sync(s) in {} ms", group.key(), outcomes.size(),
                (ticks.nanoTime() - t0) / 1_000_000);
    }

    /**
     * Cancels every hand-over sync in flight: the syncing thread is interrupted, which kills its
     * rsync process tree ({@code RsyncProcess}) and ends the run as failed; logs one line per group.
     * Non-blocking (called on the loop thread).
     */
    @Override
    public void peerLost(org.jheartbeat.core.config.NodeName peer, String how) {
        synchronized (handovers) {
            peerLosses.incrementAndGet();
            for (Handover h : handovers) {
                if (!h.cancelled) {
                    h.cancelled = true;
                    h.why = "peer " + peer + " " + how;
                    LOG.warn("hand-over sync of group {} cancelled: peer {} {}", h.group, peer, how);
                    h.thread.interrupt();
                }
            }
        }
    }

    /** A hand-over sync in flight, on the group's worker thread. Guarded by {@link #handovers}. */
    private static final class Handover {
        final String group;
        final Thread thread;
        boolean cancelled;
        String why = "";

        Handover(String group, Thread thread) {
            this.group = group;
            this.thread = thread;
        }
    }

    /** Replication service (for {@code hb sync} requests answered by the daemon). */
    public ReplicationService replication() {
        return replication;
    }

    /** Backup service. */
    public BackupService backups() {
        return backups;
    }

    /**
     * The text sections appended to {@code hb status}: empty when sync.yaml has no jobs and no
     * backups.
     */
    public String renderStatus() {
        return render(config, replication.status(), backups.status(), replication::replicaAge);
    }

    /**
     * Writes the fields {@code "sync_jobs":[...],"backups":[...]} of {@code hb status --json} into the
     * object {@code g} is writing.
     *
     * @throws IOException only from the generator
     */
    public void writeStatusJson(JsonGenerator g) throws IOException {
        writeJson(g, config, replication.status(), backups.status(), replication::replicaAge);
    }

    /** Renders job and backup states as the status sections (pure, for tests and the CLI). */
    public static String render(SyncConfig cfg, List<JobState> jobs, List<BackupState> backupStates,
                                java.util.function.Function<String, Optional<Duration>> replicaAge) {
        StringBuilder sb = new StringBuilder();
        if (!cfg.jobs().isEmpty()) {
            sb.append("Sync jobs:\n");
            for (JobState j : jobs) {
                String group = cfg.job(j.job()).map(ReplicationJobSpec::group).orElse("?");
                sb.append(String.format("  %-12s group %-16s %-16s %s%n", j.job(), group, j.result(), describe(j,
                        replicaAge.apply(j.job()))));
            }
        }
        if (!cfg.backups().isEmpty()) {
            sb.append("Backups:\n");
            for (BackupState b : backupStates) {
                sb.append(String.format("  %-12s disk %-10s last %-8s %s%n", b.name(), b.disk(), b.lastResult(),
                        b.message()));
            }
        }
        return sb.toString();
    }

    private static String describe(JobState j, Optional<Duration> age) {
        StringBuilder sb = new StringBuilder();
        if (j.result() == org.jheartbeat.sync.replication.JobResult.RUNNING) {
            return sb.append("since ").append(j.lastStart().map(TIME::format).orElse("?")).toString();
        }
        j.lastEnd().ifPresent(t -> sb.append("at ").append(TIME.format(t)).append(": "));
        sb.append(j.message().isEmpty() ? "-" : j.message());
        age.ifPresent(a -> sb.append(" (replica here ").append(a.toSeconds()).append(" s old)"));
        return sb.toString();
    }

    /**
     * Writes the fields {@code "sync_jobs":[...],"backups":[...]} of {@code hb status --json} into the
     * object {@code g} is writing (pure but for {@code g}).
     *
     * @throws IOException only from the generator
     */
    public static void writeJson(JsonGenerator g, SyncConfig cfg, List<JobState> jobs, List<BackupState> backupStates,
                                 java.util.function.Function<String, Optional<Duration>> replicaAge) throws IOException {
        g.writeArrayFieldStart("sync_jobs");
        for (JobState j : jobs) {
            g.writeStartObject();
            g.writeStringField("name", j.job());
            g.writeStringField("group", cfg.job(j.job()).map(ReplicationJobSpec::group).orElse(null));
            g.writeStringField("result", j.result().name());
            g.writeStringField("last_start", j.lastStart().map(Instant::toString).orElse(null));
            g.writeStringField("last_end", j.lastEnd().map(Instant::toString).orElse(null));
            g.writeStringField("last_success", j.lastSuccess().map(Instant::toString).orElse(null));
            g.writeNumberField("bytes", j.bytesTransferred());
            g.writeNumberField("files_transferred", j.filesTransferred());
            g.writeNumberField("files_total", j.filesTotal());
            Optional<Duration> age = replicaAge.apply(j.job());
            if (age.isPresent()) {
                g.writeNumberField("replica_age_s", age.get().toSeconds());
            } else {
                g.writeNullField("replica_age_s");
            }
            g.writeStringField("message", j.message());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("backups");
        for (BackupState b : backupStates) {
            g.writeStartObject();
            g.writeStringField("name", b.name());
            g.writeStringField("disk", b.disk().name());
            g.writeStringField("result", b.lastResult().name());
            g.writeStringField("last_end", b.lastEnd().map(Instant::toString).orElse(null));
            g.writeNumberField("snapshots", b.snapshots());
            g.writeStringField("newest_snapshot", b.newestSnapshot().orElse(null));
            g.writeStringField("message", b.message());
            g.writeStringField("last_skip", b.lastSkip().orElse(null));
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    @Override
    public void close() {
        replication.close();
        backups.close();
    }

    @Override
    public String toString() {
        return "SyncRuntime[" + localNode + ", " + config.jobs().size() + " jobs, " + config.backups().size()
                + " backups]";
    }
}
