package org.jheartbeat.sync.backup;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code hb backup status} shows about one backup; persisted by {@link BackupStateStore}.
 *
 * @param name             backup name
 * @param disk             disk state at the last poll or run
 * @param lastResult       how the last run ended
 * @param lastStart        start of the last run, if any
 * @param lastEnd          end of the last run, if any
 * @param message          one human-readable line about the last event (never {@code null})
 * @param snapshots        number of complete snapshots on the disk after the last run
 * @param newestSnapshot   name of the newest complete snapshot after the last run
 * @param bytesTransferred bytes rsync copied in the last run (files not hard-linked)
 * @param bytesUsed        bytes in use on the disk's filesystem after the last run
 */
public record BackupState(String name, DiskState disk, BackupResult lastResult, Optional<Instant> lastStart,
                          Optional<Instant> lastEnd, String message, int snapshots,
                          Optional<String> newestSnapshot, long bytesTransferred, long bytesUsed) {
    public BackupState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(disk, "disk");
        Objects.requireNonNull(lastResult, "lastResult");
        Objects.requireNonNull(lastStart, "lastStart");
        Objects.requireNonNull(lastEnd, "lastEnd");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(newestSnapshot, "newestSnapshot");
    }

    /**
     * @param name backup name
     * @return the state of a backup that never ran and whose disk has not been seen
     */
    public static BackupState initial(String name) {
        return new BackupState(name, DiskState.MISSING, BackupResult.NEVER, Optional.empty(), Optional.empty(),
                "never run", 0, Optional.empty(), 0, 0);
    }

    /** @return a copy with another disk state and message, the run fields unchanged */
    public BackupState withDisk(DiskState newDisk, String newMessage) {
        return new BackupState(name, newDisk, lastResult, lastStart, lastEnd, newMessage, snapshots, newestSnapshot,
                bytesTransferred, bytesUsed);
    }
}
