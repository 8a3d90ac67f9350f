package org.jheartbeat.core.takeover;

import java.util.Optional;

/**
 * The {@code info} value of an {@code ask_resources} message: the three phases of Heartbeat 3.0.6's
 * standby protocol (facts E.7): the requester says {@code me}, the taker answers {@code other},
 * each side says {@code done} when its part is finished.
 */
public enum StandbyPhase {
    ME("me"),
    OTHER("other"),
    DONE("done");

    private final String wireName;

    StandbyPhase(String wireName) {
        this.wireName = wireName;
    }

    /** The {@code info} spelling. */
    public String wireName() {
        return wireName;
    }

    /** Parses an {@code info} value; empty if unknown. */
    public static Optional<StandbyPhase> fromWire(String s) {
        for (StandbyPhase p : values()) {
            if (p.wireName.equals(s)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
