package org.jheartbeat.core.ping;

/**
 * A ping pseudo-node's status, with the words {@code cl_status nodestatus} prints for it (Heartbeat
 * 3.0.6: {@code ping} while it answers, {@code dead} once it has been silent for {@code deadping}).
 */
public enum PingStatus {
    /** Not answered yet and {@code deadping} has not passed since start. */
    INIT("init"),
    /** Answered within the last {@code deadping}. */
    PING("ping"),
    /** Silent for {@code deadping}. */
    DEAD("dead");

    private final String wireName;

    PingStatus(String wireName) {
        this.wireName = wireName;
    }

    /** The word {@code cl_status nodestatus} prints. */
    public String wireName() {
        return wireName;
    }
}
