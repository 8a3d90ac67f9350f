package org.jheartbeat.core.takeover;

/**
 * Where the takeover machine is in Heartbeat 3.0.6's nice_failback resource protocol
 * ({@code hb_resource.c}: INIT → STARTING → RSCRCVD → STABLE, plus the standby and shutdown phases).
 */
public enum TakeoverState {
    /** Before communication is up: we neither hold nor ask for anything. */
    AWAITING_COMM,
    /** We sent {@code starting} and wait for the peer's {@code resource} answer. */
    NEGOTIATING,
    /**
     * The peer was declared dead without releasing its groups: it is being fenced (STONITH); its
     * groups are taken over only once the fence succeeded (Heartbeat's rule), retried every 5 s.
     */
    FENCING,
    /** Holdings are settled (or being settled after a takeover); requests are accepted. */
    STABLE,
    /** We asked the peer to take a set of our groups ({@code ask_resources info=me}) and are handing it over. */
    STANDBY_GIVING,
    /** The peer is handing us a set of its groups; we start them once it says {@code done}. */
    STANDBY_TAKING,
    /** Stopping every group before {@code shutdone}. */
    SHUTTING_DOWN,
    /** Shutdown complete: nothing runs, nothing more happens. */
    STOPPED
}
