package org.jheartbeat.sync.replication;

/** Outcome of a job's latest run, as kept in its state file and shown by {@code hb sync status}. */
public enum JobResult {
    /** The job has never run on this node. */
    NEVER,
    /** A run is in progress (or the process died during one: check the lock). */
    RUNNING,
    /** rsync exit 0. */
    OK,
    /** rsync exit 24: done, but source files vanished during the run. */
    PARTIAL,
    /** A guard refused the run; nothing was copied or deleted. */
    REFUSED,
    /** Transient rsync failure (network, ssh, timeout) after every retry. */
    FAILED_TRANSIENT,
    /** Fatal rsync failure: needs a human. */
    FAILED_FATAL,
    /**
     * The scheduled run did not start: the job's NFS server is the peer, which is dead (its mount would
     * hang); the job runs again once the peer is back. The last success and its counts are kept.
     */
    SKIPPED;

    /** @return {@code true} for OK and PARTIAL: the replica now matches the source of the run */
    public boolean success() {
        return this == OK || this == PARTIAL;
    }
}
