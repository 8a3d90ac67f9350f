package org.jheartbeat.core.membership;

/**
 * Status of one link, i.e. one (peer node, local medium) path, as {@code cl_status hblinkstatus}
 * reports it. {@code init} means nothing has arrived on it yet.
 */
public enum LinkStatus {
    INIT("init"),
    UP("up"),
    DEAD("dead");

    private final String wireName;

    LinkStatus(String wireName) {
        this.wireName = wireName;
    }

    /** The spelling shown by {@code hb status} and {@code cl_status}. */
    public String wireName() {
        return wireName;
    }

    @Override
    public String toString() {
        return wireName;
    }
}
