package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.TakeoverEvent.CommUp;
import org.jheartbeat.core.takeover.TakeoverEvent.GroupStarted;
import org.jheartbeat.core.takeover.TakeoverEvent.GroupStopped;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerAskResources;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerDead;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerResources;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerRestarted;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerShutdown;
import org.jheartbeat.core.takeover.TakeoverEvent.PeerStarting;
import org.jheartbeat.core.takeover.TakeoverEvent.ShutdownRequested;
import org.jheartbeat.core.takeover.TakeoverEvent.StandbyRequested;
import org.jheartbeat.core.takeover.TakeoverEvent.Tick;

/**
 * Decides which resource groups run on this node, following Heartbeat 3.0.6's nice_failback
 * protocol ({@code hb_resource.c}; facts E.5–E.8). Pure: no clock, no threads, no I/O. The loop feeds
 * it {@link TakeoverEvent}s with the current monotonic time and executes the returned
 * {@link Effect}s in order.
 *
 * <p>The machine keeps a <em>desired</em> run state per group and reconciles the actual state towards
 * it, one start or stop per group at a time. Protocol messages that report holdings are sent only once
 * the groups have settled, so the peer never starts a group this node has not finished stopping.
 *
 * <pre>
 *  state \ event    CommUp      PeerResources         PeerAskResources    PeerDead/PeerShutdown   ShutdownRequested
 *  AWAITING_COMM    NEGOTIATING  (view only)           ignored             take all → STABLE       SHUTTING_DOWN
 *  NEGOTIATING      -            take local or none    ignored             take all → STABLE       SHUTTING_DOWN
 *                                → STABLE
 *  STABLE           -            audit; auto-failback  me → STANDBY_TAKING take all                SHUTTING_DOWN
 *                                → STANDBY_GIVING
 *  STANDBY_GIVING   -            (view only)           other → release;    take all → STABLE       SHUTTING_DOWN
 *                                                      done → STABLE
 *  STANDBY_TAKING   -            (view only)           done → acquire      take all → STABLE       SHUTTING_DOWN
 *                                                      → STABLE
 *  FENCING          -            (view only)           ignored             ignored                 SHUTTING_DOWN
 *                   FenceOutcome ok → take all → STABLE; failed → retry every 5 s (Tick);
 *                   delayed (fence_delay, not yet fenced): Tick at its end → fence; PeerReturned → STABLE
 *  SHUTTING_DOWN    -            (view only)           ignored             (view only)             -
 *  STOPPED          everything ignored
 *
 *  any state: GroupStarted(fail) → FAILED here, offered to the peer (jhb-grpfail start);
 *             GroupFailedRunning (group RUNNING) → stop it, then as GroupStarted(fail);
 *             GroupStopped(fail), or GroupStarted(fail, rollback left it running) → BLOCKED here,
 *             peer told (jhb-grpfail stop), never offered;
 *             PeerGroupFailure start → run it here unless it failed here; stop → never start it here,
 *             and with STONITH (STABLE, STANDBY_*, NEGOTIATING) → FENCING;
 *             PeerRestarted (STABLE, STANDBY_*) → take our own groups back → STABLE;
 *             CleanupRequested / PeerGroupFailure clear → forget failures, stop BLOCKED once more
 *  (docs/design/takeover.md, "Failures")
 * </pre>
 * {@code GroupsDisputed} (any state but STOPPED) marks groups the peer's haresources defines
 * differently: they never run here, whatever is desired (jheartbeat only; docs/design/takeover.md).
 * {@code IdentityConflict(on)} (another live node uses our name) holds every start back until
 * {@code IdentityConflict(off)}; nothing running is stopped for it (jheartbeat only).
 * {@code MaintenanceSet} (any state but STOPPED; docs/design/takeover.md "Maintenance"): a
 * group in maintenance is never started, stopped or watched, whatever the state and event (the
 * protocol still runs, fencing included: a dead peer is fenced, and what would have been taken over
 * is logged); leaving maintenance adopts what the probes found running and starts a group that runs
 * nowhere on the node it belongs to.
 *
 * <p>Where the table lives: {@link #on} dispatches each event to one handler. CommUp, NEGOTIATING,
 * PeerStarting, PeerResources, PeerGroupStates and PeerRestarted: {@link PeerReports}; PeerAskResources
 * and the operator's StandbyRequested/TakeoverRequested: {@link StandbyHandler} (its record:
 * {@link StandbyExchange}); PeerDead/PeerShutdown, FenceOutcome and PeerReturned: {@link PeerLoss} (the
 * FENCING sub-state: {@link Fencing}); Tick: {@link Timeouts}; the failure rows and CleanupRequested:
 * {@link GroupFailures}; Resync, PeerGroupsRunning and double ownership: {@link DoubleOwnership};
 * MaintenanceSet: {@link MaintenancePolicy}; a reload: {@link GroupReload}. After every event
 * {@link Reconciler} issues the starts and stops and ends a settled transition. What is known of each
 * group is one {@link GroupSlot}.
 * Not thread-safe: owned by the cluster loop's thread.
 */
