package org.jheartbeat.sync.backup;

import java.util.List;
import java.util.Objects;

/**
 * What {@code hb backup verify} found: a snapshot compared with its sources as they are now.
 *
 * @param snapshot    the snapshot's name
 * @param differences one line per difference, {@code KIND: /PATH} with KIND {@code changed},
 *                    {@code missing from snapshot}, {@code only in snapshot}, {@code hard link
 *                    differs} or {@code attributes (FLAGS)} (rsync's itemize letters: p mode, o
 *                    owner, g group, a ACL, x xattrs); empty when the snapshot matches
 */
public record SnapshotComparison(String snapshot, List<String> differences) {
    public SnapshotComparison {
        Objects.requireNonNull(snapshot, "snapshot");
        differences = List.copyOf(differences);
    }

    /** @return true when the snapshot matches its sources */
    public boolean matches() {
        return differences.isEmpty();
    }
}
