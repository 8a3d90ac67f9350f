package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.RsyncStats;
import org.jheartbeat.sync.MountTable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Objects;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one replication job once, synchronously, on the calling thread:
 *
 * <ol>
 * <li>takes the job's exclusive lock {@code <stateDir>/<job>.lock} ({@link FileChannel#tryLock}, so
 *     it also excludes an {@code hb sync run} in another process); when it is held the call returns
 *     at once with result {@link JobResult#RUNNING} and {@code job web is already running (pid N)};</li>
 * <li>records RUNNING in the state file;</li>
 * <li>runs the job's {@code pre:} hook, if any ({@code /bin/sh -c}); when it fails nothing is
 *     copied and the run ends FAILED_FATAL with the hook's last line of output. It runs before the
 *     guards so that it can prepare the source (mount the data partition that the group's stop
 *     unmounted before a hand-over run, write a database dump), and the guards judge what the copy
 *     would really read;</li>
 * <li>measures every source ({@link PathFacts#probe}: a mount point check and a {@code find} count
 *     bounded by {@link PathFacts#countLimit}) and asks {@link ReplicationGuard};</li>
 * <li>runs one rsync per source path ({@link RsyncCommand}); a {@link RsyncExit#TRANSIENT} failure
 *     is retried up to {@code retries} times, {@code retry_delay} apart; a fatal one stops the job;</li>
 * <li>on success writes the replica stamp (peer: copied to the peer's
 *     {@code <stateDir>/replica/<job>.stamp} by a second small rsync that shares the copy's ssh
 *     connection, {@link PeerLink}; path target: next to the target and in the local state dir);</li>
 * <li>runs the {@code post:} hook, if any, whatever happened once the lock was taken (also after
 *     a failed {@code pre:} or a guard's refusal; its failure is logged and added to the message,
 *     the result stands);</li>
 * <li>records the outcome (start, end, result, bytes, files) and logs one line on logger {@code sync}.</li>
 * </ol>
 */
public final class ReplicationRunner {
    private static final Logger LOG = LoggerFactory.getLogger("sync");
    private static final Duration STAMP_TIMEOUT = Duration.ofSeconds(60);
    /** Lock files held by runs in this JVM. */
    private static final java.util.Set<Path> HELD = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final SyncConfig cfg;
    private final String localNode;
    private final Clock clock;
    private final Sleeper sleeper;
    private final String rsync;
    private final JobStateStore store;
    private final NfsTargetRun nfs;

    /**
     * @param cfg       the (resolved) config: state dir, ssh, node addresses
     * @param localNode this node's name (written into replica stamps)
     * @param clock     time source for state and stamps
     * @param sleeper   waits between retries ({@link Sleeper#system()} in production; tests record)
     * @param rsync     the rsync program, {@code "rsync"} to use PATH
     */
    public ReplicationRunner(SyncConfig cfg, String localNode, Clock clock, Sleeper sleeper, String rsync) {
        this(cfg, localNode, clock, sleeper, rsync, NfsOps.system(), MountTable::read);
    }

    /**
     * A runner whose NFS operations and mount table are given (a lab test runs them in a node's network
     * namespace).
     */
    ReplicationRunner(SyncConfig cfg, String localNode, Clock clock, Sleeper sleeper, String rsync, NfsOps nfsOps,
                      NfsTargetRun.Mounts mounts) {
        this.nfs = new NfsTargetRun(nfsOps, mounts);
        this.cfg = Objects.requireNonNull(cfg, "cfg");
        this.localNode = Objects.requireNonNull(localNode, "localNode");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.rsync = Objects.requireNonNull(rsync, "rsync");
        this.store = new JobStateStore(cfg.stateDir());
    }

    /** A runner using {@code rsync} from PATH and real sleeping. */
    public ReplicationRunner(SyncConfig cfg, String localNode, Clock clock) {
        this(cfg, localNode, clock, Sleeper.system(), "rsync");
    }

    /** @return the store this runner records into */
    public JobStateStore store() {
        return store;
    }

    /**
     * Runs the job once.
     *
     * @param job            the job
     * @param peerNode       the node that receives the data for a peer job (its address comes from
     *                       {@code nodes:}); ignored (may be null) for a path target
     * @param trigger        why it runs (logged)
     * @param progressOrNull receives rsync's {@code --info=progress2} output and a header line per
     *                       path, or {@code null} for no progress
     * @return the outcome; never throws for rsync failures, guard refusals or a busy lock
     * @throws UncheckedIOException if the state directory cannot be written
     */
    public RunOutcome run(ReplicationJobSpec job, String peerNode, RunTrigger trigger, OutputStream progressOrNull) {
        Instant start = clock.instant();
        try {
            Files.createDirectories(cfg.stateDir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + cfg.stateDir(), e);
        }
        Path lockFile = cfg.stateDir().resolve(job.name() + ".lock").toAbsolutePath().normalize();
        // One channel per lock file in this JVM: closing any descriptor of a file drops every
        // POSIX (fcntl) lock this process holds on it, so a second in-process attempt must not
        // even open the file (FileChannel javadoc, "unique channel").
        if (!HELD.add(lockFile)) {
            return busy(job, trigger, start, Long.toString(ProcessHandle.current().pid()));
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null; // another object of this JVM locked the file by hand
            }
            if (lock == null) {
                return busy(job, trigger, start, SyncText.readPid(ch));
            }
            try {
                ch.truncate(0);
                ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
                return runLocked(job, peerNode, trigger, progressOrNull, start);
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + lockFile, e);
        } finally {
            HELD.remove(lockFile);
        }
    }

    /**
     * Whether a run of the job holds its lock now, in this JVM or in another process. Safe to call
     * in the daemon: the lock file is only opened when no run of this JVM holds it.
     *
     * @param job job name
     * @return {@code true} when a run is in progress
     * @throws UncheckedIOException if the lock file exists but cannot be opened
     */
    public boolean isRunning(String job) {
        Path lockFile = cfg.stateDir().resolve(job + ".lock").toAbsolutePath().normalize();
        if (HELD.contains(lockFile) || !Files.exists(lockFile)) {
            return HELD.contains(lockFile);
        }
        if (!HELD.add(lockFile)) {
            return true;
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l != null) {
                l.release();
            }
            return l == null;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + lockFile, e);
        } finally {
            HELD.remove(lockFile);
        }
    }

    private RunOutcome busy(ReplicationJobSpec job, RunTrigger trigger, Instant start, String holder) {
        String msg = "job " + job.name() + " is already running (pid " + holder + ")";
        LOG.info("sync job {}: {} run skipped: {}", job.name(), trigger.name().toLowerCase(Locale.ROOT), msg);
        return new RunOutcome(job.name(), trigger, JobResult.RUNNING, msg, start, clock.instant(), 0, 0, 0, 0);
    }

    private RunOutcome runLocked(ReplicationJobSpec job, String peerNode, RunTrigger trigger, OutputStream progress,
                                 Instant start) {
        JobState before = store.read(job.name());
        store.write(before.running(start));
        String name = job.name();
        String dest = job.toPeer() ? String.valueOf(peerNode) : job.targetPath().orElseThrow().toString();

        PostHook post = job.post().map(cmd -> new PostHook(job, trigger, cmd, progress)).orElse(null);
        if (job.pre().isPresent()) {
            HookResult h = runHook(job, trigger, "pre", job.pre().get(), Map.of(), progress);
            if (!h.ok()) {
                return finish(post, job, trigger, before, start, h.interrupted() ? JobResult.FAILED_TRANSIENT
                        : JobResult.FAILED_FATAL, "pre hook failed, nothing copied: " + h.why(), RsyncStats.ZERO,
                        0, 0, Map.of());
            }
        }

        List<PathFacts> facts = new ArrayList<>();
        List<MountTable.Entry> mounts;
        try {
            mounts = MountTable.read();
            for (Path p : job.paths()) {
                facts.add(PathFacts.probe(p, mounts, PathFacts.countLimit(job.timeout())));
            }
        } catch (InterruptedIOException e) {
            return finish(post, job, trigger, before, start, JobResult.FAILED_TRANSIENT, "interrupted", RsyncStats.ZERO,
                    0, 0, Map.of());
        } catch (IOException e) {
            return finish(post, job, trigger, before, start, JobResult.FAILED_FATAL,
                    "cannot inspect the sources: " + e.getMessage(), RsyncStats.ZERO, 0, 0, Map.of());
        }
        long total = facts.stream().mapToLong(PathFacts::fileCount).sum();
        ReplicationGuard.Decision d = ReplicationGuard.check(job, facts, before.successCounts(),
                trigger == RunTrigger.MANUAL_ACCEPT_LOSS);
        if (!d.allowed()) {
            return finish(post, job, trigger, before, start, JobResult.REFUSED, d.reason(), RsyncStats.ZERO, total, 0,
                    Map.of());
        }
        String peerAddress = null;
        if (job.toPeer()) {
            peerAddress = peerNode == null ? null : cfg.nodes().get(peerNode);
            if (peerAddress == null) {
                return finish(post, job, trigger, before, start, JobResult.FAILED_FATAL, "no address for peer node "
                        + peerNode + " under nodes: in sync.yaml", RsyncStats.ZERO, total, 0, Map.of());
            }
        }
        RsyncStats stats = RsyncStats.ZERO;
        int attempts = 0;
        boolean vanished = false;
        Optional<Path> displaced = trigger.keepsDisplaced()
                ? Optional.of(displacedDir(cfg.stateDir(), job.name(), start)) : Optional.empty();
        if (job.nfs().isPresent()) {
            Optional<NfsTargetRun.Problem> p;
            try {
                p = nfs.prepare(name, job.nfs().get(),
                        job.paths().stream().map(src -> RsyncCommand.localDestination(job, src)).toList());
            } catch (InterruptedIOException e) {
                p = Optional.of(new NfsTargetRun.Problem(true, "interrupted"));
            }
            if (p.isPresent()) {
                return finish(post, job, trigger, before, start, p.get().result(), p.get().why() + "; nothing copied",
                        stats, total, attempts, Map.of());
            }
        }
        // the peer stamp's rsync connects first and holds the run's ssh connection; cancelled unless sent
        PeerLink stamp = job.toPeer() ? PeerLink.start(rsync, cfg.ssh(), cfg.stateDir(), name, outgoing(job), peerAddress,
                ReplicaStamp.localFile(cfg.stateDir(), name).getParent(), StampSender.limit(job, STAMP_TIMEOUT)) : null;
        try {
            List<String> ssh;
            try {
                ssh = stamp == null ? cfg.ssh() : stamp.copySsh();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return finish(post, job, trigger, before, start, JobResult.FAILED_TRANSIENT, "interrupted", stats, total,
                        attempts, Map.of());
            }
            for (Path src : job.paths()) {
                if (!job.toPeer() && job.nfs().isEmpty()) {
                    try {
                        Files.createDirectories(RsyncCommand.localDestination(job, src));
                    } catch (IOException e) {
                        return finish(post, job, trigger, before, start, JobResult.FAILED_FATAL, "cannot create "
                                + RsyncCommand.localDestination(job, src) + ": " + e.getMessage(), stats, total, attempts,
                                Map.of());
                    }
                }
                List<String> argv = RsyncCommand.build(rsync, job, src, peerAddress, ssh, progress != null,
                        displaced.map(dir -> dir.resolve(src.toString().substring(1))));
                for (int attempt = 1; ; attempt++) {
                    attempts++;
                    SyncText.header(progress, "sync job " + name + ": " + src + "/ -> " + RsyncCommand.destination(job, src, peerAddress)
                            + (attempt > 1 ? " (attempt " + attempt + ")" : ""));
                    LOG.debug("sync job {}: running {}", name, String.join(" ", argv));
                    ProcessResult r;
                    NfsTargetRun.Watch watch = job.nfs().map(t -> nfs.watch(t, Thread.currentThread())).orElse(null);
                    try {
                        r = RsyncProcess.run(argv, job.timeout(), progress);
                    } catch (InterruptedIOException e) {
                        Optional<String> lost = Optional.empty();
                        if (watch != null) {
                            watch.close();
                            lost = watch.failure();
                        }
                        return finish(post, job, trigger, before, start, JobResult.FAILED_TRANSIENT,
                                lost.map(w -> w + "; copy of " + src + " stopped").orElse("interrupted"), stats,
                                total, attempts, Map.of());
                    } catch (IOException e) {
                        return finish(post, job, trigger, before, start, JobResult.FAILED_FATAL, "cannot start " + rsync + ": "
                                + e.getMessage(), stats, total, attempts, Map.of());
                    } finally {
                        if (watch != null) {
                            watch.close();
                        }
                    }
                    RsyncExit cls = RsyncExit.classify(r.exitCode(), r.timedOut());
                    if (cls == RsyncExit.OK || cls == RsyncExit.PARTIAL) {
                        stats = stats.plus(RsyncStats.parse(r.stdout()));
                        vanished |= cls == RsyncExit.PARTIAL;
                        break;
                    }
                    String why = (r.timedOut() ? "timed out after " + SyncText.human(job.timeout())
                            : "rsync exit " + r.exitCode() + " (" + RsyncExit.describe(r.exitCode()) + ")")
                            + " for " + src + SyncText.lastLine(r.stderr());
                    if (cls == RsyncExit.TRANSIENT && attempt <= job.retries()) {
                        LOG.warn("sync job {}: {}; retry {}/{} in {}", name, why, attempt, job.retries(),
                                SyncText.human(job.retryDelay()));
                        try {
                            sleeper.pause(job.retryDelay());
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return finish(post, job, trigger, before, start, JobResult.FAILED_TRANSIENT, why + "; interrupted",
                                    stats, total, attempts, Map.of());
                        }
                        continue;
                    }
                    JobResult res = cls == RsyncExit.TRANSIENT ? JobResult.FAILED_TRANSIENT : JobResult.FAILED_FATAL;
                    return finish(post, job, trigger, before, start, res, why, stats, total, attempts, Map.of());
                }
            }
            Map<String, Long> counts = new HashMap<>();
            facts.forEach(f -> counts.put(f.path().toString(), f.fileCount()));
            String stampNote = writeStamp(job, stamp, start);
            String msg = total + " files, " + stats.filesTransferred() + " transferred (" + SyncText.bytes(stats.bytesTransferred())
                    + ")" + (stats.deletedFiles() > 0 ? ", " + stats.deletedFiles() + " deleted" : "") + " to " + dest
                    + " in " + SyncText.human(Duration.between(start, clock.instant()))
                    + (vanished ? "; some source files vanished during the run" : "") + stampNote
                    + displaced.map(dir -> "; what it replaced or deleted there is kept in " + dir).orElse("");
            return finish(post, job, trigger, before, start, vanished ? JobResult.PARTIAL : JobResult.OK, msg, stats, total,
                    attempts, counts);
        } finally {
            if (stamp != null) {
                stamp.close();
            }
        }
    }

    /**
     * Where a {@link RunTrigger#HANDOVER_AFTER_CRASH} run keeps, on the receiver, what it replaces
     * or deletes: {@code <stateDir>/displaced/<job>/<yyyyMMdd'T'HHmmss'Z'>} (one source path below
     * it per path, without the leading slash).
     *
     * @param stateDir the state dir (the same path on both nodes)
     * @param job      job name
     * @param start    the run's start
     * @return the directory
     */
    public static Path displacedDir(Path stateDir, String job, Instant start) {
        return stateDir.resolve("displaced").resolve(job).resolve(java.time.format.DateTimeFormatter
                .ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(java.time.ZoneOffset.UTC).format(start));
    }

    /** Writes the replica stamp; returns "" or a note for the message when it could not. */
    private String writeStamp(ReplicationJobSpec job, PeerLink sender, Instant start) {
        ReplicaStamp stamp = new ReplicaStamp(job.name(), localNode, start, clock.instant());
        try {
            if (job.toPeer()) {
                stamp.write(outgoing(job).resolve(job.name() + ".stamp"));
                ProcessResult r = sender.sendStamp(job.name() + ".stamp", STAMP_TIMEOUT);
                if (!r.succeeded()) {
                    LOG.warn("sync job {}: cannot send the replica stamp: rsync exit {}{}", job.name(), r.exitCode(),
                            SyncText.lastLine(r.stderr()));
                    return "; replica stamp not sent";
                }
            } else if (job.nfs().isPresent()) {
                // never a file call on the mount from this thread: a hung server would block it
                Path out = outgoing(job).resolve(job.name() + ".stamp");
                stamp.write(out);
                Optional<String> bad = nfs.copy(job.nfs().get(), out,
                        ReplicaStamp.targetFile(job.targetPath().orElseThrow(), job.name()));
                stamp.write(ReplicaStamp.localFile(cfg.stateDir(), job.name()));
                if (bad.isPresent()) {
                    LOG.warn("sync job {}: cannot write the replica stamp: {}", job.name(), bad.get());
                    return "; replica stamp not written on the target";
                }
            } else {
                stamp.write(ReplicaStamp.targetFile(job.targetPath().orElseThrow(), job.name()));
                stamp.write(ReplicaStamp.localFile(cfg.stateDir(), job.name()));
            }
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "; replica stamp not sent (interrupted)";
        } catch (IOException e) {
            LOG.warn("sync job {}: cannot write the replica stamp: {}", job.name(), e.getMessage());
            return "; replica stamp not written";
        }
    }

    private Path outgoing(ReplicationJobSpec job) {
        return cfg.stateDir().resolve("replica-outgoing");
    }

    /** The {@code post:} hook still to run before the outcome is recorded. */
    private record PostHook(ReplicationJobSpec job, RunTrigger trigger, String command, OutputStream progress) {
    }

    /**
     * How a hook ended.
     *
     * @param ok          exit 0 within the timeout
     * @param interrupted the thread was interrupted (the hook was killed)
     * @param why         for a failure: exit code or timeout and the hook's last line of output
     */
    private record HookResult(boolean ok, boolean interrupted, String why) {
    }

    /**
     * Runs a hook with {@code /bin/sh -c COMMAND} on this node, stdin {@code /dev/null}, within
     * {@code hook_timeout} (its process tree is killed when it runs over). Environment:
     * {@code JHB_SYNC_JOB}, {@code JHB_SYNC_GROUP}, {@code JHB_SYNC_TRIGGER} (lower case),
     * {@code JHB_SYNC_PATHS} (space separated), plus {@code extra}.
     */
    private HookResult runHook(ReplicationJobSpec job, RunTrigger trigger, String which, String command,
                               Map<String, String> extra, OutputStream progress) {
        Map<String, String> env = new HashMap<>(extra);
        env.put("JHB_SYNC_JOB", job.name());
        env.put("JHB_SYNC_GROUP", job.group());
        env.put("JHB_SYNC_TRIGGER", trigger.name().toLowerCase(Locale.ROOT));
        env.put("JHB_SYNC_PATHS", String.join(" ", job.paths().stream().map(Path::toString).toList()));
        SyncText.header(progress, "sync job " + job.name() + ": " + which + " hook: " + command);
        LOG.debug("sync job {}: {} hook: {}", job.name(), which, command);
        ProcessResult r;
        try {
            r = RsyncProcess.run(List.of("/bin/sh", "-c", command), env, job.hookTimeout(), progress);
        } catch (InterruptedIOException e) {
            return new HookResult(false, true, "interrupted");
        } catch (IOException e) {
            return new HookResult(false, false, "cannot start /bin/sh: " + e.getMessage());
        }
        if (r.succeeded() && !r.timedOut()) {
            return new HookResult(true, false, "");
        }
        String words = SyncText.lastLine(r.stderr());
        if (words.isEmpty()) {
            words = SyncText.lastLine(r.stdout());
        }
        return new HookResult(false, false, (r.timedOut() ? "timed out after " + SyncText.human(job.hookTimeout())
                : "exit " + r.exitCode()) + words);
    }

    private RunOutcome finish(PostHook post, ReplicationJobSpec job, RunTrigger trigger, JobState before,
                              Instant start, JobResult result, String message, RsyncStats stats, long total,
                              int attempts, Map<String, Long> successCounts) {
        if (post != null) {
            boolean interrupted = Thread.interrupted(); // the post hook runs even after an interrupt
            HookResult h = runHook(job, trigger, "post", post.command(),
                    Map.of("JHB_SYNC_RESULT", result.name()), post.progress());
            if (!h.ok()) {
                LOG.warn("sync job {}: post hook failed: {}", job.name(), h.why());
                message = message + "; post hook failed: " + h.why();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        Instant end = clock.instant();
        boolean ok = result.success();
        store.write(new JobState(job.name(), java.util.Optional.of(start), java.util.Optional.of(end), result, message,
                stats.bytesTransferred(), stats.filesTransferred(), total, attempts,
                ok ? java.util.Optional.of(start) : before.lastSuccess(), ok ? successCounts : before.successCounts()));
        String how = trigger == RunTrigger.SCHEDULE ? "" : " [" + trigger.name().toLowerCase(Locale.ROOT) + "]";
        switch (result) {
            case OK -> LOG.info("sync job {}{}: {}", job.name(), how, message);
            case PARTIAL -> LOG.warn("sync job {}{}: {}", job.name(), how, message);
            case REFUSED -> LOG.error("sync job {}{}: REFUSED: {}", job.name(), how, message);
            case FAILED_TRANSIENT -> LOG.error("sync job {}{}: FAILED (transient, after {} attempt(s)): {}",
                    job.name(), how, attempts, message);
            default -> LOG.error("sync job {}{}: FAILED: {}", job.name(), how, message);
        }
        return new RunOutcome(job.name(), trigger, result, message, start, end, stats.bytesTransferred(),
                stats.filesTransferred(), total, attempts);
    }
}