public final class TakeoverMachine {
    /** How long a standby request waits for the peer's {@code other} (Heartbeat: 10 s). */
    public static final long STANDBY_REPLY_TIMEOUT_NANOS = 10_000_000_000L;
    /** How long negotiation waits for a usable {@code resource} answer (Heartbeat's RQSTDELAY: 10 s). */
    public static final long NEGOTIATION_TIMEOUT_NANOS = 10_000_000_000L;
    /** Pause between two fencing attempts after a failure (Heartbeat: 5 s, forever). */
    public static final long FENCE_RETRY_NANOS = 5_000_000_000L;
    /** How long {@code hb takeover} waits for the peer to start its standby (30 s). */
    public static final long TAKEOVER_REPLY_TIMEOUT_NANOS = 30_000_000_000L;

    /**
     * Where the last operator standby/takeover request stands: {@code FAILED} means the exchange ran
     * but a group of it could not be stopped or started where it was meant to go (the detail names it).
     */
    public enum Handover { NONE, IN_PROGRESS, DONE, FAILED, CANCELLED, REFUSED }

    final NodeName me;
    final NodeName peer;
    final FailbackPolicy failback;
    /** The FENCING sub-state and the fencing settings (device, race, delay). */
    final Fencing fence;

    TakeoverState state = TakeoverState.AWAITING_COMM;
    /** One slot per resource group, in haresources order: its state here and what is known of it. */
    List<GroupSlot> slots;
    /** Reset this node on a stop failure (the admin asked for it) instead of leaving the group blocked. */
    final boolean selfFence;
    /** The peer said it resets itself after a stop failure: its blocked groups are free once it is gone. */
    boolean peerSelfFencing;
    /** Another live node uses our name: no group is started until it is gone. */
    boolean identityConflict;
    /** The next peer report was sent before the peer's part in the current standby exchange (set by the engine). */
    boolean claimPredatesExchange;
    /** Resumed after a pause the peer may have taken for our death: nothing starts until it ends ({@link TakeoverEvent.Resync}). */
    boolean resyncing;
    /** The cluster's maintenance setting and which groups it keeps out of the protocol here. */
    final MaintenancePolicy maint;
    /** Comm up, the negotiation and the peer's reports (starting, resource, jhb-groups, a restart). */
    final PeerReports peerReports = new PeerReports(this);
    /** Issues the starts and stops towards what is wanted here, and ends a transition once it settles. */
    private final Reconciler reconciler = new Reconciler(this);
    /** Both nodes may run a group (a healed partition, a pause): who lets go, and what is re-announced. */
    final DoubleOwnership doubleOwnership = new DoubleOwnership(this);
    /** The standby exchange's rows (STANDBY_GIVING, STANDBY_TAKING) and the operator's standby/takeover requests. */
    final StandbyHandler standby = new StandbyHandler(this);
    /** The Tick column: the machine's timers. */
    private final Timeouts timeouts = new Timeouts(this);
    /** The PeerDead/PeerShutdown column and the FENCING row of the table: fence, wait, take over. */
    final PeerLoss peerLoss = new PeerLoss(this);
    /** The failure rows of the table (any state): failures here and on the peer, cleanup. */
    final GroupFailures failures = new GroupFailures(this);
    /** The groups a reload removed that still matter (failed here, left here), and the carrying over. */
    final GroupReload reload = new GroupReload();

