package org.jheartbeat.sync.replication;

/** Why a replication run started. */
public enum RunTrigger {
    /** The job's cron schedule fired on the node that runs its group. */
    SCHEDULE,
    /** {@code hb sync run JOB}. */
    MANUAL,
    /** Failback: the group was stopped here and its data goes to the node taking it back. */
    HANDOVER,
    /**
     * As {@link #HANDOVER}, for a group this node took over from a crashed peer: the receiver may
     * hold files written after its last sync before the crash, so every file the run replaces or
     * deletes there is moved into {@code <state_dir>/displaced/<job>/<time>/} on the receiver
     * (rsync {@code --backup-dir}) instead of being lost.
     */
    HANDOVER_AFTER_CRASH;

    /** @return whether the run hands a group over (HANDOVER or HANDOVER_AFTER_CRASH) */
    public boolean handover() {
        return this == HANDOVER || this == HANDOVER_AFTER_CRASH;
    }
}
