package org.jheartbeat.sync.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.CronSchedule;
import org.jheartbeat.sync.config.SyncConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Backups to removable disks ({@code backups:} of sync.yaml). Runs on
 * whichever node has the drawer; both nodes may.
 *
 * <p>{@link #start()} polls every backup's disk every {@link BackupSpec#poll()} with
 * {@code blkid}. When a poll sees the disk <em>inserted</em> (present after missing or wrong, or
 * present at the first poll) it runs one backup: e2fsck -p, mount, hard-linked snapshot with
 * {@code rsync --link-dest}, verify, rotate, unmount. It does not run again until the disk has been
 * removed and inserted again (see {@link InsertionTracker}): a disk left in the drawer is not
 * snapshotted every poll. A backup with a {@code schedule:} is also snapshotted at the first poll at or
 * after each of its cron times while the disk is present; when the disk is missing or wrong at that
 * time the schedule is skipped with a warning and a {@link BackupState#lastSkip() status line}
 * ({@link BackupTriggers}). {@link #runNow(String)} runs one on demand. All polls share one thread,
 * so a long backup delays the polls of the others (and a scheduled time's run, by at most that).
 *
 * <p>Runs, lists and restores of one backup exclude each other across processes (a lock file in the
 * state directory), so {@code hb backup run} and the daemon never write the same disk at once.
 * State is kept in {@code <stateDir>/backup-<name>.state} ({@link BackupStateStore}). Log lines go
 * to the logger named {@code backup}.
 */
public final class BackupService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("backup");

    private final SyncConfig cfg;
    private final BackupDisk disk;
    private final BackupStateStore store;
    private final BackupRunner runner;
    private final Map<String, BackupTriggers> triggers = new HashMap<>();
    private final Clock clock;
    private ScheduledExecutorService poller;

    /**
     * A service running the real programs (blkid, e2fsck, mount, umount, rsync).
     *
     * @param cfg   the sync configuration; only {@code backups} and {@code stateDir} are used
     * @param clock names snapshots and stamps state (UTC)
     */
    public BackupService(SyncConfig cfg, Clock clock) {
        this(cfg, clock, new OsProcessRunner());
    }

    /**
     * @param cfg    the sync configuration; only {@code backups} and {@code stateDir} are used
     * @param clock  names snapshots and stamps state (UTC)
     * @param runner runs blkid, e2fsck, mount, umount and rsync
     */
    public BackupService(SyncConfig cfg, Clock clock, ProcessRunner runner) {
        this.cfg = Objects.requireNonNull(cfg, "cfg");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.disk = new BackupDisk(runner);
        this.store = new BackupStateStore(cfg.stateDir());
        this.runner = new BackupRunner(disk, runner, store, cfg.stateDir(), clock, LOG);
        Instant start = clock.instant();
        cfg.backups().forEach(b -> triggers.put(b.name(), new BackupTriggers(
                b.schedule().map(CronSchedule::parse), start, clock.getZone())));
    }

    /**
     * Starts polling every backup (first poll at once). Calling it twice has no further effect.
     */
    public synchronized void start() {
        if (poller != null || cfg.backups().isEmpty()) {
            return;
        }
        poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "backup-poll");
            t.setDaemon(true);
            return t;
        });
        for (BackupSpec b : cfg.backups()) {
            poller.scheduleWithFixedDelay(() -> pollOnce(b.name()), 0, b.poll().toMillis(), TimeUnit.MILLISECONDS);
        }
        LOG.info("backup: watching {} disk(s): {}", cfg.backups().size(),
                cfg.backups().stream().map(b -> b.name() + " " + b.diskToken() + b.schedule().map(c -> " schedule \""
                        + c + "\" next " + nextScheduled(b.name()).map(Instant::toString).orElse("never")).orElse(""))
                        .toList());
    }

    /**
     * One poll of one backup's disk, what {@link #start()} does every {@code poll}: records the
     * disk state and, when the disk was just inserted, runs a backup.
     *
     * @param name backup name
     * @return the outcome of the backup this poll ran, or empty when it ran none
     * @throws IllegalArgumentException if no backup has that name
     */
    public Optional<BackupOutcome> pollOnce(String name) {
        BackupSpec spec = spec(name);
        BackupTriggers t = triggers.get(name);
        try {
            DiskProbe probe = disk.locate(spec);
            DiskState previous = t.lastDisk();
            BackupTriggers.Decision d = t.poll(clock.instant(), probe.state());
            if (previous != probe.state()) {
                logTransition(spec, previous, probe);
                BackupState s = store.read(name);
                if (s.disk() != probe.state() || previous == null) {
                    store.write(s.withDisk(probe.state(), probe.message()));
                }
            }
            switch (d.action()) {
                case RUN_INSERTED -> {
                    return Optional.of(runner.run(spec));
                }
                case RUN_SCHEDULED -> {
                    LOG.info("backup {}: scheduled snapshot (due {}, schedule \"{}\")", name, d.due().orElseThrow(),
                            spec.schedule().orElse(""));
                    return Optional.of(runner.run(spec));
                }
                case SKIP_SCHEDULED -> {
                    String line = skipLine(spec, d.due().orElseThrow(), probe);
                    LOG.warn("backup {}: {}", name, line);
                    store.write(store.read(name).withSkip(probe.state(), line));
                    return Optional.empty();
                }
                default -> {
                    return Optional.empty();
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("backup {}: poll failed: {}", name, e.toString());
            return Optional.empty();
        }
    }

    /** The status and log line of a scheduled snapshot skipped for want of the disk. */
    static String skipLine(BackupSpec spec, Instant due, DiskProbe probe) {
        return "scheduled snapshot due " + due + " skipped: " + probe.message()
                + (probe.state() == DiskState.MISSING ? " (put it back in the drawer; a snapshot is taken when it is"
                + " inserted)" : "");
    }

    /**
     * @param name backup name
     * @return the next time its schedule fires, as this service computed it; empty without a schedule
     * @throws IllegalArgumentException if no backup has that name
     */
    public Optional<Instant> nextScheduled(String name) {
        spec(name);
        return triggers.get(name).nextFire();
    }

    private void logTransition(BackupSpec spec, DiskState previous, DiskProbe probe) {
        switch (probe.state()) {
            case PRESENT -> LOG.info("backup {}: disk {} inserted ({})", spec.name(), spec.diskToken(),
                    probe.device().map(Path::toString).orElse("?"));
            case MISSING -> {
                if (previous == null) {
                    LOG.info("backup {}: disk {} not present", spec.name(), spec.diskToken());
                } else {
                    LOG.info("backup {}: disk {} removed", spec.name(), spec.diskToken());
                }
            }
            case WRONG_DISK -> LOG.warn("backup {}: {}", spec.name(), probe.message());
            default -> throw new IllegalStateException(probe.state().toString());
        }
    }

    /**
     * Runs one backup now if its disk is present (the manual {@code hb backup run}).
     *
     * @param name backup name
     * @return the outcome: OK with the snapshot; REFUSED with disk MISSING/WRONG_DISK (nothing
     *         written), busy or fsck errors; FULL; FAILED. Never throws for these.
     * @throws IllegalArgumentException if no backup has that name
     */
    public BackupOutcome runNow(String name) {
        return runner.run(spec(name));
    }

    /**
     * Lists the complete snapshots on the disk, mounting it read-only when it is not mounted and
     * unmounting it after.
     *
     * @param name backup name
     * @return snapshots oldest first, with file counts and apparent sizes; empty when none
     * @throws BackupException REFUSED when the disk is missing/wrong or the backup busy; FAILED
     *                         when mount or reading fails
     * @throws IllegalArgumentException if no backup has that name
     */
    public List<Snapshot> list(String name) throws BackupException {
        return runner.list(spec(name));
    }

    /**
     * Copies {@code path} (a file or directory under one of the backup's paths) out of a snapshot.
     * The disk is mounted read-only for it. Live data is never overwritten unless asked: the default
     * destination is a new {@code <path>.restored-<snapshot>} next to the original.
     *
     * @param name      backup name
     * @param path      absolute path as it was on this machine, e.g. {@code /srv/web/index.html}
     * @param snapshot  snapshot name; empty: the newest
     * @param to        the directory to restore into (created if missing): the copy is written as
     *                  {@code <to>/<file name of path>}, for a file and a directory alike; empty:
     *                  {@code <path>.restored-<snapshot>} next to the original
     * @param overwrite allow writing over an existing file or into an existing non-empty directory
     *                  at the destination
     * @return where the copy was written
     * @throws BackupException REFUSED when the path is not backed up, {@code to} exists but is not a
     *                         directory, the destination exists and overwrite is false, the disk is
     *                         missing/wrong or busy; FAILED when the snapshot or path does not exist
     *                         or the copy fails
     * @throws IllegalArgumentException if no backup has that name
     */
    public Path restore(String name, Path path, Optional<String> snapshot, Optional<Path> to, boolean overwrite)
            throws BackupException {
        return runner.restore(spec(name), path, snapshot, to, overwrite);
    }

    /**
     * Compares a snapshot with the backup's sources as they are now ({@code hb backup verify}): by
     * content (checksums) and by mode, owner, group, ACLs and xattrs, with the backup's own rsync
     * options and excludes. The disk is mounted read-only for it. Changes made to the sources since
     * the snapshot are differences too.
     *
     * @param name     backup name
     * @param snapshot snapshot name; empty: the newest
     * @return the snapshot compared and its differences
     * @throws BackupException REFUSED when the disk is missing, wrong or busy; FAILED when the
     *                         snapshot does not exist or rsync fails
     * @throws IllegalArgumentException if no backup has that name
     */
    public SnapshotComparison verify(String name, Optional<String> snapshot) throws BackupException {
        return runner.compare(spec(name), snapshot);
    }

    /**
     * Looks for one backup's disk now, as a poll or run does ({@code blkid}, then the configured
     * device), without recording anything.
     *
     * @param name backup name
     * @return PRESENT with the device, WRONG_DISK or MISSING, each with a one-line message
     * @throws IOException if blkid cannot be run
     * @throws IllegalArgumentException if no backup has that name
     */
    public DiskProbe probe(String name) throws IOException {
        return disk.locate(spec(name));
    }

    /**
     * @return the stored state of every configured backup, in config order (another process's runs
     *         included); its disk field is as last recorded, see {@link #probe} for the disk now
     * @throws java.io.UncheckedIOException if a state file cannot be read
     */
    public List<BackupState> status() {
        List<BackupState> out = new ArrayList<>();
        cfg.backups().forEach(b -> out.add(store.read(b.name())));
        return out;
    }

    private BackupSpec spec(String name) {
        return cfg.backup(name).orElseThrow(() -> new IllegalArgumentException("no backup '" + name + "' in "
                + (cfg.source() == null ? "the configuration" : cfg.source().toString()) + " (configured: "
                + String.join(", ", cfg.backups().stream().map(BackupSpec::name).toList()) + ")"));
    }

    /**
     * Stops polling. A backup in progress is interrupted: its rsync is killed, the disk unmounted,
     * the run recorded as FAILED, and its {@code .incomplete} directory removed by the next run.
     * Waits up to 10 s for that.
     */
    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.shutdownNow();
            try {
                poller.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            poller = null;
        }
    }
}