    /** The one record of the peer's liveness that decisions read (see {@link PeerPresence}). */
    PeerPresence peerPresence = PeerPresence.UNKNOWN;
    ResourceSet peerHolds = ResourceSet.NONE;
    /**
     * The peer's own account of its groups ({@code jhb-groups}), by key, from its current run; null: none
     * (a Heartbeat 3.0.6 peer, or not arrived yet). When present, it, not {@link #peerHolds}, says what
     * may run there: the bits change only once a whole transition ends and never cover a group taken
     * as an offer. Kept across a death of the same run (the peer's state is unchanged, or its reports
     * are on their way), dropped when it restarts, shuts down or is fenced.
     */
    java.util.Map<String, GroupState> peerReport;
    /** A report of the peer's holdings came outside STABLE: look for double ownership once STABLE. */
    boolean ownershipCheckDue;
    /** Whether a frame the peer sent after its last report is missing (told by the engine on each frame). */
    boolean peerReportMayBeOld;
    /** We answered the peer's {@code starting} with {@code isstable=0}: tell it once we are settled. */
    boolean answerWhenSettled;

    /** The standby exchange and the operator's standby/takeover request it serves. */
    final StandbyExchange exchange = new StandbyExchange();
    /** When the current negotiation, standby request or fence step times out (monotonic ns), or MAX_VALUE. */
    long deadlineNanos = Long.MAX_VALUE;
    /** Times this node took over the groups of a dead or departed peer (metrics). */
    long takeovers;
    /** When non-null, why groups are moving: announced ({@code resource info=...}) and logged once they settle. */
    Settlement settleInfo;

    /**
     * @param me       this node
     * @param peer     the other node
     * @param groups   the haresources groups, in file order (indices are used in actions)
     * @param failback ha.cf {@code auto_failback}; {@code legacy} behaves as {@code on}
     */
    public TakeoverMachine(NodeName me, NodeName peer, List<ResourceGroupDecl> groups, FailbackPolicy failback) {
        this(me, peer, groups, failback, TakeoverSettings.DEFAULTS);
    }

    /** @param settings fencing, the fence delay and self-fencing, fixed for the machine's life */
    public TakeoverMachine(NodeName me, NodeName peer, List<ResourceGroupDecl> groups, FailbackPolicy failback,
                           TakeoverSettings settings) {
        this.fence = new Fencing(settings);
        this.selfFence = settings.selfFenceOnStopFailure();
        this.me = me;
        this.peer = peer;
        this.maint = new MaintenancePolicy(me, peer);
        this.slots = slotsFor(groups);
        this.failback = failback;
    }

    private static List<GroupSlot> slotsFor(List<ResourceGroupDecl> groups) {
        List<GroupSlot> slots = new ArrayList<>(groups.size());
        for (ResourceGroupDecl g : groups) {
            slots.add(new GroupSlot(g));
        }
        return slots;
    }

