package org.jheartbeat.sync.replication;

/** Why a replication run started. */
public enum RunTrigger {
    /** The job's cron schedule fired on the node that runs its group. */
    SCHEDULE,
    /** {@code hb sync run JOB}. */
    MANUAL,
    /** Failback: the group was stopped here and its data goes to the node taking it back. */
    HANDOVER
}
