package org.jheartbeat.core.takeover;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;

/**
 * The maintenance policy of the {@link TakeoverMachine} (docs/design/takeover.md, "Maintenance"): the
 * cluster's maintenance setting, which groups it keeps out of the protocol here and why (the setting
 * itself, the peer's node maintenance, a group found running on both nodes when maintenance ended
 * ({@link GroupSlot#unmanaged}), a group the restarted peer's previous run left running
 * ({@link GroupSlot#peerLeftRunning})), and what leaving maintenance does: a group running here is
 * adopted, one running on the peer is left there, one running nowhere is started by the node it belongs
 * to, one running on both is left alone. A group in maintenance is never started, stopped or watched.
 * Works on the machine's {@link GroupSlot}s; the machine's state and the peer's liveness come in as
 * arguments. The public methods are the machine's maintenance as its owner reads and sets it
 * ({@link TakeoverMachine#maintenancePolicy}). Mutable (the setting), owned by the machine's thread.
 */
public final class MaintenancePolicy {
    private final TakeoverMachine m;
    private final NodeName me;
    private final NodeName peer;
    /** The cluster's maintenance setting: groups it covers are left as they are. */
    private Maintenance setting = Maintenance.NONE;

    MaintenancePolicy(TakeoverMachine machine) {
        this.m = machine;
        this.me = machine.me;
        this.peer = machine.peer;
    }

    /** The maintenance setting the machine works with. */
    public Maintenance setting() {
        return setting;
    }

    /**
     * Sets the maintenance setting before the machine runs (the state file at start-up); events after
     * that go through {@link TakeoverEvent.MaintenanceSet}.
     */
    public void atStartup(Maintenance next) {
        setting = next;
    }

    /**
     * Marks group {@code i} as running here before the machine runs: a daemon that starts in
     * maintenance found it running and leaves it so.
     */
    public void runningAtStartup(int i) {
        m.slots.get(i).actual = GroupState.RUNNING;
        m.slots.get(i).desired = true;
    }

    /**
     * Whether group {@code i} is in maintenance here: the setting covers it as this node sees it
     * (cluster-wide, this node, the group), or the peer is in node maintenance and the group does not
     * run here (it may run there: the peer's groups are left alone), or it was found running on both
     * nodes when its maintenance ended.
     */
    public boolean covers(int i) {
        return covers(m.slots.get(i));
    }

    /** Why group {@code i} is in maintenance here, for logs and {@code hb status}; empty when it is not. */
    public String reason(int i) {
        return reason(m.slots.get(i));
    }

    /**
     * The groups that are in maintenance here now and would not be under {@code next}: those to probe
     * before feeding {@link TakeoverEvent.MaintenanceSet} with {@code next}.
     */
    public Set<Integer> leaving(Maintenance next) {
        return leaving(m.slots, next);
    }

    /**
     * The restarted peer said, before it stopped, that it ran these groups (in maintenance, its last
     * {@code jhb-maint}; or at all, its last {@code jhb-groups}): its new daemon may have kept them running
     * (a maintenance setting on disk, also one whose message was lost on the way here), so they are left
     * alone here, as in maintenance, until {@link #peerReported(int, boolean, List)} says where they run.
     * Heartbeat's rule that a restarted node holds nothing does not hold for a jheartbeat peer. A group that
     * runs here is not affected. jheartbeat only: a Heartbeat 3.0.6 peer sends no such report.
     */
    public void peerLeftRunning(Set<Integer> groupsThere, List<Effect> out) {
        peerLeftRunning(groupsThere, m.slots, out);
    }

    /**
     * The peer's own account of group {@code i} ({@code jhb-groups}, or the confirmed fence: nothing runs
     * there) ends a wait of {@link #peerLeftRunning(Set, List)}: when it runs there it is left there, else
     * the protocol decides as for any group (the next event reconciles).
     *
     * @return whether it ended such a wait
     */
    public boolean peerReported(int i, boolean runsThere, List<Effect> out) {
        return peerReported(m.slots.get(i), runsThere, m.peerPresence, out);
    }

