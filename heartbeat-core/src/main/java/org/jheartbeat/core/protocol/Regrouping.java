package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.TakeoverState;

/**
 * The rules of a change of the resource group list by a configuration reload: when the list may change
 * (no group in flux), which kinds of group a node has ({@code rsc_hold}'s {@code local} and {@code foreign}
 * bits), and which groups left running after their removal are managed, so watched, again once the list
 * has them back. Pure and stateless: the takeover machine's view comes in as arguments.
 */
final class Regrouping {
    private Regrouping() {
    }

    /**
     * Whether the resource groups may change now: no group is starting or stopping, and the machine is
     * awaiting comm, negotiating or stable (not in a standby exchange, fencing or shutting down).
     *
     * @param phase  the takeover machine's phase
     * @param groups how many groups there are
     * @param state  a group's state here, by index
     */
    static boolean quiet(TakeoverState phase, int groups, IntFunction<GroupState> state) {
        if (phase != TakeoverState.AWAITING_COMM && phase != TakeoverState.NEGOTIATING
                && phase != TakeoverState.STABLE) {
            return false;
        }
        for (int i = 0; i < groups; i++) {
            GroupState g = state.apply(i);
            if (g == GroupState.STARTING || g == GroupState.STOPPING) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code node} is the preferred node of some group in {@code groups}. */
    static boolean prefersAny(List<ResourceGroupDecl> groups, NodeName node) {
        return groups.stream().anyMatch(g -> g.preferredNode().equals(node));
    }

    /**
     * The groups removed from haresources but left running here ({@code left}, by key) that the new list
     * has again, outside maintenance and running here: managed again, so watched, as when adopted.
     *
     * @return a {@link Effect.WatchGroup} for each, in list order
     */
    static List<Effect> watchedAgain(Set<String> left, List<ResourceGroupDecl> groups, IntPredicate inMaintenance,
                                     IntFunction<GroupState> state) {
        List<Effect> out = new ArrayList<>();
        for (int j = 0; j < groups.size(); j++) {
            if (left.contains(groups.get(j).key()) && !inMaintenance.test(j) && state.apply(j) == GroupState.RUNNING) {
                out.add(new Effect.WatchGroup(j, true));
            }
        }
        return out;
    }
}
