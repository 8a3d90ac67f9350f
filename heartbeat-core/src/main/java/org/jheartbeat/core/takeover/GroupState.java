package org.jheartbeat.core.takeover;

/** Run state of one resource group on this node, as the takeover machine tracks it. */
public enum GroupState {
    STOPPED("stopped"),
    STARTING("starting"),
    RUNNING("running"),
    STOPPING("stopping"),
    /** Its start failed and was rolled back: not running here, and not retried until an operator clears it. */
    FAILED("failed"),
    /**
     * Its stop failed: it may still run here, nothing starts or stops it any more, and the peer is told
     * not to start it, until it is fenced or an operator clears it ({@code hb cleanup}).
     */
    BLOCKED("blocked");

    private final String displayName;

    GroupState(String displayName) {
        this.displayName = displayName;
    }

    /** Lowercase word for {@code hb status}. */
    public String displayName() {
        return displayName;
    }

    /**
     * The state whose {@link #displayName()} is {@code word}.
     *
     * @throws IllegalArgumentException for any other word
     */
    public static GroupState ofDisplayName(String word) {
        for (GroupState s : values()) {
            if (s.displayName.equals(word)) {
                return s;
            }
        }
        throw new IllegalArgumentException("not a group state: " + word);
    }

    /** Whether a node in state {@code s} (null: the group is not defined there) may run the group. */
    static boolean occupies(GroupState s) {
        return s == RUNNING || s == STARTING || s == STOPPING || s == BLOCKED;
    }

    @Override
    public String toString() {
        return displayName;
    }
}
