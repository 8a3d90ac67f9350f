package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.GroupState;

/**
 * Groups by key, as the peer's messages name them ({@code jhb-maint}, {@code jhb-grpfail}): a key's index in
 * our haresources, and the keys of what runs here. Pure and stateless.
 */
final class GroupKeys {
    private GroupKeys() {
    }

    /** The index of the group {@code key} in {@code groups}, or -1 when haresources does not define it. */
    static int index(List<ResourceGroupDecl> groups, String key) {
        for (int i = 0; i < groups.size(); i++) {
            if (groups.get(i).key().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The keys of the groups running here: those of {@code groups} in state RUNNING, in haresources order,
     * then {@code removedLeftRunning} (removed from haresources by a reload, left running here).
     *
     * @param state a group's state here, by index
     */
    static List<String> running(List<ResourceGroupDecl> groups, IntFunction<GroupState> state,
                                Set<String> removedLeftRunning) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            if (state.apply(i) == GroupState.RUNNING) {
                keys.add(groups.get(i).key());
            }
        }
        keys.addAll(removedLeftRunning);
        return keys;
    }
}
