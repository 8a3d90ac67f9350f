package org.jheartbeat.sync.backup;

import org.jheartbeat.sync.replication.SyncText;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.RsyncStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.sync.config.BackupSpec;
import org.slf4j.Logger;

/**
 * One backup operation at a time per backup and machine: run (snapshot), list, restore. Each
 * holds {@code <stateDir>/backup-<name>.lock} (a {@link FileChannel#tryLock()} lock, so the CLI
 * and the daemon exclude each other), finds and mounts the disk, proves the mount from mountinfo
 * before any write, and unmounts what it mounted, also on failure.
 */
final class BackupRunner {
    private static final Duration RSYNC_TIMEOUT = Duration.ofHours(24);
    private static final int RSYNC_PARTIAL_VANISHED = 24;
    private static final int RSYNC_FILE_IO = 11;

    private final BackupDisk disk;
    private final ProcessRunner runner;
    private final BackupStateStore store;
    private final Path stateDir;
    private final Clock clock;
    private final Logger log;

    BackupRunner(BackupDisk disk, ProcessRunner runner, BackupStateStore store, Path stateDir, Clock clock, Logger log) {
        this.disk = disk;
        this.runner = runner;
        this.store = store;
        this.stateDir = stateDir;
        this.clock = clock;
        this.log = log;
    }

    /** Mounted-disk context of one operation. */
    private record Mounted(Path device, Path mountPoint, Path base, String token) {
    }

    @FunctionalInterface
    private interface OnDisk<T> {
        T apply(Mounted m) throws IOException, BackupException;
    }

    /** Takes a snapshot; never throws, the outcome says what happened; state is persisted. */
    BackupOutcome run(BackupSpec spec) {
        String name = spec.name();
        Instant start = clock.instant();
        BackupOutcome outcome;
        try (FileChannel lock = lock(name)) {
            BackupState before = readState(name);
            try {
                outcome = onDisk(spec, false, before, start, m -> snapshot(spec, m, start));
            } catch (BackupException e) {
                outcome = BackupOutcome.failed(name, e);
            } catch (IOException | RuntimeException e) {
                outcome = new BackupOutcome(name, BackupResult.FAILED, DiskState.PRESENT,
                        "backup " + name + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage(), Optional.empty(), 0, 0, 0, 0, false, 0);
            }
            persist(before, outcome, start);
        } catch (BackupException e) {
            outcome = BackupOutcome.failed(name, e);
        } catch (IOException e) {
            outcome = new BackupOutcome(name, BackupResult.FAILED, DiskState.MISSING,
                    "backup " + name + ": cannot lock in " + stateDir + ": " + e.getMessage(), Optional.empty(),
                    0, 0, 0, 0, false, 0);
        }
        String line = outcome.message().startsWith("backup " + name + " ") ? outcome.message()
                : "backup " + name + ": " + outcome.message();
        if (outcome.ok()) {
            log.info(line);
        } else {
            log.warn(line);
        }
        return outcome;
    }

    private void persist(BackupState before, BackupOutcome o, Instant start) {
        BackupState s;
        if (o.result() == BackupResult.REFUSED && o.disk() != DiskState.PRESENT) {
            s = before.withDisk(o.disk(), o.message());
        } else {
            s = new BackupState(o.name(), o.disk(), o.result(), Optional.of(start), Optional.of(clock.instant()),
                    o.message(), o.snapshots() > 0 ? o.snapshots() : before.snapshots(),
                    o.snapshot().isPresent() ? o.snapshot() : before.newestSnapshot(), o.bytesTransferred(),
                    o.bytesUsed() > 0 ? o.bytesUsed() : before.bytesUsed());
        }
        try {
            store.write(s);
        } catch (UncheckedIOException e) {
            log.error("backup {}: cannot record the state: {}", o.name(), e.getMessage());
        }
    }

    /** The stored state; a broken state file is logged and treated as no state. */
    private BackupState readState(String name) {
        try {
            return store.read(name);
        } catch (UncheckedIOException e) {
            log.warn("backup {}: ignoring the state file: {}", name, e.getMessage());
            return BackupState.initial(name);
        }
    }

