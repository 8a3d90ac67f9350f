package org.jheartbeat.core.takeover;

/**
 * How a group start ended on this node, as the group executor reports it
 * ({@link TakeoverEvent.GroupStarted}). The two failures differ in what is left here: the machine
 * offers a cleanly rolled-back group to the peer, but keeps a group its rollback could not take
 * down BLOCKED here, as after a failed stop (docs/design/takeover.md, "Failures").
 */
public enum StartOutcome {
    /** Every resource of the group runs. */
    STARTED,
    /** The start failed and nothing of the group runs here any more (the rollback stopped it all). */
    FAILED_STOPPED,
    /**
     * The start failed and part of the group still runs here: a rollback stop failed ({@code Resource
     * STOP failure}), or a resource found running before the start was left up.
     */
    FAILED_STILL_RUNNING
}