    /**
     * MaintenanceSet (any state but STOPPED): see {@link #apply}; in STABLE, what we hold is announced once
     * any start ends.
     *
     * @return whether the event is a MaintenanceSet (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out) {
        if (!(event instanceof TakeoverEvent.MaintenanceSet e)) {
            return false;
        }
        boolean changed = apply(e, m.slots, m.state, m.peerPresence.alive(), out);
        if (changed && m.state == TakeoverState.STABLE && m.settleInfo == null) {
            m.settleInfo = Settlement.MAINTENANCE;
        }
        return true;
    }

    /**
     * Whether the group is in maintenance here: the setting covers it as this node sees it (cluster-wide,
     * this node, the group), or the peer is in node maintenance and the group does not run here (it may
     * run there: the peer's groups are left alone), or it is left unmanaged or left running by the peer.
     */
    boolean covers(GroupSlot s) {
        if (s.unmanaged || s.peerLeftRunning || setting.covers(me, s.key())) {
            return true;
        }
        return setting.nodes().contains(peer.value()) && s.actual != GroupState.RUNNING
                && s.actual != GroupState.STARTING && s.actual != GroupState.STOPPING && s.actual != GroupState.BLOCKED;
    }

    /** Why the group is in maintenance here, for logs and {@code hb status}; empty when it is not. */
    String reason(GroupSlot s) {
        String r = setting.reason(me, s.key());
        if (!r.isEmpty()) {
            return r;
        }
        if (s.unmanaged) {
            return "found running on both " + me + " and " + peer + " when maintenance ended: stop it on one node,"
                    + " then run 'hb maintenance off' again";
        }
        if (s.peerLeftRunning) {
            return peer + " stopped or restarted after it last reported it running there (it may still run there, as in"
                    + " maintenance); waiting for " + peer + "'s own report of it";
        }
        return covers(s) ? "node " + peer : "";
    }

