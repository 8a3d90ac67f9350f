package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How old the local replica of a job is: now minus the start of the run that wrote it, read from its
 * {@link ReplicaStamp} (the newest of the stamp in the state directory and, for a path target, the one
 * next to the target). Reads files, never writes; an unreadable stamp is an unknown age, never an error.
 */
final class ReplicaAges {
    private static final Logger LOG = LoggerFactory.getLogger("sync");

    private final Path stateDir;
    private final Clock clock;

    /**
     * @param stateDir the sync state directory, where local stamps are kept
     * @param clock    wall clock the age is measured against
     */
    ReplicaAges(Path stateDir, Clock clock) {
        this.stateDir = stateDir;
        this.clock = clock;
    }

    /**
     * Logs each job's replica age (INFO), or that it is unknown (WARN): before this node starts their group
     * on takeover, which uses the replica as it is.
     */
    void log(List<ReplicationJobSpec> jobs) {
        for (ReplicationJobSpec j : jobs) {
            Optional<ReplicaStamp> s;
            try {
                s = stamp(j);
            } catch (IOException e) {
                LOG.warn("sync job {}: replica stamp unreadable ({}): data age unknown", j.name(), e.getMessage());
                continue;
            }
            if (s.isEmpty()) {
                LOG.warn("sync job {}: no replica stamp: data age unknown", j.name());
            } else {
                LOG.info("sync job {}: replica is {} old (last sync from {} at {})", j.name(),
                        SyncText.human(Duration.between(s.get().start(), clock.instant())),
                        s.get().sourceNode(), s.get().start());
            }
        }
    }

    /** The age of job {@code j}'s replica; empty when no stamp is readable. */
    Optional<Duration> age(ReplicationJobSpec j) {
        try {
            return stamp(j).map(s -> Duration.between(s.start(), clock.instant()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The newest of the local stamp and, for a plain path target, the stamp next to the target. An NFS
     * target's stamp is never read here: this runs on the group's worker before a start, where a hung
     * server would block the takeover; the local stamp that every run writes is enough.
     */
    private Optional<ReplicaStamp> stamp(ReplicationJobSpec j) throws IOException {
        Optional<ReplicaStamp> local = ReplicaStamp.read(ReplicaStamp.localFile(stateDir, j.name()));
        if (j.toPeer() || j.nfs().isPresent()) {
            return local;
        }
        Optional<ReplicaStamp> target = ReplicaStamp.read(ReplicaStamp.targetFile(j.targetPath().orElseThrow(), j.name()));
        if (local.isEmpty()) {
            return target;
        }
        if (target.isEmpty()) {
            return local;
        }
        return Optional.of(target.get().start().isAfter(local.get().start()) ? target.get() : local.get());
    }
}
