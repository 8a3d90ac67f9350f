package org.jheartbeat.sync.replication;

/** Why a replication run started. */
public enum RunTrigger {
    /** The job's cron schedule fired on the node that runs its group. */
    SCHEDULE,
    /** {@code hb sync run JOB}. */
    MANUAL,
    /**
     * {@code hb sync run JOB --accept-loss}: the operator says the source's shrinkage is intended;
     * the empty and max_loss guards are skipped for this run.
     */
    MANUAL_ACCEPT_LOSS,
    /**
     * The first scheduled run after this node started the group. The receiver may hold newer data
     * than this node (after a crash, or a hand-over whose final sync failed), so, as for
     * {@link #HANDOVER_AFTER_CRASH}, what the run replaces or deletes there is moved aside.
     */
    FIRST_AFTER_START,
    /** Failback: the group was stopped here and its data goes to the node taking it back. */
    HANDOVER,
    /**
     * As {@link #HANDOVER}, for a group this node took over from a crashed peer: the receiver may
     * hold files written after its last sync before the crash, so every file the run replaces or
     * deletes there is moved into {@code <state_dir>/displaced/<job>/<time>/} on the receiver
     * (rsync {@code --backup-dir}) instead of being lost.
     */
    HANDOVER_AFTER_CRASH;

    /** @return whether what the run replaces or deletes on the receiver is moved aside, not lost */
    public boolean keepsDisplaced() {
        return this == HANDOVER_AFTER_CRASH || this == FIRST_AFTER_START;
    }

    /** @return whether the run hands a group over (HANDOVER or HANDOVER_AFTER_CRASH) */
    public boolean handover() {
        return this == HANDOVER || this == HANDOVER_AFTER_CRASH;
    }
}
