package org.jheartbeat.resources.group;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which resources of a group are running here.
 *
 * @param key     the group key (first resource token)
 * @param running resource token to running flag, in group order
 */
public record GroupStatus(String key, Map<String, Boolean> running) {
    /** Summary of a group's resources. */
    public enum GroupState {
        /** every resource is running. */
        RUNNING,
        /** some but not all are running. */
        PARTIAL,
        /** none is running. */
        STOPPED
    }

    public GroupStatus {
        Objects.requireNonNull(key, "key");
        running = Collections.unmodifiableMap(new LinkedHashMap<>(running));
    }

    /** @return RUNNING, PARTIAL or STOPPED */
    public GroupState summary() {
        long up = running.values().stream().filter(Boolean::booleanValue).count();
        return up == running.size() ? GroupState.RUNNING : up == 0 ? GroupState.STOPPED : GroupState.PARTIAL;
    }
}
