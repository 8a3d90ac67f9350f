package org.jheartbeat.core.journal;

import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of event the journal keeps. The wire name ({@link #wire()}) is the enum name in lower
 * case with dashes ({@code NODE_DEAD} is {@code node-dead}); it is what {@code hb events --json}
 * prints, what alert filters in jheartbeat.yaml name and what alert scripts get in
 * {@code HB_EVENT_KIND}, so a name once released never changes.
 */
public enum EventKind {
    /** This daemon started (subject: this node; cause: version). */
    DAEMON_START,
    /** This daemon is stopping (subject: this node; cause: why). */
    DAEMON_STOP,
    /** A node was declared dead after deadtime (subject: node; duration: how long it was silent). */
    NODE_DEAD,
    /** A node was heard again or for the first time (subject: node). */
    NODE_ALIVE,
    /** A link (medium) to a node stopped carrying beats (subject: {@code node/link}). */
    LINK_DOWN,
    /** A link to a node carries beats again (subject: {@code node/link}). */
    LINK_UP,
    /** A beat came after warntime (subject: node; duration: the interval). */
    LATE_BEAT,
    /** STONITH was asked to fence a node (subject: node; cause: why). */
    FENCE_ASKED,
    /** The fencing device confirmed the node is off (subject: node; duration: since asked). */
    FENCE_CONFIRMED,
    /** Fencing failed (subject: node; cause: the device's answer; duration: since asked). */
    FENCE_FAILED,
    /** A resource group's start began (subject: group; cause: the reason). */
    GROUP_STARTING,
    /** A resource group started (subject: group; duration: the start's length). */
    GROUP_STARTED,
    /**
     * A group started here was seen serving: every resource monitoring watches in it answered "running" to its
     * first check after the start (subject: group; cause: those resources; duration: ms from the end of the
     * start to that check). Once per start; never for a group of which nothing is monitored, nor for one adopted
     * running when its maintenance ended. The last step of a failover on the console's timeline.
     */
    GROUP_SERVED,
    /** A resource group failed to start (subject: group; cause: the failing resource's answer). */
    GROUP_START_FAILED,
    /** A resource group's stop began (subject: group; cause: the reason). */
    GROUP_STOPPING,
    /** A resource group stopped (subject: group; duration: the stop's length). */
    GROUP_STOPPED,
    /** A resource group failed to stop (subject: group; cause: the failing resource's answer). */
    GROUP_STOP_FAILED,
    /** A monitor found a running resource failed (subject: group; cause: resource and answer). */
    MONITOR_FAILED,
    /** A standby (give resources to the peer) was asked (subject: the set; by: who asked). */
    STANDBY,
    /** A takeover (take resources from the peer) was asked (subject: the set; by: who asked). */
    TAKEOVER,
    /** Groups went back to their home node (subject: the set or group). */
    FAILBACK,
    /** A group's failure record was cleared (subject: group; by: who asked). */
    CLEANUP,
    /** Maintenance mode was turned on (subject: its scope; by: who asked). */
    MAINTENANCE_ON,
    /** Maintenance mode was turned off (subject: its scope; by: who asked). */
    MAINTENANCE_OFF,
    /** The two nodes disagree on the configuration or on who runs a group (subject: what; cause: how). */
    CONFIG_DISPUTE,
    /** The configuration was reloaded (cause: what changed or why it was refused; by: who asked). */
    RELOAD,
    /** The director took a real server out of a virtual service (subject: {@code vip:port/real:port}). */
    REAL_DOWN,
    /** The director put a real server back into a virtual service (subject as {@link #REAL_DOWN}). */
    REAL_UP;

    /** The wire name: {@code node-dead} for {@code NODE_DEAD}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind with wire name {@code text} ({@code node-dead}), or empty if none has it. */
    public static Optional<EventKind> fromWire(String text) {
        for (EventKind k : values()) {
            if (k.wire().equals(text)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
