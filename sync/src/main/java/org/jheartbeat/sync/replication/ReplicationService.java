package org.jheartbeat.sync.replication;

import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.sync.config.CronSchedule;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the replication jobs of a resolved {@link SyncConfig} on this node (docs/design/sync.md):
 *
 * <ul>
 * <li>one scheduler thread ({@link #start()}) computes each job's next fire time from its cron
 *     schedule and the injected clock; at a fire time the job runs only when its group key is in
 *     {@code runningGroupKeys.get()}, so data always flows from the node that runs the group;
 *     fires missed while a run was in flight or the group ran elsewhere are dropped, not queued;</li>
 * <li>runs go to a pool of two worker threads;</li>
 * <li>never two runs of one job at once: a per-job lock in this process, plus the runner's file
 *     lock across processes ({@code hb sync run});</li>
 * <li>{@link #syncBeforeHandover} for failback, {@link #logReplicaAge} for takeover, {@link #status},
 *     {@link #runNow} for {@code hb sync run}.</li>
 * </ul>
 */
public final class ReplicationService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("sync");
    /** Longest the scheduler thread sleeps between checks of the clock, in real time. */
    private static final long POLL_MS = 1_000;
    /** Pause between handover attempts while another process holds the job's lock. */
    private static final Duration HANDOVER_POLL = Duration.ofSeconds(1);

    private final SyncConfig cfg;
    private final String localNode;
    private final Supplier<Set<String>> runningGroupKeys;
    private final Clock clock;
    private final ReplicationRunner runner;
    private final MonotonicClock ticks;
    private final Sleeper sleeper;
    private final String peerNode;
    private final Map<String, CronSchedule> schedules = new LinkedHashMap<>();
    private final Map<String, Instant> nextFire = new HashMap<>();
    private final Map<String, ReentrantLock> jobLocks = new HashMap<>();
    private final ExecutorService workers;
    private final ReplicaAges ages;
    private final Object wake = new Object();
    private volatile boolean closed;
    /** Jobs whose next scheduled run is the first since this node started their group. */
    private final Set<String> firstRunPending = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Whether the peer is up (peer-target jobs do not fire while it is not). */
    private volatile java.util.function.BooleanSupplier peerUp = () -> true;
    /** Peer-target jobs skipped because the peer is down (logged once per outage). */
    private final Set<String> skippedPeerDown = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private Thread scheduler;

    /**
     * A service with the real runner ({@code rsync} from PATH, real sleeping between retries).
     *
     * @param resolvedCfg      config after {@code SyncConfigParser.resolve}: job groups are keys
     * @param localNode        this node's name (ha.cf)
     * @param runningGroupKeys the group keys running on this node now; asked at every fire time
     * @param clock            wall clock for schedules, state and stamps
     */
    public ReplicationService(SyncConfig resolvedCfg, String localNode, Supplier<Set<String>> runningGroupKeys,
                              Clock clock) {
        this(resolvedCfg, localNode, runningGroupKeys, clock, new ReplicationRunner(resolvedCfg, localNode, clock));
    }

    /**
     * @param resolvedCfg      resolved config
     * @param localNode        this node's name
     * @param runningGroupKeys group keys running here now
     * @param clock            wall clock
     * @param runner           the runner to use (tests: one with a recording sleeper)
     * @throws IllegalArgumentException if a schedule does not parse (cannot happen for parsed configs)
     */
    public ReplicationService(SyncConfig resolvedCfg, String localNode, Supplier<Set<String>> runningGroupKeys,
                              Clock clock, ReplicationRunner runner) {
        this(resolvedCfg, localNode, runningGroupKeys, clock, runner, MonotonicClock.system(), Sleeper.system());
    }

    /**
     * @param resolvedCfg      resolved config
     * @param localNode        this node's name
     * @param runningGroupKeys group keys running here now
     * @param clock            wall clock
     * @param runner           the runner to use (tests: one with a recording sleeper)
     * @param ticks            monotonic clock for the handover wait's deadline (the job's timeout)
     * @param sleeper          the 1 s pause between handover attempts while another process runs the job
     * @throws IllegalArgumentException if a schedule does not parse (cannot happen for parsed configs)
     */
    public ReplicationService(SyncConfig resolvedCfg, String localNode, Supplier<Set<String>> runningGroupKeys,
                              Clock clock, ReplicationRunner runner, MonotonicClock ticks, Sleeper sleeper) {
        this.ticks = Objects.requireNonNull(ticks, "ticks");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.cfg = Objects.requireNonNull(resolvedCfg, "resolvedCfg");
        this.localNode = Objects.requireNonNull(localNode, "localNode");
        this.runningGroupKeys = Objects.requireNonNull(runningGroupKeys, "runningGroupKeys");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ages = new ReplicaAges(resolvedCfg.stateDir(), clock);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.peerNode = cfg.nodes().keySet().stream().filter(n -> !n.equalsIgnoreCase(localNode)).sorted()
                .findFirst().orElse(null);
        ZonedDateTime now = ZonedDateTime.now(clock);
        for (ReplicationJobSpec j : cfg.jobs()) {
            CronSchedule s = CronSchedule.parse(j.schedule());
            schedules.put(j.name(), s);
            s.nextAfter(now).ifPresent(t -> nextFire.put(j.name(), t.toInstant()));
            jobLocks.put(j.name(), new ReentrantLock(true));
        }
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "sync-worker-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Tells the service whether the peer is up: scheduled peer-target runs are skipped (logged once
     * per outage) while it is not, instead of failing every time against a dead node.
     *
     * @param up asked at every fire time
     */
    public void peerUp(java.util.function.BooleanSupplier up) {
        this.peerUp = Objects.requireNonNull(up, "up");
    }

    /**
     * Called when this node starts a group: the next scheduled run of each of its jobs moves aside
     * what it replaces or deletes on the receiver ({@link RunTrigger#FIRST_AFTER_START}), because
     * the receiver may hold newer data (a crash, or a hand-over whose final sync failed).
     *
     * @param groupKey the group key
     */
    public void groupStarted(String groupKey) {
        jobsOf(groupKey).forEach(j -> firstRunPending.add(j.name()));
    }

    /** Starts the scheduler thread. Call once. */
    public synchronized void start() {
        if (scheduler != null) {
            throw new IllegalStateException("already started");
        }
        scheduler = new Thread(this::schedulerLoop, "sync-scheduler");
        scheduler.setDaemon(true);
        scheduler.start();
        LOG.info("sync: {} replication job(s) scheduled on {}", cfg.jobs().size(), localNode);
    }

    private void schedulerLoop() {
        while (!closed) {
            tick();
            long waitMs = nextFireTime().map(t -> Duration.between(clock.instant(), t).toMillis()).orElse(POLL_MS);
            synchronized (wake) {
                if (closed) {
                    return;
                }
                try {
                    wake.wait(Math.max(10, Math.min(POLL_MS, waitMs)));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** @return the earliest next fire time of any job */
    public synchronized Optional<Instant> nextFireTime() {
        return nextFire.values().stream().min(Instant::compareTo);
    }

    /**
     * @param job a job name
     * @return its next fire time, empty if it never fires again or is unknown
     */
    public synchronized Optional<Instant> nextFireTime(String job) {
        return Optional.ofNullable(nextFire.get(job));
    }

    /**
     * One scheduling pass (what the scheduler thread does every time it wakes): every job whose
     * fire time has come gets its next fire time computed from now, and is submitted to the workers
     * when its group runs here and no run of it is in flight.
     *
     * @return the jobs submitted
     */
    public List<String> tick() {
        Instant now = clock.instant();
        List<ReplicationJobSpec> due = new ArrayList<>();
        synchronized (this) {
            for (ReplicationJobSpec j : cfg.jobs()) {
                Instant t = nextFire.get(j.name());
                if (t != null && !t.isAfter(now)) {
                    due.add(j);
                    Optional<ZonedDateTime> next = schedules.get(j.name()).nextAfter(ZonedDateTime.ofInstant(now, clock.getZone()));
                    if (next.isPresent()) {
                        nextFire.put(j.name(), next.get().toInstant());
                    } else {
                        nextFire.remove(j.name());
                    }
                }
            }
        }
        List<String> submitted = new ArrayList<>();
        if (due.isEmpty() || closed) {
            return submitted;
        }
        Set<String> running = runningGroupKeys.get();
        for (ReplicationJobSpec j : due) {
            if (!running.contains(j.group())) {
                LOG.debug("sync job {}: group {} does not run on {}; not replicating", j.name(), j.group(), localNode);
                continue;
            }
            boolean nfsOnPeer = peerNode != null
                    && j.nfs().map(t -> t.servedBy(peerNode, cfg.nodes().get(peerNode))).orElse(false);
            if ((j.toPeer() || nfsOnPeer) && !peerUp.getAsBoolean()) {
                recordPeerSkip(j, nfsOnPeer, skippedPeerDown.add(j.name()), now);
                continue;
            }
            if (skippedPeerDown.remove(j.name())) {
                LOG.info("sync job {}: peer {} is up again; replicating", j.name(), peerNode);
            }
            if (jobLocks.get(j.name()).isLocked()) {
                LOG.info("sync job {}: previous run still in progress; skipping this schedule", j.name());
                continue;
            }
            workers.submit(() -> scheduledRun(j));
            submitted.add(j.name());
        }
        return submitted;
    }

    /** A run skipped as the peer is dead: logged once an outage; an NFS job's status once no run is in flight. */
    private void recordPeerSkip(ReplicationJobSpec j, boolean nfsOnPeer, boolean first, Instant now) {
        String why = nfsOnPeer ? "skipped: NFS server " + j.nfs().orElseThrow().server() + " is peer " + peerNode
                + ", which is dead; not replicating to it until it is back"
                : "peer " + peerNode + " is not up; not replicating until it is back";
        if (first) {
            LOG.warn("sync job {}: {}", j.name(), why);
        }
        JobState s = nfsOnPeer && !inProgress(j.name()) && !runner.isRunning(j.name()) ? runner.store().read(j.name())
                : null;
        if (s != null && s.result() != JobResult.SKIPPED) {
            runner.store().write(s.skipped(now, why)); // a run in flight at the death writes its own end first
        }
    }

    /**
     * Whether a run of {@code job} is in progress in this process (its worker still holds the job's
     * lock, also for the moment after its state was written): a schedule that falls due meanwhile is
     * skipped.
     */
    public boolean inProgress(String job) {
        ReentrantLock lock = jobLocks.get(job);
        return lock != null && lock.isLocked();
    }

    private void scheduledRun(ReplicationJobSpec j) {
        ReentrantLock lock = jobLocks.get(j.name());
        if (!lock.tryLock()) {
            return;
        }
        try {
            if (closed || !runningGroupKeys.get().contains(j.group())) {
                return;
            }
            boolean first = firstRunPending.contains(j.name());
            RunOutcome o = runner.run(j, peerNode, first ? RunTrigger.FIRST_AFTER_START : RunTrigger.SCHEDULE, null);
            if (first && o.ok()) {
                firstRunPending.remove(j.name());
            }
        } catch (RuntimeException e) {
            LOG.error("sync job {}: run failed: {}", j.name(), e.toString());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Failback without loss: called after the group was stopped here and before the node taking
     * it back starts it. Runs every job of the group now, in file order, regardless of ownership
     * (the group just stopped here); guards still apply. A run in flight is waited for first
     * (a scheduled one in this process, or {@code hb sync run} in another, up to the job's timeout).
     * Interrupting the calling thread cancels: the rsync in flight is killed (its run ends
     * {@link JobResult#FAILED_TRANSIENT}, "interrupted"), the remaining jobs are skipped, and the
     * interrupt status stays set.
     *
     * @param groupKey the group key
     * @return one outcome per job of the group (empty when it has none)
     */
    public List<RunOutcome> syncBeforeHandover(String groupKey) {
        return syncBeforeHandover(groupKey, false);
    }

    /**
     * As {@link #syncBeforeHandover(String)}; {@code afterCrash} when this node took the group over
     * from a crashed peer: then the runs keep what they replace or delete on the receiver
     * ({@link RunTrigger#HANDOVER_AFTER_CRASH}).
     *
     * @param groupKey   the group key
     * @param afterCrash this node started the group because the peer had died
     * @return one outcome per job of the group
     */
    public List<RunOutcome> syncBeforeHandover(String groupKey, boolean afterCrash) {
        RunTrigger trigger = afterCrash ? RunTrigger.HANDOVER_AFTER_CRASH : RunTrigger.HANDOVER;
        List<RunOutcome> out = new ArrayList<>();
        for (ReplicationJobSpec j : jobsOf(groupKey)) {
            ReentrantLock lock = jobLocks.get(j.name());
            try {
                lock.lockInterruptibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return out;
            }
            try {
                LOG.info("sync job {}: syncing group {} to {} before handing it over", j.name(), groupKey,
                        j.toPeer() ? peerNode : j.targetPath().orElseThrow());
                out.add(handoverRun(j, trigger));
            } finally {
                lock.unlock();
            }
            if (Thread.currentThread().isInterrupted()) {
                return out;
            }
        }
        return out;
    }

    /**
     * One handover run; while another process ({@code hb sync run}) holds the job's file lock,
     * polls once a second, for at most the job's timeout, then runs.
     */
    private RunOutcome handoverRun(ReplicationJobSpec j, RunTrigger trigger) {
        long deadline = ticks.nanoTime() + j.timeout().toNanos();
        while (true) {
            RunOutcome o = runner.run(j, peerNode, trigger, null);
            if (o.result() != JobResult.RUNNING || ticks.nanoTime() - deadline > 0) {
                return o;
            }
            try {
                sleeper.pause(HANDOVER_POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return o;
            }
        }
    }

    /**
     * Logs, for each job of a group, how old the local replica is: called before this node starts
     * the group on takeover, which uses the replica as it is ({@link ReplicaAges#log}).
     *
     * @param groupKey the group key
     */
    public void logReplicaAge(String groupKey) {
        ages.log(jobsOf(groupKey));
    }

    /**
     * @param job a job name
     * @return now minus the start of the run that produced the local replica; empty when there is
     *         no readable stamp or no such job
     */
    public Optional<Duration> replicaAge(String job) {
        return cfg.job(job).flatMap(ages::age);
    }

    /**
     * The state of every job, in file order, read from the state files. A state left at RUNNING
     * by a process that ended during the run (nobody holds the job's lock) is reported as
     * {@link JobResult#FAILED_TRANSIENT} with the message {@code run interrupted (the process
     * ended during the run)}; the file itself is left alone.
     *
     * @return one state per job
     */
    public List<JobState> status() {
        List<JobState> out = new ArrayList<>();
        for (ReplicationJobSpec j : cfg.jobs()) {
            JobState s = runner.store().read(j.name());
            if (s.result() == JobResult.RUNNING && !runner.isRunning(j.name())) {
                s = new JobState(s.job(), s.lastStart(), s.lastEnd(), JobResult.FAILED_TRANSIENT,
                        "run interrupted (the process ended during the run)", s.bytesTransferred(),
                        s.filesTransferred(), s.filesTotal(), s.attempts(), s.lastSuccess(), s.successCounts());
            }
            out.add(s);
        }
        return out;
    }

    /**
     * {@code hb sync run JOB}: runs a job now on the caller's thread, refusing when its group does
     * not run on this node.
     *
     * @param job      job name
     * @param progress receives progress lines, or {@code null}
     * @return the outcome (REFUSED, not recorded, when the group runs elsewhere)
     * @throws IllegalArgumentException if there is no such job
     */
    public RunOutcome runNow(String job, OutputStream progress) {
        return runNow(job, progress, false);
    }

    /**
     * As {@link #runNow(String, OutputStream)}; with {@code force} the ownership check is skipped
     * (pushes this node's copy even though the group runs elsewhere: the operator's decision).
     *
     * @param job      job name
     * @param progress receives progress lines, or {@code null}
     * @param force    skip the ownership check
     * @return the outcome; RUNNING when a run is in flight
     * @throws IllegalArgumentException if there is no such job
     */
    public RunOutcome runNow(String job, OutputStream progress, boolean force) {
        return runNow(job, progress, force, false);
    }

    /**
     * As {@link #runNow(String, OutputStream, boolean)}; with {@code acceptLoss} the empty and
     * max_loss guards are skipped ({@code hb sync run JOB --accept-loss}).
     *
     * @param acceptLoss the operator confirms the source's shrinkage is intended
     * @return the outcome
     */
    public RunOutcome runNow(String job, OutputStream progress, boolean force, boolean acceptLoss) {
        ReplicationJobSpec j = cfg.job(job).orElseThrow(() -> new IllegalArgumentException("no job named " + job
                + " in sync.yaml; jobs: " + String.join(", ", cfg.jobs().stream().map(ReplicationJobSpec::name).toList())));
        Instant now = clock.instant();
        if (!force && !runningGroupKeys.get().contains(j.group())) {
            String msg = "group " + j.group() + " does not run on " + localNode
                    + "; run it on the node that runs the group";
            LOG.warn("sync job {}: manual run refused: {}", job, msg);
            return new RunOutcome(job, RunTrigger.MANUAL, JobResult.REFUSED, msg, now, now, 0, 0, 0, 0);
        }
        ReentrantLock lock = jobLocks.get(job);
        if (!lock.tryLock()) {
            String msg = "job " + job + " is already running (pid " + ProcessHandle.current().pid() + ")";
            return new RunOutcome(job, RunTrigger.MANUAL, JobResult.RUNNING, msg, now, now, 0, 0, 0, 0);
        }
        try {
            return runner.run(j, peerNode, acceptLoss ? RunTrigger.MANUAL_ACCEPT_LOSS : RunTrigger.MANUAL, progress);
        } finally {
            lock.unlock();
        }
    }

    private List<ReplicationJobSpec> jobsOf(String groupKey) {
        return cfg.jobs().stream().filter(j -> j.group().equals(groupKey)).toList();
    }

    /** Stops the scheduler and waits up to 10 s for runs in flight (they are not killed). */
    @Override
    public void close() {
        closed = true;
        synchronized (wake) {
            wake.notifyAll();
        }
        Thread t;
        synchronized (this) {
            t = scheduler;
        }
        workers.shutdown();
        try {
            if (t != null) {
                t.join(5_000);
            }
            if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("sync: replication runs still in progress at shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** For diagnostics: the peer this node replicates to, if any. */
    public Optional<String> peerNode() {
        return Optional.ofNullable(peerNode).map(s -> s.toLowerCase(Locale.ROOT));
    }

}
