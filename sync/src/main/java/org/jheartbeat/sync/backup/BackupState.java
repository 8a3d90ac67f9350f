package org.jheartbeat.sync.backup;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The last known state of one backup, persisted by {@link BackupStateStore}: the disk as last seen
 * (by a poll or run; {@code hb backup status} probes the disk itself instead, see
 * {@link BackupService#probe}) and the last run.
 *
 * @param name             backup name
 * @param disk             disk state at the last poll or run
 * @param lastResult       how the last run ended
 * @param lastStart        start of the last run, if any
 * @param lastEnd          end of the last run, if any
 * @param message          one human-readable line about the last event, a disk poll or a run (never
 *                         {@code null})
 * @param snapshots        number of complete snapshots on the disk after the last run
 * @param newestSnapshot   name of the newest complete snapshot after the last run
 * @param bytesTransferred bytes rsync copied in the last run (files not hard-linked)
 * @param bytesUsed        bytes in use on the disk's filesystem after the last run
 * @param lastRunMessage   the one-line result of the last run only ({@code message} may since have
 *                         been replaced by a disk poll's finding); "never run" before the first
 * @param lastSkip         the last scheduled snapshot skipped because the disk was not there, one
 *                         line with its due time and reason; cleared by the next run
 */
public record BackupState(String name, DiskState disk, BackupResult lastResult, Optional<Instant> lastStart,
                          Optional<Instant> lastEnd, String message, int snapshots,
                          Optional<String> newestSnapshot, long bytesTransferred, long bytesUsed,
                          String lastRunMessage, Optional<String> lastSkip) {
    public BackupState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(disk, "disk");
        Objects.requireNonNull(lastResult, "lastResult");
        Objects.requireNonNull(lastStart, "lastStart");
        Objects.requireNonNull(lastEnd, "lastEnd");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(newestSnapshot, "newestSnapshot");
        Objects.requireNonNull(lastRunMessage, "lastRunMessage");
        Objects.requireNonNull(lastSkip, "lastSkip");
    }

    /** A state without a skipped schedule. */
    public BackupState(String name, DiskState disk, BackupResult lastResult, Optional<Instant> lastStart,
                       Optional<Instant> lastEnd, String message, int snapshots, Optional<String> newestSnapshot,
                       long bytesTransferred, long bytesUsed, String lastRunMessage) {
        this(name, disk, lastResult, lastStart, lastEnd, message, snapshots, newestSnapshot, bytesTransferred,
                bytesUsed, lastRunMessage, Optional.empty());
    }

    /** A state whose message is also the last run's message (a state written by a run). */
    public BackupState(String name, DiskState disk, BackupResult lastResult, Optional<Instant> lastStart,
                       Optional<Instant> lastEnd, String message, int snapshots, Optional<String> newestSnapshot,
                       long bytesTransferred, long bytesUsed) {
        this(name, disk, lastResult, lastStart, lastEnd, message, snapshots, newestSnapshot, bytesTransferred,
                bytesUsed, message);
    }

    /**
     * @param name backup name
     * @return the state of a backup that never ran and whose disk has not been seen
     */
    public static BackupState initial(String name) {
        return new BackupState(name, DiskState.MISSING, BackupResult.NEVER, Optional.empty(), Optional.empty(),
                "never run", 0, Optional.empty(), 0, 0);
    }

    /** @return a copy with another disk state and message, the run fields (lastRunMessage too) unchanged */
    public BackupState withDisk(DiskState newDisk, String newMessage) {
        return new BackupState(name, newDisk, lastResult, lastStart, lastEnd, newMessage, snapshots, newestSnapshot,
                bytesTransferred, bytesUsed, lastRunMessage, lastSkip);
    }

    /**
     * @param newDisk the disk state the skipping poll found
     * @param skip    the skip's one line (also the new message)
     * @return a copy recording a skipped scheduled snapshot, the run fields unchanged
     */
    public BackupState withSkip(DiskState newDisk, String skip) {
        return new BackupState(name, newDisk, lastResult, lastStart, lastEnd, skip, snapshots, newestSnapshot,
                bytesTransferred, bytesUsed, lastRunMessage, Optional.of(skip));
    }
}
