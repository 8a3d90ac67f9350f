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
 * rule deciding whether a group new to haresources is wanted here ({@link #wantedNew}). The public
 * methods are the machine's reload and its removed groups as its owner drives and reads them
 * ({@link TakeoverMachine#reload}). Mutable (the two records), owned by the machine's thread.
 */
public final class GroupReload {
    private final TakeoverMachine m;
    /**
     * Groups a reload removed after they failed here (and were offered to the peer), by key, with their
     * failure detail and {@link GroupSlot#failedWhat}: a reload adding one back keeps the failure, so the
     * peer's acceptance of our offer, possibly still on its way, is not met by a start here. Forgotten by
     * {@code hb cleanup} of all groups.
     */
    private final Map<String, FailedHere> removedFailedHere = new HashMap<>();
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

    /** A removed group's failure here: its detail and how it failed. */
    private record FailedHere(String detail, GroupSlot.FailedHow how) { }

    GroupReload(TakeoverMachine machine) {
        this.m = machine;
    }

    /** {@code hb cleanup} of all groups: the failures of removed groups are forgotten too. */
    void forgetRemovedFailures() {
        removedFailedHere.clear();
    }

    /**
     * Group {@code key}, which haresources no longer defines, was left here as it is: the start-up found it
     * running and left it ({@code state} RUNNING: in maintenance; BLOCKED: its release failed), or a reload's
     * stop of it failed (BLOCKED). It counts as running here ({@link #removedLeftRunning}) until a reload
     * adds it back in that state. Ignored for a group defined now (added back meanwhile).
     */
    public void leftUnmanaged(String key, GroupState state) {
        if (m.slots.stream().noneMatch(s -> s.key().equals(key))) {
            removedLeftHere.put(key, state);
        }
    }

    /**
     * The groups a reload removed while in maintenance here that were left running (or blocked: they may
     * run) and have not been added back, by key: they run here as far as this node knows.
     */
    public Set<String> removedLeftRunning() {
        return Set.copyOf(removedLeftHere.keySet());
    }

    /**
     * The groups haresources no longer defines that may still run here, by key, with their state: stopping while
     * the reload that removed them stops them, blocked when that stop failed (or they were), running when left in
     * maintenance. The peer is told them in our {@code jhb-groups}: it may still define them, and must not start
     * them meanwhile (Pacemaker likewise keeps an orphaned resource active in its status until it is stopped).
     */
    public Map<String, GroupState> removedLeftHere() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(removedLeftHere));
    }

    /**
     * The reload's stop of removed group {@code key} ended: it no longer runs here ({@code ok}), or it may and is
     * left BLOCKED, unmanaged, as {@link #leftUnmanaged}; the peer, which may still define it, is told not to
     * start it ({@code jhb-grpfail stop}, as for a group of ours whose stop failed: it holds beyond our shutdown);
     * and a shutdown that waited for the stop goes on.
     *
     * @param nowNanos the current monotonic time, as for {@link TakeoverMachine#on}
     * @return the effects; empty when that stop was not awaited (a group not being stopped so)
     */
    public List<Effect> removedStopEnded(String key, boolean ok, long nowNanos) {
        List<Effect> out = new ArrayList<>();
        if (!stopEnded(key, ok, out)) {
            return out;
        }
        out.addAll(m.on(new TakeoverEvent.Tick(), nowNanos)); // settles: a shutdown waits for such a stop
        return out;
    }

    /**
     * Forgets the stopped removed group {@code key}, or leaves it BLOCKED and tells the peer ({@code jhb-grpfail
     * stop}, in {@code out}).
     *
     * @return false when that stop was not awaited (a group not being stopped so)
     */
    private boolean stopEnded(String key, boolean ok, List<Effect> out) {
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
    public boolean removedStopping() {
        return removedLeftHere.containsValue(GroupState.STOPPING);
    }

    /**
     * A configuration reload changed the resource groups ({@code hb reload}, SIGHUP): from now on
     * the machine works on {@code newGroups} (indices in effects and events refer to this list).
     * What it knew of each group (run state, desired, failures here and on the peer, disputed) is
     * carried over by group key; a group whose key is gone is forgotten (the caller stops it if it
     * runs). A new group starts STOPPED and, in STABLE, is wanted here from what runs: never when
     * the live peer's own report ({@code jhb-groups}) says it runs, starts, stops or is blocked
     * there; when that report says it runs nowhere there (stopped or failed), when this node is its
     * preferred node, holds that kind of group ({@code share}, Heartbeat's {@code rsc_hold} bits:
     * {@code local} for groups preferred by this node, {@code foreign} for the peer's), or the peer's
     * bits do not cover it (the peer will not start it); when the peer's haresources lacks it, when
     * this node is its preferred node or {@code share} covers it;
     * without a report (a Heartbeat 3.0.6 peer, or none yet), when {@code share} covers it and the
     * live peer's bits do not; with the peer not alive, when {@code share} covers it and the dead
     * peer's last report (kept until it is fenced or restarts) does not say it runs there. Before STABLE
     * the negotiation decides, as for every group. Nothing is started here: the next event reconciles (the engine feeds
     * {@link TakeoverEvent.GroupsDisputed} right after, with the disputes of the new list). In STABLE
     * the holdings are announced once the groups settle.
     *
     * @param newGroups the haresources groups after the reload, in file order
     * @param share     what this node holds, relative to itself ({@code rsc_hold})
     * @param peerReport what the peer's current {@code jhb-groups} report says of a group key
     * @return announcements to make: the failure of a group added back that failed here before its removal
     * @throws IllegalStateException when a group is starting or stopping (its result would come back
     *                               under a stale index), or the machine is not AWAITING_COMM,
     *                               NEGOTIATING or STABLE
     */
    public List<Effect> regroup(List<ResourceGroupDecl> newGroups, ResourceSet share,
                                java.util.function.Function<String, GroupPlacement.PeerReport> peerReport) {
        List<Effect> out = new ArrayList<>();
        for (GroupSlot s : m.slots) {
            if (s.actual == GroupState.STARTING || s.actual == GroupState.STOPPING) {
                throw new IllegalStateException("resource groups are starting or stopping");
            }
        }
        TakeoverState state = m.state;
        if (state != TakeoverState.AWAITING_COMM && state != TakeoverState.NEGOTIATING
                && state != TakeoverState.STABLE) {
            throw new IllegalStateException("resource groups cannot change in state " + state);
        }
        m.slots = regroup(m.slots, newGroups, m.maint, g -> state == TakeoverState.STABLE
                && wantedNew(m.me, g, share, peerReport.apply(g.key()), m.peerPresence.alive(), m.peerHolds), out);
        if (state == TakeoverState.STABLE && m.settleInfo == null) {
            m.settleInfo = Settlement.CONFIG; // announce what we hold once the new groups have started
        }
        return out;
    }

    /**
     * The slots for {@code newGroups}: a kept group's slot carried over by key (the first of a key), a new
     * one STOPPED, or as it was left here, or FAILED (announced again in {@code out}) if it failed here
     * before a reload removed it, else wanted as {@code wantedNew} says. Records the removed groups that
     * failed here or are left here.
     *
     * @param maint the maintenance policy, for the groups left running in maintenance
     */
    private List<GroupSlot> regroup(List<GroupSlot> slots, List<ResourceGroupDecl> newGroups, MaintenancePolicy maint,
                            Predicate<ResourceGroupDecl> wantedNew, List<Effect> out) {
        Map<String, Integer> old = new HashMap<>();
        for (int i = 0; i < slots.size(); i++) {
            old.putIfAbsent(slots.get(i).key(), i);
        }
        Set<String> newKeys = new HashSet<>();
        newGroups.forEach(g -> newKeys.add(g.key()));
        for (GroupSlot s : slots) {
            if (s.failedHere && !newKeys.contains(s.key())) {
                removedFailedHere.put(s.key(), new FailedHere(s.failureDetail, s.failedWhat));
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
            FailedHere failed = removedFailedHere.remove(g.key());
            GroupState left = removedLeftHere.remove(g.key());
            if (left != null) {
                s.actual = left; // it ran on, unmanaged, while it was not in haresources
                s.desired = left == GroupState.RUNNING;
                s.failureDetail = left == GroupState.BLOCKED ? "left running here while not in haresources"
                        + " (could not be stopped)" : "";
            } else if (failed != null) {
                s.failedHere = true; // offered to the peer before it was removed: still not ours to start
                s.actual = GroupState.FAILED; // and reported so
                s.failureDetail = failed.detail();
                s.failedWhat = failed.how();
                // offered again: a peer that restarted meanwhile forgot the offer, and the failures a
                // node announces to a starting peer did not include a group it did not define then
                out.add(new Announce(new Announcement.GroupFailed(g.key(), GroupFailure.START)));
            } else {
                s.desired = wantedNew.test(g);
            }
        }
        return next;
    }

    /**
     * Whether a group new to our haresources is wanted here in STABLE (the rule is spelled out at
     * {@link #regroup(List, ResourceSet, java.util.function.Function)}).
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
        if (report instanceof GroupPlacement.PeerReport.Reported r && GroupState.occupies(r.state())) {
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
