package org.jheartbeat.core.takeover;

/**
 * Where a node is in Heartbeat 3.0.6's standby exchange ({@code ask_resources} {@code me} →
 * {@code other} → stops → {@code done} → starts → {@code done}; {@code hb_resource.c}), as a
 * sub-state of {@link TakeoverState#STANDBY_GIVING} and {@link TakeoverState#STANDBY_TAKING}.
 */
enum StandbyStep {
    /** Not in an exchange. */
    NONE,
    /** Giving: sent {@code me}, waiting for {@code other}. Taking: sent {@code other}, waiting for {@code done}. */
    AWAITING_PEER,
    /** Giving: the peer said {@code other}; stopping the set. */
    RELEASING,
    /** Giving: the set is stopped and {@code done} sent; waiting for the peer's {@code done}. */
    RELEASED,
    /** Taking: the peer said {@code done}; starting the set. */
    ACQUIRING
}
