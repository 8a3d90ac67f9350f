package org.jheartbeat.sync.backup;

import java.util.Objects;
import java.util.Optional;

/**
 * The result of one backup run ({@link BackupService#runNow(String)} or a run the poller started).
 *
 * @param name             backup name
 * @param result           OK, FAILED, FULL or REFUSED
 * @param disk             disk state found
 * @param message          one line for the user and the log
 * @param snapshot         name of the snapshot taken, when one was completed
 * @param files            regular files in the snapshot
 * @param filesChanged     files copied (new or changed); the others are hard links
 * @param bytesTransferred bytes copied
 * @param bytesUsed        bytes in use on the disk's filesystem after the run (0 when unknown)
 * @param verified         true when the post-copy comparison found no content difference
 * @param snapshots        complete snapshots on the disk after the run (0 when unknown)
 */
public record BackupOutcome(String name, BackupResult result, DiskState disk, String message,
                            Optional<String> snapshot, long files, long filesChanged, long bytesTransferred, long bytesUsed,
                            boolean verified, int snapshots) {
    public BackupOutcome {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(disk, "disk");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(snapshot, "snapshot");
    }

    /** @return an outcome of a run that did not take a snapshot */
    static BackupOutcome failed(String name, BackupException e) {
        return new BackupOutcome(name, e.result(), e.disk(), e.getMessage(), Optional.empty(), 0, 0, 0, 0, false, 0);
    }

    /** @return true when a verified snapshot was taken */
    public boolean ok() {
        return result == BackupResult.OK;
    }
}
