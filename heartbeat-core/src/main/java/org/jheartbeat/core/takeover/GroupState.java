package org.jheartbeat.core.takeover;

/** Run state of one resource group on this node, as the takeover machine tracks it. */
public enum GroupState {
    STOPPED("stopped"),
    STARTING("starting"),
    RUNNING("running"),
    STOPPING("stopping"),
    /** Its start failed and was rolled back: not running here, and not retried automatically. */
    FAILED("failed");

    private final String displayName;

    GroupState(String displayName) {
        this.displayName = displayName;
    }

    /** Lowercase word for {@code hb status}. */
    public String displayName() {
        return displayName;
    }

    @Override
    public String toString() {
        return displayName;
    }
}