    /**
     * Feeds one event.
     *
     * @param event    what happened
     * @param nowNanos current monotonic time, for the machine's own timers
     * @return what to do, in order (possibly empty)
     */
    public List<Effect> on(TakeoverEvent event, long nowNanos) {
        List<Effect> out = new ArrayList<>();
        if (state == TakeoverState.STOPPED) {
            return out;
        }
        if (event instanceof GroupStarted e) {
            failures.groupStarted(e, out);
        } else if (event instanceof GroupStopped e) {
            failures.groupStopped(e, out);
        } else if (event instanceof TakeoverEvent.GroupFailedRunning e) {
            failures.groupFailedRunning(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupFailure e) {
            failures.peerGroupFailure(e, out, nowNanos);
        } else if (event instanceof TakeoverEvent.CleanupRequested e) {
            failures.cleanup(e.group(), true, out);
        } else if (event instanceof CommUp) {
            peerReports.commUp(out, nowNanos);
        } else if (event instanceof PeerStarting) {
            peerReports.peerStarting(out);
        } else if (event instanceof PeerResources e) {
            peerReports.peerResources(e, out, nowNanos);
        } else if (event instanceof PeerAskResources e) {
            standby.peerAskResources(e, out, nowNanos);
        } else if (event instanceof PeerDead e) {
            fence.peerNeverDelays(e.peerNeverDelaysFencing());
            peerLoss.peerGone(false, out, nowNanos);
        } else if (event instanceof PeerShutdown) {
            out.add(new LogLine(Level.INFO, "Received shutdown notice from '" + peer + "'."));
            peerLoss.peerGone(true, out, nowNanos);
        } else if (event instanceof PeerRestarted) {
            peerReports.peerRestarted(out, nowNanos);
        } else if (event instanceof TakeoverEvent.PeerReturned) {
            peerLoss.peerReturned(out, nowNanos);
        } else if (event instanceof StandbyRequested e) {
            standby.requestStandby(e.set(), out, nowNanos);
        } else if (event instanceof TakeoverEvent.FenceOutcome e) {
            peerLoss.fenceOutcome(e, out, nowNanos);
        } else if (event instanceof TakeoverEvent.TakeoverRequested e) {
            standby.requestTakeover(e.set(), out, nowNanos);
        } else if (event instanceof ShutdownRequested) {
            onShutdown(out);
        } else if (event instanceof Tick) {
            timeouts.tick(out, nowNanos);
        } else if (event instanceof TakeoverEvent.IdentityConflict e) {
            identityConflict = e.on();
        } else if (event instanceof TakeoverEvent.Resync e) {
            doubleOwnership.resync(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupsRunning e) {
            doubleOwnership.releaseWhatThePreferredNodeRuns(e.groups(), out);
        } else if (event instanceof TakeoverEvent.GroupsDisputed e) {
            boolean changed = false;
            for (int i = 0; i < slots.size(); i++) {
                changed |= slots.get(i).disputed != e.groups().contains(i);
                slots.get(i).disputed = e.groups().contains(i);
            }
            if (changed && state == TakeoverState.STABLE && settleInfo == null) {
                settleInfo = Settlement.CONFIG; // announce what we hold once the starts and stops end
            }
        } else if (event instanceof TakeoverEvent.MaintenanceSet e) {
            onMaintenanceSet(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupStates e) {
            peerReports.peerGroupStates(e);
        }
        // with the peer's own report, a group it runs itself is let go in a standby exchange too (the peer
        // may ignore ours while in flux, and the exchange then waits 10 s); with bits alone only in STABLE
        if (ownershipCheckDue && (state == TakeoverState.STABLE || peerReport != null
                && (state == TakeoverState.STANDBY_GIVING || state == TakeoverState.STANDBY_TAKING))) {
            ownershipCheckDue = false;
            doubleOwnership.resolve(out);
        }
        reconciler.reconcile(out);
        reconciler.settleIfDone(out);
        return out;
    }

    /**
     * Set by the engine before each event from a peer message: whether a {@code resource} report was sent
     * before the peer's latest standby message (it was read late, retransmitted to fill a gap), so that its
     * {@code partition} claim is older than the exchange in progress and does not cancel it.
     */
    public void claimPredatesExchange(boolean older) {
        this.claimPredatesExchange = older;
    }

    /** Whether starts are held back after a pause ({@link TakeoverEvent.Resync}). */
    public boolean resyncing() {
        return resyncing;
    }

    /**
     * Whether group {@code i} may run on the peer: by its per-group report (running, starting, stopping
     * or blocked there) when it sends one, else by its {@code rsc_hold} share of that kind.
     */
    boolean peerMayRun(int i) {
        if (peerReport != null) {
            return occupies(peerReport.get(slots.get(i).key()));
        }
        return isLocal(i) ? peerHolds.includesForeign() : peerHolds.includesLocal();
    }

    /** Whether a node in state {@code s} (null: the group is not defined there) may run the group. */
    static boolean occupies(GroupState s) {
        return s == GroupState.RUNNING || s == GroupState.STARTING || s == GroupState.STOPPING
                || s == GroupState.BLOCKED;
    }

    private void onShutdown(List<Effect> out) {
        if (state == TakeoverState.SHUTTING_DOWN) {
            return;
        }
        if (!settled()) {
            out.add(new LogLine(Level.INFO, "Shutdown delayed until current resource activity finishes."));
        }
        if (fence.delayed()) {
            fence.callOffDelay("fence of " + peer + " not started: this node shut down during the fence delay");
        }
        state = TakeoverState.SHUTTING_DOWN;
        out.add(new Announce(new Resources(ResourceSet.NONE, false, "shutdown")));
        out.add(new LogLine(Level.INFO, "Giving up all HA resources."));
        slots.forEach(s -> s.desired = false);
    }

    void becomeStable(String info, List<Effect> out) {
        state = TakeoverState.STABLE;
        exchange.step(StandbyStep.NONE);
        deadlineNanos = Long.MAX_VALUE;
        settleInfo = null;
        answerWhenSettled = false;
        out.add(new Announce(new Resources(holdings(), true, info)));
    }

    void setDesired(boolean local, boolean foreign, boolean run) {
        for (int i = 0; i < slots.size(); i++) {
            if (isLocal(i) ? local : foreign) {
                slots.get(i).desired = run;
            }
        }
    }

    void setDesiredFor(boolean localGroups, boolean run) {
        for (int i = 0; i < slots.size(); i++) {
            if (isLocal(i) == localGroups) {
                slots.get(i).desired = run;
            }
        }
    }

    /**
     * Whether the peer's last report says it holds a kind of group that exists here. Its bits are
     * Heartbeat's {@code rsc_hold}, relative to the peer, and set for a kind after its acquisition
     * even when haresources has no group of that kind (Heartbeat 3.0.6 announces {@code local} from a
     * node that prefers none): such a bit holds nothing, so a peer dead with only such bits gave up
     * nothing and is not fenced. Without this rule an idle node and the node running every group
     * both fenced each other when every link was cut, and the UPSs powered both off (fault matrix,
     * docs/benchmarks.md).
     */
    boolean peerMayHoldAGroup() {
        for (GroupState reported : peerReport == null ? List.<GroupState>of() : peerReport.values()) {
            if (occupies(reported)) {
                // its own account: the bits miss groups taken as offers or after maintenance, and a group our
                // haresources no longer defines (a reload) still runs there
                return true;
            }
        }
        boolean peerLocalGroups = false;
        boolean peerForeignGroups = false;
        for (int i = 0; i < slots.size(); i++) {
            peerLocalGroups |= !isLocal(i);
            peerForeignGroups |= isLocal(i);
        }
        return peerHolds.includesLocal() && peerLocalGroups || peerHolds.includesForeign() && peerForeignGroups;
    }

    boolean isLocal(int i) {
        return slots.get(i).decl.preferredNode().equals(me);
    }

    boolean holdsAny(boolean localGroups) {
        for (int i = 0; i < slots.size(); i++) {
            if (isLocal(i) == localGroups
                    && (slots.get(i).actual == GroupState.RUNNING || slots.get(i).actual == GroupState.STARTING)) {
                return true;
            }
        }
        return false;
    }

    /** True when no group is starting or stopping and every group is where it should be. */
    public boolean settled() {
        return reconciler.settled();
    }

    /** What this node holds, relative to itself ({@code rsc_hold} of our {@code resource} messages). */
    public ResourceSet holdings() {
        return ResourceSet.of(holdsAny(true), holdsAny(false));
    }

    /** The machine's phase. */
    public TakeoverState state() {
        return state;
    }

    /**
     * Whether the peer reported group {@code i} failed there (a failed start or run, or a stop that failed)
     * and nobody cleared it ({@code hb cleanup}).
     */
    public boolean peerFailed(int i) {
        return slots.get(i).peerFailed || slots.get(i).peerBlocked;
    }

    /** Run state of group {@code i}. */
    public GroupState groupState(int i) {
        return slots.get(i).actual;
    }

    /** Negotiates now (see {@link PeerReports#negotiate}). */
    void negotiate(boolean timedOut, List<Effect> out) {
        peerReports.negotiate(timedOut, out);
    }

    /** Fences the peer now (see {@link PeerLoss#startFencing}). */
    void startFencing(List<Effect> out) {
        peerLoss.startFencing(out);
    }

    /**
     * Why group {@code i} is FAILED or BLOCKED here, or whether it failed on (or is blocked on) the
     * peer; empty when nothing is wrong. One line, for {@code hb status}.
     */
    public String groupProblem(int i) {
        return failures.problem(i);
    }

    /**
     * Marks group {@code i} as BLOCKED before the machine runs: found running at start-up and its
     * stop failed. It is announced to the peer at comm up, before {@code starting}.
     *
     * @param detail why the stop failed
     */
    public void blockedAtStartup(int i, String detail) {
        slots.get(i).actual = GroupState.BLOCKED;
        slots.get(i).failureDetail = detail;
    }

    /**
     * Group {@code key}, which haresources no longer defines, was left here as it is: the start-up found it
     * running and left it ({@code state} RUNNING: in maintenance; BLOCKED: its release failed), or a reload's
     * stop of it failed (BLOCKED). It counts as running here ({@link #removedLeftRunning}) until a reload
     * adds it back in that state. Ignored for a group defined now (added back meanwhile).
     */
    public void leftUnmanaged(String key, GroupState state) {
        if (slots.stream().noneMatch(s -> s.key().equals(key))) {
            reload.leftUnmanaged(key, state);
        }
    }

    /** Whether another live node uses this node's name ({@link TakeoverEvent.IdentityConflict}): nothing is started. */
    public boolean identityConflict() {
        return identityConflict;
    }

    /**
     * Whether group {@code i} is in maintenance here: the setting covers it as this node sees it
     * (cluster-wide, this node, the group), or the peer is in node maintenance and the group does not
     * run here (it may run there: the peer's groups are left alone), or it was found running on both
     * nodes when its maintenance ended.
     */
    public boolean inMaintenance(int i) {
        return maint.covers(slots.get(i));
    }

    /** Why group {@code i} is in maintenance here, for logs and {@code hb status}; empty when it is not. */
    public String maintenanceReason(int i) {
        return maint.reason(slots.get(i));
    }

    /**
     * The restarted peer said, before it stopped, that it ran these groups (in maintenance, its last
     * {@code jhb-maint}; or at all, its last {@code jhb-groups}): its new daemon may have kept them running
     * (a maintenance setting on disk, also one whose message was lost on the way here), so they are left
     * alone here, as in maintenance, until {@link #peerReported} says where they run. Heartbeat's rule that a
     * restarted node holds nothing does not hold for a jheartbeat peer. A group that runs here is not
     * affected. jheartbeat only: a Heartbeat 3.0.6 peer sends no such report.
     */
    public void peerLeftRunning(java.util.Set<Integer> groupsThere, List<Effect> out) {
        maint.peerLeftRunning(groupsThere, slots, out);
    }

    /**
     * Whether a frame the peer sent after its last {@code jhb-groups} is missing now (a gap awaiting
     * retransmission; a newer report may be among them): while one is, that report is not taken for double
     * ownership (the next event after the gap is filled looks again).
     */
    public void peerReportMayBeOld(boolean mayBeOld) {
        peerReportMayBeOld = mayBeOld;
    }

    /**
     * The peer's own account of group {@code i} ({@code jhb-groups}, or the confirmed fence: nothing runs
     * there) ends a wait of {@link #peerLeftRunning}: when it runs there it is left there, else the
     * protocol decides as for any group (the next event reconciles).
     *
     * @return whether it ended such a wait
     */
    public boolean peerReported(int i, boolean runsThere, List<Effect> out) {
        return maint.peerReported(slots.get(i), runsThere, peerPresence, out);
    }

    /** The maintenance setting this machine works with. */
    public Maintenance maintenance() {
        return maint.setting();
    }

    /**
     * The groups that are in maintenance here now and would not be under {@code next}: those to probe
     * before feeding {@link TakeoverEvent.MaintenanceSet} with {@code next}.
     */
    public java.util.Set<Integer> leavingMaintenance(Maintenance next) {
        return maint.leaving(slots, next);
    }

    /**
     * The new setting: groups that enter maintenance are no longer watched (their state here is
     * kept as it was); probed groups that leave it take what runs as their state: running here is
     * adopted (never restarted), running on the peer is left there, running nowhere is started by
     * the node it belongs to (its preferred node, or this one when the peer is not alive), running on
     * both is refused: left alone here, CRIT.
     */
    private void onMaintenanceSet(TakeoverEvent.MaintenanceSet e, List<Effect> out) {
        boolean changed = maint.apply(e, slots, state, peerPresence.alive(), out);
        if (changed && state == TakeoverState.STABLE && settleInfo == null) {
            settleInfo = Settlement.MAINTENANCE; // announce what we hold once any start ends
        }
    }

    /**
     * The groups a reload removed while in maintenance here that were left running (or blocked: they may
     * run) and have not been added back, by key: they run here as far as this node knows.
     */
    public java.util.Set<String> removedLeftRunning() {
        return reload.removedLeftRunning();
    }

    /**
     * The groups haresources no longer defines that may still run here, by key, with their state: stopping while
     * the reload that removed them stops them, blocked when that stop failed (or they were), running when left in
     * maintenance. The peer is told them in our {@code jhb-groups}: it may still define them, and must not start
     * them meanwhile (Pacemaker likewise keeps an orphaned resource active in its status until it is stopped).
     */
    public java.util.Map<String, GroupState> removedLeftHere() {
        return reload.removedLeftHere();
    }

    /**
     * The reload's stop of removed group {@code key} ended: it no longer runs here ({@code ok}), or it may and is
     * left BLOCKED, unmanaged, as {@link #leftUnmanaged}; the peer, which may still define it, is told not to
     * start it ({@code jhb-grpfail stop}, as for a group of ours whose stop failed: it holds beyond our shutdown);
     * and a shutdown that waited for the stop goes on.
     *
     * @return the effects; empty when that stop was not awaited (a group not being stopped so)
     */
    public List<Effect> removedStopEnded(String key, boolean ok, long nowNanos) {
        List<Effect> out = new ArrayList<>();
        if (!reload.stopEnded(key, ok, out)) {
            return out;
        }
        out.addAll(on(new TakeoverEvent.Tick(), nowNanos)); // settles: a shutdown waits for such a stop
        return out;
    }

    /** Whether the stop of a group a reload removed is still under way. */
    public boolean removedStopping() {
        return reload.removedStopping();
    }

    /**
     * Marks group {@code i} as running here before the machine runs: a daemon that starts in
     * maintenance found it running and leaves it so.
     */
    public void runningAtStartup(int i) {
        slots.get(i).actual = GroupState.RUNNING;
        slots.get(i).desired = true;
    }

    /**
     * Sets the maintenance setting before the machine runs (the state file at start-up); events after
     * that go through {@link TakeoverEvent.MaintenanceSet}.
     */
    public void maintenanceAtStartup(Maintenance setting) {
        maint.setting(setting);
    }

    /** Whether group {@code i} is disputed: the peer's haresources defines it differently. */
    public boolean disputed(int i) {
        return slots.get(i).disputed;
    }

    /** Whether the peer last reported its resources settled ({@code isstable=1}) and has not restarted since. */
    public boolean peerStable() {
        return peerPresence == PeerPresence.STABLE;
    }

    /** The peer as the cluster acts on it: the only record of its liveness that decisions read. */
    public PeerPresence peerPresence() {
        return peerPresence;
    }

    /** What the peer last said it holds, relative to the peer. */
    public ResourceSet peerHoldings() {
        return peerHolds;
    }

    /** The earliest monotonic instant at which a {@link Tick} matters, or {@link Long#MAX_VALUE}. */
    public long nextDeadlineNanos() {
        return Math.min(deadlineNanos, exchange.deadlineNanos());
    }

    /** Whether a fence of the peer is waiting out the fence delay (nothing sent to the device yet). */
    public boolean fenceDelayed() {
        return fence.delayed();
    }

    /** One line about fencing for {@code hb status}: {@code none}, delayed, in progress with attempts, or done. */
    public String fenceStatus() {
        return fence.status();
    }

    /**
     * Times this node took over the resource groups of a peer that died or left (after fencing it,
     * when a STONITH device is configured), since start.
     */
    public long takeovers() {
        return takeovers;
    }

    /**
     * Standby or takeover requests of this node ({@code hb standby}, {@code hb takeover}, and the
     * standby of auto_failback handing the peer its groups back) that ended with {@code outcome}
     * (DONE, FAILED, CANCELLED or REFUSED), since start.
     *
     * @param takeover true for takeover requests, false for standby requests
     */
    public long handoversFinished(boolean takeover, Handover outcome) {
        return exchange.finished(takeover, outcome);
    }

    /** Outcome of the latest standby/takeover request (operator or auto-failback). */
    public Handover handover() {
        return exchange.outcome();
    }

    /** One line about {@link #handover()}: what was asked and how it ended. */
    public String handoverDetail() {
        return exchange.detail();
    }

    /** Increases with every standby/takeover request, so a caller can tell its own from a later one. */
    public long handoverSerial() {
        return exchange.serial();
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
        for (GroupSlot s : slots) {
            if (s.actual == GroupState.STARTING || s.actual == GroupState.STOPPING) {
                throw new IllegalStateException("resource groups are starting or stopping");
            }
        }
        if (state != TakeoverState.AWAITING_COMM && state != TakeoverState.NEGOTIATING
                && state != TakeoverState.STABLE) {
            throw new IllegalStateException("resource groups cannot change in state " + state);
        }
        slots = reload.regroup(slots, newGroups, maint, g -> state == TakeoverState.STABLE
                && GroupReload.wantedNew(me, g, share, peerReport.apply(g.key()), peerPresence.alive(), peerHolds), out);
        if (state == TakeoverState.STABLE && settleInfo == null) {
            settleInfo = Settlement.CONFIG; // announce what we hold once the new groups have started
        }
        return out;
    }
}
