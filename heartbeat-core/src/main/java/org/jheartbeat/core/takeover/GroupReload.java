package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Effect.Announce;

/**
 * What a configuration reload ({@code hb reload}, SIGHUP) does to the {@link TakeoverMachine}'s groups:
 * builds the new {@link GroupSlot}s, carrying a kept group's slot over by key, and remembers by key the
 * groups a reload removed that still matter if a later reload adds them back: those that failed here
 * (offered to the peer: still not ours to start) and those left here as they were (blocked, or running
 * in maintenance; also those the start-up or a failed stop left: {@link #leftUnmanaged}). Also the pure
 * rule deciding whether a group new to haresources is wanted here ({@link #wantedNew}). Mutable (the two
 * records), owned by the machine's thread.
 */
final class GroupReload {
    /**
     * Groups a reload removed after they failed here (and were offered to the peer), by key, with their
     * failure detail and {@link GroupSlot#failedWhat}: a reload adding one back keeps the failure, so the
     * peer's acceptance of our offer, possibly still on its way, is not met by a start here. Forgotten by
     * {@code hb cleanup} of all groups.
     */
    private final Map<String, String[]> removedFailedHere = new HashMap<>();
    /**
     * Groups a reload removed while blocked here or in maintenance and left as they were, a reload's stop of
     * a removed group that failed, and those
     * the start-up found running though haresources no longer defines them and left (in maintenance, or a
     * failed release: BLOCKED). Nothing stops them: they may run here until a reload adds them back. Also,
     * STOPPING, a removed group the reload is stopping, until that stop ends ({@link #stopEnded}). By
     * key, with that state: what runs here for the peer's probe and report, and the state a reload adding
     * one back starts from.
     */
    private final Map<String, GroupState> removedLeftHere = new LinkedHashMap<>();

    /** {@code hb cleanup} of all groups: the failures of removed groups are forgotten too. */
    void forgetRemovedFailures() {
        removedFailedHere.clear();
    }

    /** A group no longer defined was left here in {@code state} (see {@link TakeoverMachine#leftUnmanaged}). */
    void leftUnmanaged(String key, GroupState state) {
        removedLeftHere.put(key, state);
    }

    /** The keys of removed groups left here (running, or blocked: they may run). */
    Set<String> removedLeftRunning() {
        return Set.copyOf(removedLeftHere.keySet());
    }

