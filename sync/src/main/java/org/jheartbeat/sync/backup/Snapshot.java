package org.jheartbeat.sync.backup;

import java.time.Instant;
import java.util.Objects;

/**
 * One complete snapshot on a backup disk, as {@link BackupService#list(String)} reports it.
 *
 * @param name   directory name, {@code yyyy-MM-dd'T'HHmmss'Z'} (UTC), see {@link SnapshotNames}
 * @param taken  the instant encoded in the name (second resolution)
 * @param files  number of regular files in the snapshot
 * @param bytes  apparent size of those files in bytes (hard-linked files shared with other
 *               snapshots are counted in each snapshot)
 */
public record Snapshot(String name, Instant taken, long files, long bytes) {
    public Snapshot {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(taken, "taken");
    }
}
