package org.jheartbeat.resources.monitor;

/** What a failed monitor leads to ({@link FailCounts#onFailure}). */
public enum MonitorVerdict {
    /** Stop and start the resource where it is (Pacemaker {@code on-fail=restart}). */
    RESTART_IN_PLACE,
    /**
     * The restarts allowed within the window are used up: the whole group leaves this node, to the
     * peer if it is up and clean, else it stays stopped here with a CRIT (Pacemaker's
     * {@code migration-threshold} reached).
     */
    MOVE_GROUP
}