    /** See {@link TakeoverMachine#removedLeftHere}. */
    Map<String, GroupState> removedLeftHere() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(removedLeftHere));
    }

    /**
     * The reload's stop of removed group {@code key} ended (see {@link TakeoverMachine#removedStopEnded}):
     * forgotten when it succeeded, else left BLOCKED and the peer told ({@code jhb-grpfail stop}, in
     * {@code out}).
     *
     * @return false when that stop was not awaited (a group not being stopped so)
     */
    boolean stopEnded(String key, boolean ok, List<Effect> out) {
        if (removedLeftHere.get(key) != GroupState.STOPPING) {
            return false;
        }
        if (ok) {
            removedLeftHere.remove(key);
        } else {
            removedLeftHere.put(key, GroupState.BLOCKED);
            out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.STOP)));
        }
        return true;
    }

    /** Whether the stop of a group a reload removed is still under way. */
    boolean removedStopping() {
        return removedLeftHere.containsValue(GroupState.STOPPING);
    }

    /**
     * The slots for {@code newGroups}: a kept group's slot carried over by key (the first of a key), a new
     * one STOPPED, or as it was left here, or FAILED (announced again in {@code out}) if it failed here
     * before a reload removed it, else wanted as {@code wantedNew} says. Records the removed groups that
     * failed here or are left here.
     *
     * @param maint the maintenance policy, for the groups left running in maintenance
     */
    List<GroupSlot> regroup(List<GroupSlot> slots, List<ResourceGroupDecl> newGroups, MaintenancePolicy maint,
                            Predicate<ResourceGroupDecl> wantedNew, List<Effect> out) {
        Map<String, Integer> old = new HashMap<>();
        for (int i = 0; i < slots.size(); i++) {
            old.putIfAbsent(slots.get(i).key(), i);
        }
        Set<String> newKeys = new HashSet<>();
        newGroups.forEach(g -> newKeys.add(g.key()));
        for (GroupSlot s : slots) {
            if (s.failedHere && !newKeys.contains(s.key())) {
                removedFailedHere.put(s.key(), new String[] {s.failureDetail, s.failedWhat});
            }
            if (!newKeys.contains(s.key()) && (s.actual == GroupState.BLOCKED
                    || maint.covers(s) && s.actual == GroupState.RUNNING)) {
                removedLeftHere.put(s.key(), s.actual);
            } else if (!newKeys.contains(s.key()) && s.actual == GroupState.RUNNING) {
                // the reload stops it: it may run here, and is reported so, until that stop ends (stopEnded)
                removedLeftHere.put(s.key(), GroupState.STOPPING);
            }
        }
        List<GroupSlot> next = new ArrayList<>(newGroups.size());
        for (ResourceGroupDecl g : newGroups) {
            Integer i = old.get(g.key());
            if (i != null) {
                next.add(slots.get(i).carriedTo(g));
                continue;
            }
            GroupSlot s = new GroupSlot(g);
            next.add(s);
            String[] failed = removedFailedHere.remove(g.key());
            GroupState left = removedLeftHere.remove(g.key());
            if (left != null) {
                s.actual = left; // it ran on, unmanaged, while it was not in haresources
                s.desired = left == GroupState.RUNNING;
                s.failureDetail = left == GroupState.BLOCKED ? "left running here while not in haresources"
                        + " (could not be stopped)" : "";
            } else if (failed != null) {
                s.failedHere = true; // offered to the peer before it was removed: still not ours to start
                s.actual = GroupState.FAILED; // and reported so
                s.failureDetail = failed[0];
                s.failedWhat = failed[1];
                // offered again: a peer that restarted meanwhile forgot the offer, and the failures a
                // node announces to a starting peer did not include a group it did not define then
                out.add(new Announce(new Announcement.GroupFailed(g.key(), GroupFailure.START)));
            } else {
                s.desired = wantedNew.test(g);
            }
        }
        return next;
    }

    /** Whether a group in state {@code there} on the peer may run there (running, starting, stopping, blocked). */
    private static boolean runsThere(GroupState there) {
        return there == GroupState.RUNNING || there == GroupState.STARTING || there == GroupState.STOPPING
                || there == GroupState.BLOCKED;
    }

    /**
     * Whether a group new to our haresources is wanted here in STABLE (the rule is spelled out at
     * {@link TakeoverMachine#regroup}).
     *
     * @param share     what this node holds, relative to itself ({@code rsc_hold})
     * @param report    what the peer's current {@code jhb-groups} report says of the group
     * @param peerAlive whether the peer is alive
     * @param peerHolds what the peer last said it holds, relative to the peer
     */
    static boolean wantedNew(NodeName me, ResourceGroupDecl g, ResourceSet share, GroupPlacement.PeerReport report,
                             boolean peerAlive, ResourceSet peerHolds) {
        boolean ours = g.preferredNode().equals(me);
        boolean weHoldItsKind = ours ? share.includesLocal() : share.includesForeign();
        if (report instanceof GroupPlacement.PeerReport.Reported r && runsThere(r.state())) {
            // also when the peer is dead: its report is dropped when it is fenced or restarts, so a
            // dead peer still reporting the group may run it (our bits may come from a takeover of a
            // peer that "gave up resources" while we did not define this group)
            return false;
        }
        if (!peerAlive) {
            return weHoldItsKind;
        }
        // the peer's bits are relative to the peer: our groups are its foreign ones
        boolean peerHoldsItsKind = ours ? peerHolds.includesForeign() : peerHolds.includesLocal();
        if (report instanceof GroupPlacement.PeerReport.Reported r) {
            GroupState there = r.state();
            return ours || weHoldItsKind || !peerHoldsItsKind || there == GroupState.FAILED;
        }
        if (report instanceof GroupPlacement.PeerReport.Undefined) {
            // the peer's haresources lacks it (not reloaded yet?): it runs nowhere else; a group of the
            // peer's waits for the peer to define it, unless we hold the peer's kind of group
            return ours || weHoldItsKind;
        }
        return weHoldItsKind && !peerHoldsItsKind;
    }
}