    /** The groups in maintenance here now that would not be under {@code next}, by index. */
    private Set<Integer> leaving(List<GroupSlot> slots, Maintenance next) {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < slots.size(); i++) {
            GroupSlot s = slots.get(i);
            if (covers(s) && !next.covers(me, s.key())
                    && !(next.nodes().contains(peer.value()) && s.actual != GroupState.RUNNING)) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * Takes the new setting of {@code e}: groups that enter maintenance are no longer watched (their state
     * here is kept as it was); probed groups that leave it take what runs as their state: running here is
     * adopted (never restarted), running on the peer is left there, running nowhere is started by the node
     * it belongs to (its preferred node, or this one when the peer is not alive; decided only in STABLE,
     * in any other state the protocol decides), running on both is refused: left alone here, CRIT.
     *
     * @param state     the machine's state
     * @param peerAlive whether the peer is alive ({@link PeerPresence#alive})
     * @return whether a group left maintenance and is managed again (the holdings are to be announced)
     */
    boolean apply(TakeoverEvent.MaintenanceSet e, List<GroupSlot> slots, TakeoverState state, boolean peerAlive,
                  List<Effect> out) {
        boolean[] was = new boolean[slots.size()];
        for (int i = 0; i < slots.size(); i++) {
            was[i] = covers(slots.get(i));
        }
        Maintenance before = setting;
        setting = e.setting();
        if (!before.describe().equals(setting.describe())) {
            out.add(new LogLine(Level.INFO, "Maintenance mode: " + setting.describe() + " (was " + before.describe()
                    + ")"));
        }
        boolean changed = false;
        for (int i = 0; i < slots.size(); i++) {
            GroupSlot s = slots.get(i);
            String key = s.key();
            if (e.probed().contains(i) && !setting.covers(me, key)) {
                boolean here = e.runsHere().contains(i);
                boolean partly = e.partlyHere().contains(i);
                boolean there = e.runsOnPeer().contains(i);
                s.unmanaged = false;
                if (s.actual == GroupState.STARTING || s.actual == GroupState.STOPPING) {
                    out.add(new LogLine(Level.INFO, "Resource group " + key + " is " + s.actual.displayName()
                            + ": the operation issued before its maintenance decides where it ends"));
                    continue;
                }
                if ((here || partly) && there) {
                    s.unmanaged = true;
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " runs on both " + me + " and " + peer
                            + ": left alone here; stop it on the node it should not run on, then run"
                            + " 'hb maintenance off' again"));
                    continue;
                }
                changed = true;
                if (s.actual == GroupState.BLOCKED) {
                    continue; // may run here, unknown: only hb cleanup frees it
                }
                if (here) {
                    s.actual = GroupState.RUNNING;
                    s.desired = state != TakeoverState.SHUTTING_DOWN; // shutting down: adopted, then stopped
                    out.add(new LogLine(Level.INFO, "Resource group " + key + " runs on " + me + ": adopted as it is"));
                    out.add(new Effect.WatchGroup(i, true));
                } else if (partly) {
                    s.actual = s.failedHere ? GroupState.FAILED : GroupState.STOPPED;
                    s.desired |= state == TakeoverState.STABLE;
                    out.add(new LogLine(Level.INFO, "Resource group " + key + " runs partly on " + me
                            + ": starting the rest of it here"));
                } else {
                    s.actual = s.failedHere ? GroupState.FAILED : GroupState.STOPPED;
                    if (state == TakeoverState.STABLE) {
                        // in any other state the protocol decides: the negotiation, the takeover after a fence,
                        // the standby exchange in progress, the shutdown
                        s.desired = !there && (!peerAlive || s.decl.preferredNode().equals(me));
                    }
                    out.add(new LogLine(Level.INFO, "Resource group " + key + (there ? " runs on " + peer
                            + ": left there" : " runs nowhere: " + (s.desired ? "starting it on " + me
                            : "it belongs to " + peer))));
                }
            } else if (!was[i] && covers(s)) {
                out.add(new LogLine(Level.INFO, "Resource group " + key + " is in maintenance ("
                        + reason(s) + "): left " + (s.actual == GroupState.RUNNING ? "running" : "as it is")
                        + " here, not watched, not moved"));
                out.add(new Effect.WatchGroup(i, false));
            }
        }
        return changed;
    }

    /**
     * The restarted peer's previous run left these groups running (see
     * {@link #peerLeftRunning(Set, List)}): those stopped or failed here are left alone until its
     * report of them ({@link #peerReported}).
     */
    private void peerLeftRunning(Set<Integer> groupsThere, List<GroupSlot> slots, List<Effect> out) {
        for (int i : groupsThere) {
            if (i < slots.size() && (slots.get(i).actual == GroupState.STOPPED
                    || slots.get(i).actual == GroupState.FAILED)) {
                slots.get(i).peerLeftRunning = true;
                out.add(new LogLine(Level.WARN, "Resource group " + slots.get(i).key() + ": " + reason(slots.get(i))
                        + "; not started here meanwhile"));
            }
        }
    }

    /**
     * The peer's own account of the group ends a wait of {@link #peerLeftRunning(Set, List)} (see
     * {@link #peerReported(int, boolean, List)}).
     *
     * @param presence the peer as the machine sees it
     * @return whether it ended such a wait
     */
    private boolean peerReported(GroupSlot s, boolean runsThere, PeerPresence presence, List<Effect> out) {
        if (!s.peerLeftRunning) {
            return false;
        }
        s.peerLeftRunning = false;
        boolean peerAlive = presence != PeerPresence.LOST && presence != PeerPresence.GONE
                && presence != PeerPresence.UNKNOWN;
        if (runsThere || peerAlive && !s.decl.preferredNode().equals(me)) {
            // a live peer's own group that does not run there is its to take (it negotiates after its
            // restart, and our answers never claimed it while it was held here): a death declared meanwhile
            // must not start it here as the peer starts it
            s.desired = false;
        }
        out.add(new LogLine(Level.INFO, "Resource group " + s.key() + (runsThere ? " runs on " + peer
                + " by its report: left there" : " does not run on " + peer + " by its report: managed again")));
        return true;
    }
}