    /** Lists complete snapshots, oldest first. */
    List<Snapshot> list(BackupSpec spec) throws BackupException {
        try (FileChannel lock = lock(spec.name())) {
            return onDisk(spec, true, null, clock.instant(), m -> {
                List<Snapshot> out = new ArrayList<>();
                if (Files.isDirectory(m.base())) {
                    for (String n : SnapshotNames.snapshots(Trees.children(m.base()))) {
                        long[] fb = Trees.filesAndBytes(m.base().resolve(n));
                        out.add(new Snapshot(n, SnapshotNames.parse(n).orElseThrow(), fb[0], fb[1]));
                    }
                }
                return out;
            });
        } catch (IOException e) {
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                    "backup " + spec.name() + ": cannot list snapshots: " + e.getMessage());
        }
    }

    /** Restores one path; returns where it was written. */
    Path restore(BackupSpec spec, Path path, Optional<String> snapshot, Optional<Path> to, boolean overwrite)
            throws BackupException {
        Path p = path.toAbsolutePath().normalize();
        if (spec.paths().stream().noneMatch(src -> p.startsWith(src.toAbsolutePath().normalize()))) {
            throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT, p + " is not under any path of backup "
                    + spec.name() + " " + spec.paths());
        }
        if (p.getNameCount() == 0) {
            throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT, "cannot restore /");
        }
        try (FileChannel lock = lock(spec.name())) {
            return onDisk(spec, true, null, clock.instant(), m -> {
                String snap = pick(spec, m, snapshot);
                Path src = m.base().resolve(snap).resolve(p.toString().substring(1));
                if (!Files.exists(src, LinkOption.NOFOLLOW_LINKS)) {
                    throw new BackupException(BackupResult.FAILED, DiskState.PRESENT, p + " is not in snapshot " + snap);
                }
                boolean dir = Files.isDirectory(src, LinkOption.NOFOLLOW_LINKS);
                Path dest;
                if (to.isPresent()) {
                    Path into = to.get().toAbsolutePath().normalize();
                    if (Files.exists(into) && !Files.isDirectory(into)) {
                        throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT, into
                                + " is not a directory: give the directory to restore into (it is created if missing)");
                    }
                    dest = into.resolve(p.getFileName().toString());
                } else {
                    dest = p.resolveSibling(p.getFileName() + ".restored-" + snap);
                }
                if (dest.startsWith(m.mountPoint())) {
                    throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT,
                            "will not restore onto the backup disk itself (" + dest + ")");
                }
                if (!overwrite && Files.exists(dest, LinkOption.NOFOLLOW_LINKS)
                        && (!Files.isDirectory(dest, LinkOption.NOFOLLOW_LINKS) || !Trees.children(dest).isEmpty())) {
                    throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT,
                            dest + " exists: not overwritten (restore into another directory with --to DIR, or overwrite with --force)");
                }
                Files.createDirectories(dest.getParent());
                List<String> argv = new ArrayList<>(List.of("rsync", "-aH", "--numeric-ids"));
                if (spec.system()) {
                    argv.add("-AX"); // what the whole-system copy kept (ACLs, xattrs such as file capabilities)
                }
                argv.add(dir ? src + "/" : src.toString());
                argv.add(dir ? dest + "/" : dest.toString());
                ProcessResult r = runner.run(ProcessSpec.of(RSYNC_TIMEOUT, argv));
                if (!r.succeeded()) {
                    throw new BackupException(BackupResult.FAILED, DiskState.PRESENT, "restore of " + p + " from "
                            + snap + " failed (rsync exit " + r.exitCode() + "): " + BackupDisk.lastLine(r));
                }
                log.info("backup {}: restored {} from snapshot {} to {}", spec.name(), p, snap, dest);
                return dest;
            });
        } catch (IOException e) {
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                    "backup " + spec.name() + ": restore failed: " + e.getMessage());
        }
    }

    /**
     * Finds the disk, fscks (writable use only), mounts, verifies the mount, applies the action,
     * unmounts what it mounted. {@code before} non-null: record "running" in the state first.
     */
    private <T> T onDisk(BackupSpec spec, boolean readOnly, BackupState before, Instant start, OnDisk<T> action)
            throws IOException, BackupException {
        String token = spec.diskToken();
        DiskProbe probe = disk.locate(spec);
        if (probe.state() != DiskState.PRESENT) {
            throw new BackupException(BackupResult.REFUSED, probe.state(),
                    probe.message() + (readOnly ? "" : ": no snapshot taken"));
        }
        Path dev = probe.device().orElseThrow();
        Path mp = spec.mountPoint().toAbsolutePath().normalize();
        if (before != null) {
            store.write(new BackupState(spec.name(), DiskState.PRESENT, before.lastResult(), Optional.of(start),
                    Optional.empty(), "running since " + start, before.snapshots(), before.newestSnapshot(),
                    before.bytesTransferred(), before.bytesUsed(), "running since " + start));
        }
        if (spec.fsck() && !readOnly && !alreadyMounted(dev, mp)) {
            if (probe.fsType().startsWith("ext")) {
                disk.fsck(dev, token).ifPresent(note -> log.warn("backup {}: {}", spec.name(), note));
            } else {
                log.info("backup {}: no fsck for filesystem type '{}' on {}", spec.name(), probe.fsType(), dev);
            }
        }
        boolean mounted = disk.mount(dev, mp, readOnly);
        T result = null;
        BackupException failure = null;
        IOException ioFailure = null;
        try {
            disk.verifyMounted(dev, mp);
            result = action.apply(new Mounted(dev, mp.toRealPath(), mp.toRealPath().resolve("jheartbeat").resolve(spec.name()), token));
        } catch (BackupException e) {
            failure = e;
        } catch (IOException e) {
            ioFailure = e;
        } finally {
            if (mounted) {
                boolean interrupted = Thread.interrupted();
                Optional<String> err;
                try {
                    err = disk.unmount(mp);
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (err.isPresent()) {
                    log.error("backup {}: {}", spec.name(), err.get());
                    if (failure == null && ioFailure == null) {
                        failure = new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                                (result instanceof BackupOutcome o ? o.message() + "; but " : "") + err.get()
                                        + ": do not remove the disk");
                    }
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (ioFailure != null) {
            throw ioFailure;
        }
        return result;
    }

    private boolean alreadyMounted(Path dev, Path mp) throws IOException {
        String mm = MountTable.majorMinor(dev);
        return MountTable.read().stream().anyMatch(e -> e.majorMinor().equals(mm));
    }

    /** The snapshot itself, on a verified mount. */
    private BackupOutcome snapshot(BackupSpec spec, Mounted m, Instant start) throws IOException, BackupException {
        String name = spec.name();
        for (Path src : spec.paths()) {
            if (!Files.isDirectory(src)) {
                throw new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                        "source " + src + " of backup " + name + " is not a directory: no snapshot taken");
            }
        }
        Files.createDirectories(m.base());
        for (String stale : SnapshotNames.incomplete(Trees.children(m.base()))) {
            log.warn("backup {}: removing {} left by an interrupted run", name, stale);
            Trees.deleteTree(m.base().resolve(stale));
        }
        List<String> names = Trees.children(m.base());
        for (String n : names) {
            if (n.endsWith(LayoutRecord.SUFFIX) && !names.contains(n.substring(0, n.length() - LayoutRecord.SUFFIX.length()))) {
                Trees.deleteTree(m.base().resolve(n)); // the record of a snapshot that was never completed
            }
        }
        String snap = SnapshotNames.name(start);
        Optional<String> newest = SnapshotNames.newest(names);
        if (newest.isPresent() && !SnapshotNames.parse(newest.get()).orElseThrow().isBefore(SnapshotNames.parse(snap).orElseThrow())) {
            throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT, "newest snapshot " + newest.get()
                    + " is not older than the clock (" + snap + "): no snapshot taken");
        }
        Path work = m.base().resolve(snap + SnapshotNames.INCOMPLETE_SUFFIX);
        Files.createDirectory(work);
        List<String> options = BackupRsync.options(spec, spec.system() ? swapFiles() : List.of());
        List<String> argv = new ArrayList<>(List.of("rsync", "--stats"));
        newest.ifPresent(n -> argv.add("--link-dest=" + m.base().resolve(n)));
        argv.addAll(options);
        spec.paths().forEach(p -> argv.add(p.toAbsolutePath().normalize().toString()));
        argv.add(work + "/");
        RsyncStats stats = RsyncStats.parse(copy(argv, m, work).stdout());
        List<String> diffs = verify(spec, options, work);
        if (!diffs.isEmpty()) {
            // rsync's quick check (size and mtime) misses a file rewritten with the same size within
            // the timestamp resolution; one pass with --checksum repairs that. Files are replaced by
            // rename, so hard links into the previous snapshot are never written through.
            log.info("backup {}: verify found {} difference(s) (first: {}); repair pass with --checksum", name,
                    diffs.size(), diffs.get(0));
            List<String> repair = new ArrayList<>(argv);
            repair.add(1, "--checksum");
            RsyncStats again = RsyncStats.parse(copy(repair, m, work).stdout());
            stats = new RsyncStats(stats.files(), stats.regularFiles(), stats.createdFiles(), stats.deletedFiles(),
                    stats.filesTransferred() + again.filesTransferred(), stats.totalSize(),
                    stats.bytesTransferred() + again.bytesTransferred());
            diffs = verify(spec, options, work);
        }
        String layoutNote = "";
        if (spec.system()) {
            List<String> notes = new LayoutRecord(runner, Path.of("/sys/dev/block"))
                    .write(spec, m.base().resolve(snap + LayoutRecord.SUFFIX), snap, MountTable.read());
            notes.forEach(n -> log.warn("backup {}: layout record: {}", name, n));
            layoutNote = notes.isEmpty() ? ", layout recorded" : ", layout recorded with " + notes.size() + " gap(s)";
        }
        Files.move(work, m.base().resolve(snap), StandardCopyOption.ATOMIC_MOVE);
        boolean verified = diffs.isEmpty();
        if (verified) {
            for (String old : SnapshotNames.toDelete(Trees.children(m.base()), spec.keep())) {
                log.info("backup {}: removing old snapshot {} (keep {})", name, old, spec.keep());
                Trees.deleteTree(m.base().resolve(old));
                Trees.deleteTree(m.base().resolve(old + LayoutRecord.SUFFIX));
            }
        }
        int count = SnapshotNames.snapshots(Trees.children(m.base())).size();
        FileStore fs = Files.getFileStore(m.mountPoint());
        long bytesUsed = fs.getTotalSpace() - fs.getUnallocatedSpace();
        String summary = "snapshot " + snap + (verified ? " done: " : " taken but NOT verified: ") + stats.regularFiles()
                + " files, " + stats.filesTransferred() + " changed (" + SyncText.bytes(stats.bytesTransferred()) + ")"
                + layoutNote + (verified ? ", verified" : ", " + diffs.size() + " differences, first: " + diffs.get(0)
                + " (older snapshots kept)");
        return new BackupOutcome(name, verified ? BackupResult.OK : BackupResult.FAILED, DiskState.PRESENT, summary,
                Optional.of(snap), stats.regularFiles(), stats.filesTransferred(), stats.bytesTransferred(), bytesUsed, verified, count);
    }

    /**
     * One rsync into the build directory; on failure the build directory is removed and the
     * failure classified: rsync's ENOSPC/EDQUOT text, or exit 11 (file I/O) with under 1% free, is
     * FULL; anything else FAILED.
     * Exit 24 (source files vanished during the copy) is accepted.
     */
    private ProcessResult copy(List<String> argv, Mounted m, Path work) throws IOException, BackupException {
        ProcessResult r = runner.run(ProcessSpec.of(RSYNC_TIMEOUT, argv));
        if (!r.succeeded() && r.exitCode() != RSYNC_PARTIAL_VANISHED) {
            FileStore fs = Files.getFileStore(m.mountPoint());
            long free = fs.getUsableSpace();
            boolean full = r.stderr().contains("No space left on device") || r.stderr().contains("Disk quota exceeded")
                    || r.exitCode() == RSYNC_FILE_IO && free < fs.getTotalSpace() / 100;
            Trees.deleteTree(work);
            if (full) {
                throw new BackupException(BackupResult.FULL, DiskState.PRESENT, "disk " + m.token() + " is full ("
                        + free + " bytes free): snapshot not taken, previous snapshots intact");
            }
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT, "rsync failed (exit " + r.exitCode()
                    + "): " + BackupDisk.lastLine(r) + ": snapshot not taken, previous snapshots intact");
        }
        return r;
    }

    /**
     * Compares sources and the new snapshot by content: {@code rsync --dry-run --checksum
     * --itemize-changes --delete} with the copy's own options; an itemized line that would transfer
     * ({@code >}), create ({@code c}), hard-link ({@code h}) or delete ({@code *deleting}) is a
     * difference; attribute-only lines ({@code .}) are not.
     */
    private List<String> verify(BackupSpec spec, List<String> options, Path snapshotDir) throws IOException {
        ProcessResult r = compareRun(spec, options, snapshotDir);
        if (!r.succeeded() && r.exitCode() != RSYNC_PARTIAL_VANISHED) {
            return List.of("verification rsync failed (exit " + r.exitCode() + "): " + BackupDisk.lastLine(r));
        }
        return r.stdout().lines().filter(BackupRsync::contentDifference).toList();
    }

    private ProcessResult compareRun(BackupSpec spec, List<String> options, Path snapshotDir) throws IOException {
        List<String> argv = new ArrayList<>(List.of("rsync", "--dry-run", "--checksum", "--itemize-changes",
                "--delete"));
        argv.addAll(options);
        spec.paths().forEach(p -> argv.add(p.toAbsolutePath().normalize().toString()));
        argv.add(snapshotDir + "/");
        return runner.run(ProcessSpec.of(RSYNC_TIMEOUT, argv));
    }

    /**
     * Compares a snapshot with the sources as they are now, by content and attributes (times
     * aside), with the copy's own options and excludes; the disk is mounted read-only for it.
     *
     * @param spec     the backup
     * @param snapshot a snapshot name; empty: the newest
     * @return the snapshot's name and the differences (none: it matches)
     * @throws BackupException REFUSED when the disk is missing, wrong or busy; FAILED when there is
     *                         no such snapshot or rsync fails
     */
    SnapshotComparison compare(BackupSpec spec, Optional<String> snapshot) throws BackupException {
        try (FileChannel lock = lock(spec.name())) {
            return onDisk(spec, true, null, clock.instant(), m -> {
                String snap = pick(spec, m, snapshot);
                List<String> options = BackupRsync.options(spec, spec.system() ? swapFiles() : List.of());
                ProcessResult r = compareRun(spec, options, m.base().resolve(snap));
                if (!r.succeeded() && r.exitCode() != RSYNC_PARTIAL_VANISHED) {
                    throw new BackupException(BackupResult.FAILED, DiskState.PRESENT, "cannot compare snapshot " + snap
                            + " (rsync exit " + r.exitCode() + "): " + BackupDisk.lastLine(r));
                }
                return new SnapshotComparison(snap, BackupRsync.differences(r.stdout()).stream()
                        .map(BackupRsync.Difference::toString).toList());
            });
        } catch (IOException e) {
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                    "backup " + spec.name() + ": verify failed: " + e.getMessage());
        }
    }

    /** The named snapshot, or the newest; FAILED when there is none such. */
    private static String pick(BackupSpec spec, Mounted m, Optional<String> snapshot) throws IOException, BackupException {
        List<String> snaps = Files.isDirectory(m.base()) ? SnapshotNames.snapshots(Trees.children(m.base())) : List.of();
        if (snapshot.isPresent()) {
            if (!snaps.contains(snapshot.get())) {
                throw new BackupException(BackupResult.FAILED, DiskState.PRESENT, "no snapshot " + snapshot.get()
                        + " of backup " + spec.name() + " on " + m.token() + " (have: " + String.join(", ", snaps) + ")");
            }
            return snapshot.get();
        }
        if (snaps.isEmpty()) {
            throw new BackupException(BackupResult.FAILED, DiskState.PRESENT,
                    "no snapshot of backup " + spec.name() + " on " + m.token());
        }
        return snaps.get(snaps.size() - 1);
    }

    /** Swap files in use, from /proc/swaps; none when it cannot be read. */
    private List<Path> swapFiles() {
        try {
            return BackupRsync.swapFiles(Files.readString(Path.of("/proc/swaps")));
        } catch (IOException e) {
            log.warn("cannot read /proc/swaps ({}): swap files are not excluded", e.getMessage());
            return List.of();
        }
    }

    private FileChannel lock(String name) throws IOException, BackupException {
        Files.createDirectories(stateDir);
        FileChannel ch = FileChannel.open(stateDir.resolve("backup-" + name + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            l = null;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (l == null) {
            ch.close();
            throw new BackupException(BackupResult.REFUSED, DiskState.PRESENT,
                    "backup " + name + " is busy (another run, list or restore holds " + stateDir.resolve("backup-"
                            + name + ".lock") + ")");
        }
        return ch;
    }
}
