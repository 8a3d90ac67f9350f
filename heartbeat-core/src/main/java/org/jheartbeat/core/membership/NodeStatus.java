package org.jheartbeat.core.membership;

import java.util.Optional;

/**
 * A node's status as Heartbeat 3.0.6 names it ({@code heartbeat.h}, {@code cl_status nodestatus}):
 * {@code init}, {@code up} and {@code active} are what a node reports about itself in the {@code st}
 * field of its {@code status} messages; {@code dead} is decided locally when its heartbeats stop.
 */
public enum NodeStatus {
    /** Just started, or never heard from yet. */
    INIT("init"),
    /** Beating, but communication with all nodes is not yet established. */
    UP("up"),
    /** Beating and communication is up: the node takes part in resource decisions. */
    ACTIVE("active"),
    /** No heartbeat within its dead time (or it announced a clean shutdown). */
    DEAD("dead");

    private final String wireName;

    NodeStatus(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling in the {@code st} field and in {@code cl_status} output. */
    public String wireName() {
        return wireName;
    }

    /** Parses an {@code st} value; empty if it is not one of the four words. */
    public static Optional<NodeStatus> fromWire(String s) {
        for (NodeStatus st : values()) {
            if (st.wireName.equals(s)) {
                return Optional.of(st);
            }
        }
        return Optional.empty();
    }

    /** Whether a node with this status counts as alive ({@code up} or {@code active}, or {@code init} once heard). */
    public boolean isAlive() {
        return this != DEAD;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
