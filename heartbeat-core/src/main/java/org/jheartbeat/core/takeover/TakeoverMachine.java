package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Announcement.AskResources;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Announcement.ShutDone;
import org.jheartbeat.core.takeover.Announcement.Starting;
import org.jheartbeat.core.takeover.Announcement.StonithReport;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.Effect.StartGroup;
import org.jheartbeat.core.takeover.Effect.StopGroup;
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
 * {@code IdentityConflict(off)}; nothing running is stopped for it (jheartbeat only, issue 15).
 * {@code MaintenanceSet} (any state but STOPPED; issue 20, docs/design/takeover.md "Maintenance"): a
 * group in maintenance is never started, stopped or watched, whatever the state and event (the
 * protocol still runs, fencing included: a dead peer is fenced, and what would have been taken over
 * is logged); leaving maintenance adopts what the probes found running and starts a group that runs
 * nowhere on the node it belongs to.
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

    private final NodeName me;
    private final NodeName peer;
    private List<ResourceGroupDecl> groups;
    private final FailbackPolicy failback;
    private final boolean fencing;
    /** Whether the peer comes before this node in ha.cf's {@code node} lines (the fencing race's tie-break). */
    private final boolean peerFirstInHaCf;
    /** How long the loser of the fencing race waits before fencing a lost peer, ns; 0: never waits. */
    private long fenceDelayNanos;
    /** Fence a peer that may hold groups before taking them over (off only in tests proving the rule). */
    private boolean fenceBeforeTakeover = true;
    /** The peer is a Heartbeat 3.0.6 node: it fences at once, so in a fencing race this node always waits. */
    private boolean peerNeverDelaysFencing;
    /** In FENCING, waiting out {@link #fenceDelayNanos}: no FencePeer emitted yet, so still cancellable. */
    private boolean fenceDelayed;
    /** The state the fence (delayed or not) interrupted: NEGOTIATING and AWAITING_COMM resume if it is called off. */
    private TakeoverState stateBeforeFence = TakeoverState.STABLE;
    /** What the peer held before the death the delayed fence is for: still held if it returns in the delay. */
    private ResourceSet peerHoldsBeforeFenceDelay = ResourceSet.NONE;
    /**
     * The peer's presence when it was last declared dead: heard again (the same run), it is as it was then. A
     * peer that never noticed the partition sends no {@code resource} report of its own, so "heard again" is
     * not "reported stable": a peer in the middle of a standby exchange may still take groups back.
     */
    private PeerPresence presenceBeforeDeath = PeerPresence.STABLE;
    private int fenceAttempts;
    private String fenceStatus;

    private TakeoverState state = TakeoverState.AWAITING_COMM;
    private GroupState[] actual;
    private boolean[] desired;
    /** A start failed here: not started here again until an operator clears it (actual FAILED). */
    private boolean[] failedHere;
    /** The peer reported a failed start: this node runs the group if it can (offered once). */
    private boolean[] peerFailed;
    /** The peer reported a failed stop: it may run there, so this node never starts it (unless fenced). */
    private boolean[] peerBlocked;
    private static final String STARTING_FAILED = "failed to start";
    /** How a FAILED group failed here: {@value #STARTING_FAILED} or "failed while running". */
    private String[] failedWhat;
    /** Being stopped after failing while running here: FAILED here once that stop succeeds (monitoring). */
    private boolean[] failingRunning;
    /** Why a group FAILED or is BLOCKED here, for logs and the operator. */
    private String[] failureDetail;
    /** Reset this node on a stop failure (the admin asked for it) instead of leaving the group blocked. */
    private boolean selfFence;
    /** The peer said it resets itself after a stop failure: its blocked groups are free once it is gone. */
    private boolean peerSelfFencing;
    /** Groups of the current hand-over that did not end where they were meant to, one line each. */
    private final List<String> handoverProblems = new ArrayList<>();
    /** Another live node uses our name: no group is started until it is gone (issue 15). */
    private boolean identityConflict;
    /** The next peer report was sent before the peer's part in the current standby exchange (set by the engine). */
    private boolean claimPredatesExchange;
    /** Resumed after a pause the peer may have taken for our death: nothing starts until it ends ({@link TakeoverEvent.Resync}). */
    private boolean resyncing;
    /** Groups the peer's haresources defines differently: never started, stopped if running (issue 11). */
    private boolean[] disputed;
    /** The cluster's maintenance setting (issue 20): groups it covers are left as they are. */
    private Maintenance maintenance = Maintenance.NONE;
    /**
     * Found running on both nodes when their maintenance ended: left alone here (as in maintenance)
     * until the operator stops one copy and runs {@code hb maintenance off} again.
     */
    private boolean[] unmanaged;
    /**
     * The peer's previous run left it running (its last {@code jhb-maint} or {@code jhb-groups}) and the
     * peer has restarted: left alone here (as in maintenance) until the new run's own report says where
     * it runs.
     */
    private boolean[] peerLeftRunning;
    /**
     * Groups a reload removed after they failed here (and were offered to the peer), by key: a reload
     * adding one back keeps the failure, so the peer's acceptance of our offer, possibly still on its
     * way, is not met by a start here. Forgotten by {@code hb cleanup} of all groups.
     */
    private final java.util.Map<String, String[]> removedFailedHere = new java.util.HashMap<>();
    /**
     * Groups a reload removed while blocked here or in maintenance and left as they were, a reload's stop of
     * a removed group that failed, and those
     * the start-up found running though haresources no longer defines them and left (in maintenance, or a
     * failed release: BLOCKED). Nothing stops them: they may run here until a reload adds them back. Also,
     * STOPPING, a removed group the reload is stopping, until that stop ends ({@link #removedStopEnded}). By
     * key, with that state: what runs here for the peer's probe and report, and the state a reload adding
     * one back starts from.
     */
    private final java.util.Map<String, GroupState> removedLeftHere = new java.util.LinkedHashMap<>();

    /** The one record of the peer's liveness that decisions read (see {@link PeerPresence}). */
    private PeerPresence peerPresence = PeerPresence.UNKNOWN;
    private ResourceSet peerHolds = ResourceSet.NONE;
    /**
     * The peer's own account of its groups ({@code jhb-groups}), by key, from its current run; null: none
     * (a Heartbeat 3.0.6 peer, or not arrived yet). When present, it, not {@link #peerHolds}, says what
     * may run there: the bits change only once a whole transition ends and never cover a group taken
     * as an offer. Kept across a death of the same run (the peer's state is unchanged, or its reports
     * are on their way), dropped when it restarts, shuts down or is fenced.
     */
    private java.util.Map<String, GroupState> peerReport;
    /** A report of the peer's holdings came outside STABLE: look for double ownership once STABLE. */
    private boolean ownershipCheckDue;
    /** Whether a frame the peer sent after its last report is missing (told by the engine on each frame). */
    private boolean peerReportMayBeOld;
    /** We answered the peer's {@code starting} with {@code isstable=0}: tell it once we are settled. */
    private boolean answerWhenSettled;
    /** The peer was heard with a new generation while we were fencing it: a late confirmation takes nothing. */
    private boolean peerRestartedWhileFencing;

    private ResourceSet standbySet = ResourceSet.NONE;
    /** Where this node is in a standby exchange (STANDBY_GIVING or STANDBY_TAKING); NONE otherwise. */
    private StandbyStep standbyStep = StandbyStep.NONE;
    private long deadlineNanos = Long.MAX_VALUE;
    private Handover handover = Handover.NONE;
    /** Whether the operator request {@link #handover} is about was a takeover (else a standby). */
    private boolean handoverIsTakeover;
    /** Finished operator requests of this node, by [takeover ? 1 : 0][outcome ordinal] (metrics). */
    private final long[][] handoversFinished = new long[2][Handover.values().length];
    /** Times this node took over the groups of a dead or departed peer (metrics). */
    private long takeovers;
    private String handoverDetail = "";
    private long handoverSerial;
    private long handoverDeadlineNanos = Long.MAX_VALUE;
    /** When non-null, why groups are moving: announced ({@code resource info=...}) and logged once they settle. */
    private Settlement settleInfo;

    /**
     * @param me       this node
     * @param peer     the other node
     * @param groups   the haresources groups, in file order (indices are used in actions)
     * @param failback ha.cf {@code auto_failback}; {@code legacy} behaves as {@code on}
     */
    public TakeoverMachine(NodeName me, NodeName peer, List<ResourceGroupDecl> groups, FailbackPolicy failback) {
        this(me, peer, groups, failback, false);
    }

    /**
     * @param fencing whether a STONITH device is configured for this node: a peer that dies without
     *                releasing its groups is then fenced before they are taken over
     */
    public TakeoverMachine(NodeName me, NodeName peer, List<ResourceGroupDecl> groups, FailbackPolicy failback,
                           boolean fencing) {
        this(me, peer, groups, failback, fencing, false);
    }

    /**
     * @param peerFirstInHaCf whether the peer's {@code node} line comes before this node's in ha.cf (both
     *                        nodes share ha.cf): with equal weights, the node listed first wins the fencing
     *                        race ({@link #fenceDelay})
     */
    public TakeoverMachine(NodeName me, NodeName peer, List<ResourceGroupDecl> groups, FailbackPolicy failback,
                           boolean fencing, boolean peerFirstInHaCf) {
        this.fencing = fencing;
        this.peerFirstInHaCf = peerFirstInHaCf;
        this.fenceStatus = fencing ? "ready (nothing fenced yet)" : "no STONITH device configured";
        this.me = me;
        this.peer = peer;
        this.groups = List.copyOf(groups);
        this.failback = failback;
        this.actual = new GroupState[groups.size()];
        this.desired = new boolean[groups.size()];
        this.failedHere = new boolean[groups.size()];
        this.peerFailed = new boolean[groups.size()];
        this.peerBlocked = new boolean[groups.size()];
        this.failureDetail = new String[groups.size()];
        this.failingRunning = new boolean[groups.size()];
        this.failedWhat = new String[groups.size()];
        Arrays.fill(failedWhat, STARTING_FAILED);
        this.disputed = new boolean[groups.size()];
        this.unmanaged = new boolean[groups.size()];
        this.peerLeftRunning = new boolean[groups.size()];
        Arrays.fill(actual, GroupState.STOPPED);
        Arrays.fill(failureDetail, "");
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
            onGroupStarted(e, out);
        } else if (event instanceof GroupStopped e) {
            onGroupStopped(e, out);
        } else if (event instanceof TakeoverEvent.GroupFailedRunning e) {
            onGroupFailedRunning(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupFailure e) {
            onPeerGroupFailure(e, out, nowNanos);
        } else if (event instanceof TakeoverEvent.CleanupRequested e) {
            onCleanup(e.group(), true, out);
        } else if (event instanceof CommUp) {
            onCommUp(out, nowNanos);
        } else if (event instanceof PeerStarting) {
            onPeerStarting(out);
        } else if (event instanceof PeerResources e) {
            onPeerResources(e, out, nowNanos);
        } else if (event instanceof PeerAskResources e) {
            onPeerAskResources(e, out, nowNanos);
        } else if (event instanceof PeerDead) {
            onPeerGone(false, out, nowNanos);
        } else if (event instanceof PeerShutdown) {
            out.add(new LogLine(Level.INFO, "Received shutdown notice from '" + peer + "'."));
            onPeerGone(true, out, nowNanos);
        } else if (event instanceof PeerRestarted) {
            onPeerRestarted(out, nowNanos);
        } else if (event instanceof TakeoverEvent.PeerReturned && state == TakeoverState.FENCING && !fenceDelayed) {
            out.add(new LogLine(Level.CRIT, "Cluster node " + peer + " is heard again while being fenced;"
                    + " fencing goes on (it may still hold resources)."));
        } else if (event instanceof TakeoverEvent.PeerReturned) {
            if (fenceDelayed) {
                // no FencePeer went out and nothing of the peer was taken over: calling it off is safe
                out.add(new LogLine(Level.CRIT, "Cluster node " + peer + " returning after partition; its fence is"
                        + " cancelled (it was delayed and not yet started)."));
                fenceDelayed = false;
                deadlineNanos = Long.MAX_VALUE;
                fenceStatus = "fence of " + peer + " cancelled: it was heard again during the fence delay";
                // a standby exchange the death cancelled does not resume; a negotiation starts over
                state = stateBeforeFence == TakeoverState.NEGOTIATING
                        || stateBeforeFence == TakeoverState.AWAITING_COMM ? stateBeforeFence : TakeoverState.STABLE;
                // it lost nothing (a restart would have come as PeerRestarted): without this, a peer that never
                // saw the partition (a one-way cut) never reports again, and at its next death it "gave up
                // resources" and is not fenced
                peerHolds = peerHoldsBeforeFenceDelay;
                if (state == TakeoverState.NEGOTIATING) {
                    deadlineNanos = nowNanos + NEGOTIATION_TIMEOUT_NANOS;
                }
            } else {
                out.add(new LogLine(Level.CRIT, "Cluster node " + peer + " returning after partition."));
            }
            peerPresence = presenceBeforeDeath == PeerPresence.IN_FLUX || presenceBeforeDeath == PeerPresence.JOINING
                    ? presenceBeforeDeath : PeerPresence.STABLE;
            ownershipCheckDue = true; // both may run a group now: its report (kept from before) says
            if (state != TakeoverState.AWAITING_COMM && state != TakeoverState.SHUTTING_DOWN) {
                out.add(new Announce(new Resources(holdings(), settled(), "partition")));
            }
        } else if (event instanceof StandbyRequested e) {
            requestStandby(e.set(), out, nowNanos);
        } else if (event instanceof TakeoverEvent.FenceOutcome e) {
            onFenceOutcome(e, out, nowNanos);
        } else if (event instanceof TakeoverEvent.TakeoverRequested e) {
            requestTakeover(e.set(), out, nowNanos);
        } else if (event instanceof ShutdownRequested) {
            onShutdown(out);
        } else if (event instanceof Tick) {
            onTick(out, nowNanos);
        } else if (event instanceof TakeoverEvent.IdentityConflict e) {
            identityConflict = e.on();
        } else if (event instanceof TakeoverEvent.Resync e) {
            onResync(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupsRunning e) {
            releaseWhatThePreferredNodeRuns(e.groups(), out);
        } else if (event instanceof TakeoverEvent.GroupsDisputed e) {
            boolean changed = false;
            for (int i = 0; i < groups.size(); i++) {
                changed |= disputed[i] != e.groups().contains(i);
                disputed[i] = e.groups().contains(i);
            }
            if (changed && state == TakeoverState.STABLE && settleInfo == null) {
                settleInfo = Settlement.CONFIG; // announce what we hold once the starts and stops end
            }
        } else if (event instanceof TakeoverEvent.MaintenanceSet e) {
            onMaintenanceSet(e, out);
        } else if (event instanceof TakeoverEvent.PeerGroupStates e) {
            onPeerGroupStates(e);
        }
        // with the peer's own report, a group it runs itself is let go in a standby exchange too (the peer
        // may ignore ours while in flux, and the exchange then waits 10 s); with bits alone only in STABLE
        if (ownershipCheckDue && (state == TakeoverState.STABLE || peerReport != null
                && (state == TakeoverState.STANDBY_GIVING || state == TakeoverState.STANDBY_TAKING))) {
            ownershipCheckDue = false;
            resolveDoubleOwnership(out);
        }
        reconcile(out);
        settleIfDone(out);
        return out;
    }

    private void onCommUp(List<Effect> out, long now) {
        if (state != TakeoverState.AWAITING_COMM) {
            return;
        }
        if (peerPresence == PeerPresence.UNKNOWN) {
            peerPresence = PeerPresence.IN_FLUX; // comm is up: the peer is heard, or about to be declared dead
        }
        state = TakeoverState.NEGOTIATING;
        deadlineNanos = now + NEGOTIATION_TIMEOUT_NANOS;
        announceFailures(out);
        out.add(new Announce(new Starting()));
    }

    private void onGroupStarted(GroupStarted e, List<Effect> out) {
        int i = e.group();
        if (e.ok()) {
            actual[i] = GroupState.RUNNING;
            return;
        }
        if (e.outcome() == StartOutcome.FAILED_STILL_RUNNING) {
            // offered to the peer, what is left here would run on both nodes (Pacemaker: a failed stop)
            blockHere(i, "failed to start on " + me + " and could not be stopped again", e.detail(), out);
            return;
        }
        failHere(i, STARTING_FAILED, e.detail(), out);
    }

    /** The group is down here after a failure: FAILED, not started here again, offered once to the peer. */
    private void failHere(int i, String what, String detail, List<Effect> out) {
        failedWhat[i] = what;
        actual[i] = GroupState.FAILED;
        failedHere[i] = true;
        desired[i] = false;
        failureDetail[i] = detail;
        String key = groups.get(i).key();
        String why = detail.isEmpty() ? "" : " (" + detail + ")";
        if (peerFailed[i]) {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + " on " + me + why
                    + (what.equals(STARTING_FAILED) ? " and on " : " and failed to start on ") + peer
                    + ": it stays stopped on both nodes until an operator clears it"
                    + " (hb cleanup " + key + ")"));
        } else if (peerPresence.alive()) {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + " on " + me + why
                    + "; offering it to " + peer));
        } else {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + " on " + me + why
                    + "; it stays down: " + peer + " is not alive to run it (hb cleanup " + key + " tries again here)"));
        }
        if (handover == Handover.IN_PROGRESS) {
            handoverProblems.add("resource group " + key + " " + what + " on " + me + why);
        }
        out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.START)));
    }

    /**
     * Monitoring gave up on a group running here: stop all of it; {@link #onGroupStopped} then makes it
     * FAILED and offers it to the peer, as a failed start. A group not running here (being stopped or
     * started by an operation issued meanwhile) is left to that operation.
     */
    private void onGroupFailedRunning(TakeoverEvent.GroupFailedRunning e, List<Effect> out) {
        int i = e.group();
        String key = groups.get(i).key();
        if (inMaintenance(i)) {
            out.add(new LogLine(Level.WARN, "Resource group " + key + " failed while running (" + e.detail()
                    + "), but it is in maintenance (" + maintenanceReason(i) + "); nothing is done"));
            return;
        }
        if (actual[i] != GroupState.RUNNING) {
            out.add(new LogLine(Level.WARN, "Resource group " + key + " failed while running (" + e.detail()
                    + "), but it is " + actual[i] + " here now; nothing more is done for that failure"));
            return;
        }
        out.add(new LogLine(Level.CRIT, "Resource group " + key + " failed on " + me + " (" + e.detail()
                + "): stopping it; it leaves this node"));
        failingRunning[i] = true;
        failureDetail[i] = e.detail();
        actual[i] = GroupState.STOPPING;
        out.add(new StopGroup(i, GroupOpReason.MONITOR_FAILURE));
    }

    private void onGroupStopped(GroupStopped e, List<Effect> out) {
        int i = e.group();
        boolean failing = failingRunning[i];
        failingRunning[i] = false;
        if (e.ok() && failing) {
            failHere(i, "failed while running", failureDetail[i], out);
            return;
        }
        if (e.ok()) {
            actual[i] = GroupState.STOPPED;
            return;
        }
        blockHere(i, "could not be stopped on " + me, e.detail(), out);
    }

    /**
     * A stop of the group failed here (its own, or the rollback of a failed start): it may still run
     * here, so it is BLOCKED, the peer is told not to start it ({@code jhb-grpfail stop}), and only
     * {@code hb cleanup} (which stops it once more) frees it; with self-fencing this node resets instead.
     *
     * @param what what happened, after the group's key in the log ("could not be stopped on node1")
     */
    private void blockHere(int i, String what, String detail, List<Effect> out) {
        actual[i] = GroupState.BLOCKED;
        failureDetail[i] = detail;
        String key = groups.get(i).key();
        String why = detail.isEmpty() ? "" : " (" + detail + ")";
        if (selfFence && state != TakeoverState.STOPPED) {
            out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + why
                    + ": resetting " + me + " (self-fencing on a stop failure is configured); " + peer
                    + " takes the group over once " + me + " is gone."));
            out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.SELF_FENCE)));
            out.add(new Effect.SelfFence("resource group " + key + " could not be stopped" + why));
            return;
        }
        out.add(new LogLine(Level.CRIT, "Resource group " + key + " " + what + why
                + ": it may still run here. It is blocked: nothing starts or stops it, and " + peer
                + " is told not to start it; " + peer + " fences " + me + " first if it has a STONITH device."
                + " Otherwise stop it by hand, then run 'hb cleanup " + key + "'."));
        if (handover == Handover.IN_PROGRESS) {
            handoverProblems.add("resource group " + key + " " + what + why + "; it stays here, blocked");
        }
        out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.STOP)));
    }

    /** Tells the peer of every failure it must know about: before {@code starting} or a {@code resource} answer. */
    private void announceFailures(List<Effect> out) {
        for (int i = 0; i < groups.size(); i++) {
            if (actual[i] == GroupState.BLOCKED) {
                out.add(new Announce(new Announcement.GroupFailed(groups.get(i).key(), GroupFailure.STOP)));
            } else if (failedHere[i]) {
                out.add(new Announce(new Announcement.GroupFailed(groups.get(i).key(), GroupFailure.START)));
            }
        }
    }

    private void onPeerGroupFailure(TakeoverEvent.PeerGroupFailure e, List<Effect> out, long now) {
        int i = e.group();
        String key = groups.get(i).key();
        switch (e.failure()) {
            case START -> {
                peerFailed[i] = true;
                if (handover == Handover.IN_PROGRESS) {
                    handoverProblems.add(peer + " could not start resource group " + key
                            + (failedHere[i] ? "" : "; it runs on " + me + " again"));
                }
                if (failedHere[i]) {
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " failed to start on " + peer
                            + " and on " + me + ": it stays stopped on both nodes until an operator clears it"
                            + " (hb cleanup " + key + ")"));
                } else if (peerBlocked[i]) {
                    out.add(new LogLine(Level.INFO, peer + " could not start resource group " + key
                            + "; not taking it: it is blocked on " + peer));
                } else if (state == TakeoverState.STABLE || state == TakeoverState.NEGOTIATING
                        || state == TakeoverState.STANDBY_GIVING || state == TakeoverState.STANDBY_TAKING) {
                    out.add(new LogLine(Level.WARN, peer + " could not start resource group " + key
                            + "; taking it over"));
                    desired[i] = true;
                }
            }
            case STOP -> {
                peerBlocked[i] = true;
                if (handover == Handover.IN_PROGRESS) {
                    handoverProblems.add("resource group " + key + " could not be stopped on " + peer
                            + "; it stays there, blocked");
                }
                if (fencing && state != TakeoverState.FENCING && state != TakeoverState.SHUTTING_DOWN
                        && state != TakeoverState.AWAITING_COMM) {
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " could not be stopped on " + peer
                            + ": resetting " + peer + " with STONITH before starting it here."));
                    if (handover == Handover.IN_PROGRESS) {
                        finishHandover(Handover.FAILED, String.join("; ", handoverProblems)
                                + "; " + peer + " is being fenced");
                    }
                    startFencing(out);
                } else {
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " could not be stopped on " + peer
                            + ": not starting it here" + (fencing ? "" : " (no STONITH device to make sure it is down)")
                            + " until it is cleared on " + peer + " (hb cleanup " + key + ")"));
                }
            }
            case SELF_FENCE -> {
                peerBlocked[i] = true;
                peerSelfFencing = true;
                if (handover == Handover.IN_PROGRESS) {
                    handoverProblems.add("resource group " + key + " could not be stopped on " + peer
                            + ", which resets itself");
                }
                out.add(new LogLine(Level.CRIT, "Resource group " + key + " could not be stopped on " + peer + ", which"
                        + " resets itself: it is started here once " + peer + " is gone."));
            }
            case CLEAR -> {
                out.add(new LogLine(Level.INFO, "Failures of resource group " + key + " cleared on " + peer + "."));
                onCleanup(i, false, out);
            }
        }
    }

    /** In a hand-over to the peer: groups it failed to start stay here (it would only fail again). */
    private void keepWhatThePeerCannotRun(List<Effect> out) {
        for (int i = 0; i < groups.size(); i++) {
            if (peerFailed[i] && !desired[i] && (actual[i] == GroupState.RUNNING || actual[i] == GroupState.STARTING)) {
                desired[i] = true;
                String key = groups.get(i).key();
                out.add(new LogLine(Level.WARN, "Keeping resource group " + key + ": " + peer
                        + " could not start it (clear with 'hb cleanup " + key + "' once it can)"));
                handoverProblems.add("resource group " + key + " stays on " + me + ": " + peer + " could not start it");
            }
        }
    }

    /**
     * {@code hb cleanup}: forget failed starts (here and those the peer reported), and stop a group
     * blocked here once more (its stop decides whether it is free again).
     */
    private void onCleanup(int group, boolean fromOperator, List<Effect> out) {
        if (group < 0) {
            removedFailedHere.clear();
        }
        for (int i = 0; i < groups.size(); i++) {
            if (group >= 0 && i != group) {
                continue;
            }
            boolean had = failedHere[i] || peerFailed[i] || peerBlocked[i] || actual[i] == GroupState.BLOCKED;
            if (failedHere[i] && peerFailed[i] && isLocal(i) && peerPresence.alive()) {
                desired[i] = true; // it failed on both nodes, so it runs nowhere: its preferred node tries again
            } else if (failedHere[i] && !peerPresence.alive() && state == TakeoverState.STABLE) {
                desired[i] = true; // it stayed down because the peer is not alive to run it: as logged, try here
            }
            failedHere[i] = false;
            peerFailed[i] = false;
            peerBlocked[i] = false;
            failureDetail[i] = "";
            if (actual[i] == GroupState.FAILED) {
                actual[i] = GroupState.STOPPED;
            } else if (actual[i] == GroupState.BLOCKED && inMaintenance(i)) {
                out.add(new LogLine(Level.WARN, "Resource group " + groups.get(i).key() + " stays blocked: it is in"
                        + " maintenance (" + maintenanceReason(i) + "), nothing stops it; run 'hb cleanup' again after"
                        + " 'hb maintenance off'"));
            } else if (actual[i] == GroupState.BLOCKED) {
                actual[i] = GroupState.STOPPING;
                out.add(new StopGroup(i, GroupOpReason.CLEANUP));
            }
            if (fromOperator && had) {
                out.add(new LogLine(Level.INFO, "Failures of resource group " + groups.get(i).key() + " cleared."));
            }
            if (fromOperator) {
                out.add(new Announce(new Announcement.GroupFailed(groups.get(i).key(), GroupFailure.CLEAR)));
            }
        }
    }

    /**
     * The peer started again (a new generation): whatever it held before, it holds nothing now, so this
     * node takes its own groups back (e.g. those it handed over with {@code hb standby}), and a
     * hand-over with the old peer ends. Its failed starts are forgotten; a failed stop is not (the
     * resource may still run there until it says otherwise, or is fenced).
     */
    private void onPeerRestarted(List<Effect> out, long now) {
        out.add(new LogLine(Level.INFO, "Heartbeat restart on node " + peer));
        peerPresence = PeerPresence.IN_FLUX;
        peerHolds = ResourceSet.NONE;
        peerReport = null;
        // no request at the device: the delay, or the pause after a failed attempt (its retry deadline)
        boolean noneAtTheDevice = fenceDelayed || deadlineNanos != Long.MAX_VALUE;
        if (state == TakeoverState.FENCING && noneAtTheDevice) {
            // nothing is at the device now, and the run it was meant for is over: a new daemon released what
            // the old one ran (or reports it blocked), so the fence is called off (before, a retry reset a
            // node that had just started and reported that it runs nothing)
            String when = fenceDelayed ? "during the fence delay" : "after a failed fencing attempt";
            fenceDelayed = false;
            fenceStatus = "fence of " + peer + " cancelled: it restarted " + when;
            out.add(new LogLine(Level.CRIT, "Cluster node " + peer + " restarted " + when + "; its fence"
                    + " is cancelled (it holds nothing now)."));
            state = stateBeforeFence == TakeoverState.NEGOTIATING
                    || stateBeforeFence == TakeoverState.AWAITING_COMM ? stateBeforeFence : TakeoverState.STABLE;
            deadlineNanos = state == TakeoverState.NEGOTIATING ? now + NEGOTIATION_TIMEOUT_NANOS : Long.MAX_VALUE;
        } else if (state == TakeoverState.NEGOTIATING) {
            // our starting went to its previous run: the new one would take our answers for a node in flux
            // and wait for a stable one, as we wait for its, until both time out
            deadlineNanos = now + NEGOTIATION_TIMEOUT_NANOS;
            out.add(new Announce(new Starting()));
        } else if (state == TakeoverState.FENCING) {
            // the device may have acted before this run started (it then runs what it took since): its
            // confirmation must not lead to a takeover (onFenceOutcome)
            peerRestartedWhileFencing = true;
        }
        Arrays.fill(peerFailed, false);
        if (peerSelfFencing) {
            peerSelfFencing = false;
            Arrays.fill(peerBlocked, false);
        }
        if (handover == Handover.IN_PROGRESS) {
            finishHandover(Handover.CANCELLED, peer + " restarted during the exchange");
        }
        if (state == TakeoverState.STABLE || state == TakeoverState.STANDBY_GIVING
                || state == TakeoverState.STANDBY_TAKING) {
            state = TakeoverState.STABLE;
            standbyStep = StandbyStep.NONE;
            deadlineNanos = Long.MAX_VALUE;
            boolean missing = false;
            for (int i = 0; i < groups.size(); i++) {
                missing |= isLocal(i) && !desired[i];
            }
            if (missing) {
                out.add(new LogLine(Level.INFO, peer + " restarted and holds nothing now: acquiring the resource groups of "
                        + me + " it had."));
                setDesiredFor(true, true);
                settleInfo = Settlement.RESTART;
            }
        }
    }

    private void onPeerStarting(List<Effect> out) {
        peerPresence = PeerPresence.JOINING;
        if (state == TakeoverState.AWAITING_COMM) {
            return;
        }
        announceFailures(out);
        boolean stable = state == TakeoverState.STABLE && settled();
        // it waits for isstable=1 (or its timeout) before taking its own groups: say so once we are
        answerWhenSettled = !stable;
        out.add(new Announce(new Resources(holdings(), stable, "")));
        if (state == TakeoverState.NEGOTIATING) {
            // both are starting (Heartbeat's R_BOTHSTARTING): each takes its own groups. The peer answers
            // only a starting it received, and ours went to its previous run when it restarted meanwhile:
            // waiting for its resource message would wait for the negotiation timeout
            negotiate(false, out);
        }
    }

    private void onPeerGroupStates(TakeoverEvent.PeerGroupStates e) {
        peerReport = e.states();
        if (state == TakeoverState.STABLE) {
            ownershipCheckDue = true; // looked at once this event is handled (on)
        } else if (state != TakeoverState.SHUTTING_DOWN) {
            ownershipCheckDue = true; // looked at once STABLE
        }
    }

    private void onPeerResources(PeerResources e, List<Effect> out, long now) {
        boolean wasStable = peerPresence == PeerPresence.STABLE;
        boolean joined = e.stable() && peerPresence == PeerPresence.JOINING;
        peerHolds = e.full() || e.held() == ResourceSet.NONE ? e.held()
                : ResourceSet.of(peerHolds.includesLocal() || e.held().includesLocal(),
                        peerHolds.includesForeign() || e.held().includesForeign());
        peerPresence = e.stable() ? PeerPresence.STABLE
                : peerPresence == PeerPresence.JOINING ? PeerPresence.JOINING : PeerPresence.IN_FLUX;
        if (e.stable() && !wasStable) {
            out.add(new LogLine(Level.INFO, "remote resource transition completed."));
        }
        if (state != TakeoverState.STABLE && state != TakeoverState.SHUTTING_DOWN) {
            ownershipCheckDue = true; // not looked at in this state: once STABLE
        }
        if ((state == TakeoverState.STANDBY_TAKING
                || state == TakeoverState.STANDBY_GIVING && standbyStep != StandbyStep.AWAITING_PEER)
                && "partition".equals(e.info()) && !claimPredatesExchange) {
            cancelStandbyOnClaim(out);
        }
        if (state == TakeoverState.NEGOTIATING) {
            negotiate(false, out);
        } else if (state == TakeoverState.STABLE) {
            resolveDoubleOwnership(out);
            answerClaimOnOurGroups(e, out);
            if ("partition".equals(e.info()) && !peerHolds.includesForeign()) {
                reannounceLocal(out);
            }
            if (joined && failback != FailbackPolicy.OFF && holdsAny(false) && !peerHolds.includesLocal()) {
                out.add(new LogLine(Level.INFO, "auto_failback: giving " + peer + " its resource groups back"));
                requestStandby(ResourceSet.FOREIGN, out, now);
            }
        }
    }

    /**
     * The peer reports this node's return ({@code partition}) during a standby exchange: it declared this node
     * dead (a pause, or a one-way cut this node did not see), so for it the exchange is over (Heartbeat
     * cancels it at the death) and no {@code done} will come. (Its {@code mach_down} is not taken for that: one
     * sent to this node's previous run can still arrive, retransmitted, during a later exchange. A request of
     * ours still awaiting its answer goes on: it may yet reach the peer, retransmitted, and be answered; else
     * it times out.) Ours
     * ends too, as cancelled: groups already being stopped are stopped, nothing more is acquired, and the
     * claim is then answered as in STABLE. Without this the exchange waited for good and neither node let go
     * of the groups both ran.
     */
    private void cancelStandbyOnClaim(List<Effect> out) {
        out.add(new LogLine(Level.WARN, "Standby [" + standbySet + "] cancelled: " + peer
                + " declared this node dead meanwhile."));
        if (state == TakeoverState.STANDBY_GIVING && standbyStep != StandbyStep.AWAITING_PEER) {
            // we released (or are releasing) what the peer no longer comes to take: what its claim does not
            // cover runs nowhere else, so it runs here again
            for (int i = 0; i < groups.size(); i++) {
                boolean given = isLocal(i) ? standbySet.includesLocal() : standbySet.includesForeign();
                boolean peerHas = isLocal(i) ? peerHolds.includesForeign() : peerHolds.includesLocal();
                if (given && !peerHas && !desired[i]) {
                    desired[i] = true;
                    out.add(new LogLine(Level.INFO, "Taking resource group " + groups.get(i).key() + " back: " + peer
                            + " does not hold it."));
                }
            }
            // our standby announcement said we are in flux: say what we hold, stable, once the groups settled
            settleInfo = Settlement.STANDBY_CANCELLED;
        }
        if (state == TakeoverState.STANDBY_TAKING && standbyStep == StandbyStep.ACQUIRING) {
            // acquired from a peer that has since taken them back: what is not running yet is not started
            ResourceSet mine = standbySet.mirrored();
            for (int i = 0; i < groups.size(); i++) {
                if (actual[i] == GroupState.STOPPED && (isLocal(i) ? mine.includesLocal() : mine.includesForeign())) {
                    desired[i] = false;
                }
            }
        }
        state = TakeoverState.STABLE;
        standbyStep = StandbyStep.NONE;
        deadlineNanos = Long.MAX_VALUE;
        if (handover == Handover.IN_PROGRESS) {
            finishHandover(Handover.CANCELLED, peer + " declared " + me + " dead during the exchange");
        }
    }

    /**
     * {@link TakeoverEvent.Resync}: on, starts are held back (see {@link #reconcile}); off, a group the peer
     * holds is no longer wanted here unless it runs here already, so the frames read first after the pause
     * (a negotiation's answer, a standby's {@code done}) start nothing the peer took over meanwhile.
     */
    private void onResync(TakeoverEvent.Resync e, List<Effect> out) {
        if (e.on()) {
            resyncing = true;
            return;
        }
        if (!resyncing) {
            return;
        }
        resyncing = false;
        if (state == TakeoverState.STABLE) {
            resolveDoubleOwnership(out);
        }
        for (int i = 0; i < groups.size(); i++) {
            // its report, or its bits: a takeover it did while we were paused may be in its bits only (its
            // report of it waits until it hears us)
            boolean peerHas = e.peerHolds().contains(i) || (isLocal(i) ? peerHolds.includesForeign() : peerHolds.includesLocal());
            if (peerHas && desired[i] && actual[i] == GroupState.STOPPED && peerPresence.alive()) {
                desired[i] = false;
                // announced as what runs (audit), not as an acquisition whose bits would claim the group
                settleInfo = state == TakeoverState.STABLE ? Settlement.CLAIMED : settleInfo;
                out.add(new LogLine(Level.WARN, "Not starting resource group " + groups.get(i).key() + ": " + peer
                        + " holds it (it took it over while this node did not run)."));
            }
        }
    }

    /**
     * {@link TakeoverEvent.PeerGroupsRunning}: in STABLE (or while our standby request awaits its answer), a
     * group of the peer's that runs here and that the
     * peer reports running there is stopped here. Only the non-preferred node ever stops for this rule, so the
     * two nodes never both let go; the preferred node's copy is never stopped by it.
     */
    private void releaseWhatThePreferredNodeRuns(java.util.Set<Integer> peerRuns, List<Effect> out) {
        boolean givingBack = state == TakeoverState.STANDBY_GIVING && standbyStep == StandbyStep.AWAITING_PEER;
        if (state != TakeoverState.STABLE && !givingBack || resyncing || !peerPresence.alive()) {
            return;
        }
        boolean released = false;
        for (int i : peerRuns) {
            if (i < groups.size() && !isLocal(i) && desired[i] && actual[i] == GroupState.RUNNING && !peerFailed[i]
                    && !peerBlocked[i] && !disputed[i] && !inMaintenance(i)) {
                desired[i] = false;
                released = true;
                out.add(new LogLine(Level.ERROR, "Resource group " + groups.get(i).key() + " runs on both " + me + " and "
                        + peer + " (" + peer + " reports it running there): releasing it here, " + peer
                        + " is its preferred node."));
            }
        }
        if (released && settleInfo == null) {
            settleInfo = Settlement.PARTITION;
        }
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
     * NEGOTIATING: take our own groups the peer does not run, once its answer is stable ({@code isstable=1})
     * or it is starting too (it then takes only its own), or on {@code timedOut}. Heartbeat waits for
     * {@code isstable=1} (or RQSTDELAY): an answer in flux may come from a peer still taking our groups over
     * or still stopping them. What the peer runs is its per-group report when it sends one, else its
     * {@code rsc_hold} (all or none of our groups, as Heartbeat).
     */
    private void negotiate(boolean timedOut, List<Effect> out) {
        if (!timedOut && peerPresence != PeerPresence.STABLE && peerPresence != PeerPresence.JOINING) {
            return;
        }
        boolean peerRunsOurs = false;
        boolean toTake = false;
        boolean anyOurs = false;
        for (int i = 0; i < groups.size(); i++) {
            if (isLocal(i)) {
                anyOurs = true;
                peerRunsOurs |= peerMayRun(i);
                toTake |= !peerMayRun(i);
            }
        }
        if (!anyOurs) {
            peerRunsOurs = peerHolds.includesForeign(); // an empty share: its bits say who holds it (Heartbeat)
        }
        if (peerRunsOurs && !toTake) {
            if (peerPresence == PeerPresence.STABLE) {
                out.add(new LogLine(Level.INFO, "Local Resource acquisition completed. (none)"));
                becomeStable("", out);
            }
            return;
        }
        for (int i = 0; i < groups.size(); i++) {
            if (isLocal(i) && !peerMayRun(i)) {
                desired[i] = true;
            }
        }
        settleInfo = Settlement.REQ_OUR_RESOURCES;
        state = TakeoverState.STABLE;
        deadlineNanos = Long.MAX_VALUE;
        out.add(new LogLine(Level.INFO, "Acquiring resource groups of " + me));
    }

    /**
     * Whether group {@code i} may run on the peer: by its per-group report (running, starting, stopping
     * or blocked there) when it sends one, else by its {@code rsc_hold} share of that kind.
     */
    private boolean peerMayRun(int i) {
        if (peerReport != null) {
            return occupies(peerReport.get(groups.get(i).key()));
        }
        return isLocal(i) ? peerHolds.includesForeign() : peerHolds.includesLocal();
    }

    /** Whether a node in state {@code s} (null: the group is not defined there) may run the group. */
    private static boolean occupies(GroupState s) {
        return s == GroupState.RUNNING || s == GroupState.STARTING || s == GroupState.STOPPING
                || s == GroupState.BLOCKED;
    }

    /** Both nodes run the same groups (a healed partition): the non-preferred node lets go. */
    private void resolveDoubleOwnership(List<Effect> out) {
        // after a pause the reports read first may be stale: decided at the end of the resynchronisation
        if (resyncing) {
            return;
        }
        // with the peer's own report: release exactly what it runs or starts itself; with only its rsc_hold
        // (Heartbeat's share bit, not its groups), all of its share, except a group it reported it could not
        // start (jhb-grpfail): that one does not run there, so this node keeps it
        boolean fromReport = peerReport != null;
        if (fromReport && peerReportMayBeOld) {
            // with a frame the peer sent after its last report missing, that report may be older than the done
            // or resource just read (a report is sent before them): a group it handed over would be released
            // on a stale "running"
            ownershipCheckDue = true; // looked at again once the gap is filled
            return;
        }
        if (!fromReport && !(peerHolds.includesLocal() && holdsAny(false))) {
            return;
        }
        boolean released = false;
        for (int i = 0; i < groups.size(); i++) {
            GroupState there = fromReport ? peerReport.get(groups.get(i).key()) : null;
            boolean runsThere = fromReport
                    ? peerPresence.alive() && (there == GroupState.RUNNING || there == GroupState.STARTING)
                    : !peerFailed[i];
            if (!isLocal(i) && desired[i] && runsThere) {
                desired[i] = false;
                released = true;
            }
        }
        if (released) {
            out.add(new LogLine(Level.ERROR, "Both machines own foreign resources! Releasing "
                    + peer + "'s groups, which it runs itself."));
            settleInfo = Settlement.PARTITION;
        }
    }

    /**
     * The peer took over our groups from this node, declared dead ({@code mach_down}), or saw it return
     * ({@code partition}), and says it holds them ({@code foreign} in its {@code rsc_hold}) while they
     * run here: this process was stopped, or cut off, and, having seen no partition itself, announced
     * nothing. Our holdings, announced now ({@code info=audit}), make the peer release them
     * ({@link #resolveDoubleOwnership} there): the copy on the non-preferred node stops. Other reports
     * are not answered: the bits follow the protocol and may claim groups that do not run there.
     */
    private void answerClaimOnOurGroups(PeerResources e, List<Effect> out) {
        if (("mach_down".equals(e.info()) || "partition".equals(e.info())) && e.held().includesForeign()
                && holdsAny(true) && settleInfo == null) {
            out.add(new LogLine(Level.ERROR, "Both machines own our resources! Telling " + peer
                    + " which of them run here."));
            settleInfo = Settlement.CLAIMED;
        }
    }

    /**
     * The peer let go of our groups after a healed partition: neighbours may still point at it, so
     * run our running groups' start again (resources that run are re-asserted, e.g. the IP agent's
     * gratuitous ARP), without stopping anything.
     */
    private void reannounceLocal(List<Effect> out) {
        for (int i = 0; i < groups.size(); i++) {
            if (isLocal(i) && actual[i] == GroupState.RUNNING && !identityConflict && !resyncing && !inMaintenance(i)) {
                actual[i] = GroupState.STARTING;
                out.add(new StartGroup(i, GroupOpReason.REANNOUNCE));
            }
        }
    }

    private void onPeerAskResources(PeerAskResources e, List<Effect> out, long now) {
        switch (e.phase()) {
            case ME -> {
                out.add(new LogLine(Level.INFO, peer + " wants to go standby [" + e.set() + "]"));
                if (!peerPresence.alive()) {
                    // sent by a peer this node declared dead and has not yet heard return (its beat follows):
                    // it does not know we took its groups, and its return makes us release the ones it still
                    // runs; accepting would have both nodes let go of them (it gives them to us, we give them
                    // back), each waiting for the other. Unanswered, its request times out and it keeps them.
                    out.add(new LogLine(Level.INFO, "standby message [me] from " + peer + " ignored: " + peer
                            + " was declared dead and is not heard back yet."));
                    return;
                }
                if (state != TakeoverState.STABLE || !settled() || resyncing) {
                    out.add(new LogLine(Level.INFO, "standby message [me] from " + peer
                            + " ignored.  local resources in flux."));
                    return;
                }
                Optional<String> inMaint = maintenanceIn(e.set().mirrored());
                if (inMaint.isPresent()) {
                    out.add(new LogLine(Level.INFO, "standby message [me] from " + peer + " ignored: "
                            + inMaint.get()));
                    return;
                }
                state = TakeoverState.STANDBY_TAKING;
                standbySet = e.set();
                standbyStep = StandbyStep.AWAITING_PEER;
                deadlineNanos = Long.MAX_VALUE;
                out.add(new Announce(new AskResources(e.set(), StandbyPhase.OTHER)));
            }
            case OTHER -> {
                if (state != TakeoverState.STANDBY_GIVING || standbyStep != StandbyStep.AWAITING_PEER) {
                    return;
                }
                out.add(new LogLine(Level.INFO, "standby: " + peer + " can take our " + standbySet + " resources"));
                standbyStep = StandbyStep.RELEASING;
                deadlineNanos = Long.MAX_VALUE;
                boolean keepLocal = holdsAny(true) && !standbySet.includesLocal();
                boolean keepForeign = holdsAny(false) && !standbySet.includesForeign();
                out.add(new Announce(new Resources(ResourceSet.of(keepLocal, keepForeign), false, "standby")));
                out.add(new LogLine(Level.INFO, "give up " + standbySet + " HA resources (standby)."));
                if (standbySet.includesLocal()) {
                    setDesiredFor(true, false);
                }
                if (standbySet.includesForeign()) {
                    setDesiredFor(false, false);
                }
                keepWhatThePeerCannotRun(out);
                for (int i = 0; i < groups.size(); i++) {
                    if (disputed[i] && (isLocal(i) ? standbySet.includesLocal() : standbySet.includesForeign())) {
                        handoverProblems.add("resource group " + groups.get(i).key() + " is defined differently on "
                                + me + " and " + peer + ": it runs on neither node until haresources agree");
                    }
                }
            }
            case DONE -> {
                if (state == TakeoverState.STANDBY_TAKING) {
                    out.add(new LogLine(Level.INFO, "standby: acquire [" + standbySet + "] resources from " + peer));
                    ResourceSet mine = standbySet.mirrored();
                    if (mine.includesLocal()) {
                        setDesiredFor(true, true);
                    }
                    if (mine.includesForeign()) {
                        setDesiredFor(false, true);
                    }
                    peerHolds = ResourceSet.of(peerHolds.includesLocal() && !standbySet.includesLocal(),
                            peerHolds.includesForeign() && !standbySet.includesForeign());
                    standbyStep = StandbyStep.ACQUIRING;
                } else if (state == TakeoverState.STANDBY_GIVING && standbyStep == StandbyStep.RELEASED) {
                    out.add(new LogLine(Level.INFO, "Other node completed standby takeover of "
                            + standbySet + " resources."));
                    becomeStable("", out);
                    finishHandoverDone("standby [" + standbySet + "] completed");
                }
            }
        }
    }

    private void onPeerGone(boolean clean, List<Effect> out, long now) {
        if (peerSelfFencing) {
            // it said it resets itself because of a stop failure: what it could not stop is gone with it
            peerSelfFencing = false;
            Arrays.fill(peerBlocked, false);
        }
        if (state == TakeoverState.FENCING && peerRestartedWhileFencing && peerPresence.alive()) {
            // the run heard since the fence was asked for left too: the outcome decides (onFenceOutcome)
            peerPresence = clean ? PeerPresence.GONE : PeerPresence.LOST;
            peerReport = null;
        }
        if (peerPresence == PeerPresence.GONE || state == TakeoverState.FENCING) {
            return;
        }
        boolean wasStable = peerPresence == PeerPresence.STABLE;
        presenceBeforeDeath = peerPresence;
        boolean gaveUp = clean || !peerMayHoldAGroup() && wasStable;
        int peerWeight = peerGroupsHeld();
        peerHoldsBeforeFenceDelay = peerHolds;
        peerPresence = gaveUp ? PeerPresence.GONE : PeerPresence.LOST;
        peerHolds = ResourceSet.NONE;
        answerWhenSettled = false;
        if (clean) {
            peerReport = null; // it released everything; a new run reports anew
        }
        if (handover == Handover.IN_PROGRESS) {
            finishHandover(Handover.CANCELLED, peer + " left the cluster; its groups are taken over");
        }
        if (state == TakeoverState.SHUTTING_DOWN) {
            return;
        }
        if (gaveUp) {
            out.add(new LogLine(Level.INFO, "Dead node " + peer + " gave up resources."));
            out.add(new Announce(new StonithReport(peer, "unneeded")));
        } else if (fencing && fenceBeforeTakeover) {
            int ourWeight = groupsHeldHere();
            // no race when we hold nothing in a settled cluster: the peer then sees a node that gave up
            // resources and does not fence it (the rule above, on its side), so waiting would only delay
            // the failover of an active/passive pair. Before the cluster settled both may fence: race.
            boolean peerFencesUs = ourWeight > 0 || !wasStable;
            // a Heartbeat 3.0.6 peer never waits: only this node's wait can keep one node alive
            boolean weWait = peerNeverDelaysFencing
                    || peerWeight > ourWeight || peerWeight == ourWeight && peerFirstInHaCf;
            if (fenceDelayNanos > 0 && peerFencesUs && weWait) {
                delayFencing(peerWeight, ourWeight, out, now);
                return;
            }
            out.add(new LogLine(Level.INFO, "Resetting node " + peer + " with STONITH before taking over its resources."));
            startFencing(out);
            return;
        } else {
            out.add(new LogLine(Level.WARN, "No STONITH device configured."));
            out.add(new LogLine(Level.WARN, "Shared disks are not protected."));
            out.add(new Announce(new StonithReport(peer, "n_stnth")));
        }
        takeOverFromDeadPeer(out);
    }

    /**
     * The fencing race of a two-node cut (Pacemaker's {@code priority-fencing-delay}; Heartbeat 3.0.6 has
     * no such delay): this node lost it, so it waits {@link #fenceDelayNanos} before its first FencePeer,
     * long enough for the winner's fence to power it off first. Nothing is fenced or taken over meanwhile.
     */
    private void delayFencing(int peerWeight, int ourWeight, List<Effect> out, long now) {
        stateBeforeFence = state;
        state = TakeoverState.FENCING;
        standbyStep = StandbyStep.NONE;
        fenceDelayed = true;
        fenceAttempts = 0;
        deadlineNanos = now + fenceDelayNanos;
        String delay = describeNanos(fenceDelayNanos);
        String why = peerNeverDelaysFencing
                ? "it is a Heartbeat 3.0.6 node, which fences at once without a delay"
                : "it holds " + peerWeight + " resource group(s), we hold " + ourWeight
                + (peerWeight == ourWeight ? ", and it comes first in ha.cf" : "");
        fenceStatus = "fence of " + peer + " delayed for " + delay + " (" + why + ")";
        out.add(new LogLine(Level.INFO, "Delaying STONITH of " + peer + " by " + delay + ": " + why
                + " (jheartbeat.yaml stonith.fence_delay); the node that holds more fences first."));
    }

    /** {@code 5 s}, {@code 1.5 s}, {@code 250 ms}: a delay for log lines. */
    private static String describeNanos(long nanos) {
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + " s";
        }
        if (nanos >= 1_000_000_000L && nanos % 100_000_000L == 0) {
            return nanos / 1_000_000_000L + "." + nanos % 1_000_000_000L / 100_000_000L + " s";
        }
        return nanos / 1_000_000L + " ms";
    }

    /**
     * This node's weight in the fencing race: its groups that may run here (running, starting, stopping,
     * or blocked by a failed stop). With none in a settled cluster, the peer sees a node that gave up
     * resources and does not fence it, so this node does not wait.
     */
    private int groupsHeldHere() {
        int n = 0;
        for (GroupState a : actual) {
            if (a == GroupState.RUNNING || a == GroupState.STARTING || a == GroupState.STOPPING
                    || a == GroupState.BLOCKED) {
                n++;
            }
        }
        return n;
    }

    /**
     * The peer's weight in the fencing race: the groups its last {@code rsc_hold} report covers, read
     * as {@link #peerMayHoldAGroup} reads it (its {@code local} bit covers the groups it prefers, its
     * {@code foreign} bit ours).
     */
    private int peerGroupsHeld() {
        int n = 0;
        for (int i = 0; i < groups.size(); i++) {
            if (peerMayRun(i)) {
                n++;
            }
        }
        return n;
    }

    private void startFencing(List<Effect> out) {
        if (state != TakeoverState.FENCING) {
            stateBeforeFence = state;
        }
        fenceDelayed = false;
        state = TakeoverState.FENCING;
        standbyStep = StandbyStep.NONE;
        deadlineNanos = Long.MAX_VALUE;
        fenceAttempts = 1;
        fenceStatus = "fencing " + peer + " (attempt 1)";
        out.add(new Effect.FencePeer(peer));
    }

    private void takeOverFromDeadPeer(List<Effect> out) {
        takeovers++;
        for (int i = 0; i < groups.size(); i++) {
            if (inMaintenance(i) && actual[i] != GroupState.RUNNING && !failedHere[i] && !disputed[i]) {
                out.add(new LogLine(Level.WARN, "Maintenance (" + maintenanceReason(i) + "): resource group "
                        + groups.get(i).key() + " would be taken over from " + peer + " now; it is left as it is"
                        + " ('hb maintenance off' decides from what runs)"));
            }
        }
        out.add(new LogLine(Level.INFO, "Resources being acquired from " + peer + "."));
        state = TakeoverState.STABLE;
        standbyStep = StandbyStep.NONE;
        deadlineNanos = Long.MAX_VALUE;
        setDesired(true, true, true);
        settleInfo = Settlement.MACH_DOWN;
    }

    private void onFenceOutcome(TakeoverEvent.FenceOutcome e, List<Effect> out, long now) {
        if (state != TakeoverState.FENCING) {
            return;
        }
        if (peerRestartedWhileFencing) {
            // heard with a new generation since the fence was asked for: whether the device reset the old run
            // or the new one, the run it was meant for is over. A new run that is down again is declared dead
            // by its silence (and fenced then); one that runs holds what it took since: nothing is taken over
            peerRestartedWhileFencing = false;
            String outcome = (e.fenced() ? "confirmed" : "failed") + " (" + e.detail() + ")";
            if (peerPresence == PeerPresence.LOST) {
                // the new run died too, and may hold what it took since: it is fenced in turn
                out.add(new LogLine(Level.WARN, "STONITH of " + peer + " " + outcome + ", but " + peer + " restarted"
                        + " and died again since it was asked for: fencing it again."));
                startFencing(out);
                return;
            }
            if (peerPresence == PeerPresence.GONE) {
                out.add(new LogLine(Level.INFO, "STONITH of " + peer + " " + outcome + "; " + peer + " restarted and"
                        + " shut down since."));
                fenceStatus = "fencing " + peer + " " + outcome + " after it restarted and shut down";
                takeOverFromDeadPeer(out);
                return;
            }
            fenceStatus = "fencing " + peer + " " + outcome + " after it restarted";
            out.add(new LogLine(Level.WARN, "STONITH of " + peer + " " + outcome + ", but " + peer + " was heard"
                    + " restarted since it was asked for: nothing is taken over from it."));
            if (stateBeforeFence == TakeoverState.NEGOTIATING) {
                // fenced before we had negotiated (its silence at initdead): negotiate now with the run heard
                // (its starting, answered in flux while fencing, is not sent again)
                state = TakeoverState.NEGOTIATING;
                deadlineNanos = now + NEGOTIATION_TIMEOUT_NANOS;
                negotiate(false, out);
                return;
            }
            state = TakeoverState.STABLE;
            standbyStep = StandbyStep.NONE;
            deadlineNanos = Long.MAX_VALUE;
            boolean missing = false;
            for (int i = 0; i < groups.size(); i++) {
                missing |= isLocal(i) && !desired[i];
            }
            if (missing) {
                setDesiredFor(true, true);
                settleInfo = Settlement.RESTART;
            }
            return;
        }
        if (e.fenced()) {
            fenceStatus = peer + " fenced after " + fenceAttempts + " attempt(s): " + e.detail();
            out.add(new LogLine(Level.INFO, "node " + peer + " now reset."));
            out.add(new Announce(new StonithReport(peer, "OK")));
            // fenced means down: its next silence is not a new death to fence again
            peerPresence = PeerPresence.GONE;
            peerHolds = ResourceSet.NONE;
            peerReport = null;
            // powered off: nothing of it runs any more, whatever it could not stop
            Arrays.fill(peerBlocked, false);
            Arrays.fill(peerFailed, false);
            state = TakeoverState.STABLE;
            takeOverFromDeadPeer(out);
        } else {
            fenceStatus = "fencing " + peer + " failed " + fenceAttempts + " time(s), retrying every "
                    + FENCE_RETRY_NANOS / 1_000_000_000L + " s; last: " + e.detail();
            out.add(new LogLine(Level.CRIT, "STONITH of " + peer + " failed.  Retrying... (" + e.detail()
                    + "; its resources are NOT taken over until it is fenced)"));
            deadlineNanos = now + FENCE_RETRY_NANOS;
        }
    }

    private void requestStandby(ResourceSet set, List<Effect> out, long now) {
        handoverIsTakeover = false;
        Optional<String> refusal = handoverRefusal().or(() -> maintenanceIn(set));
        handoverSerial++;
        if (refusal.isPresent()) {
            out.add(new LogLine(Level.WARN, "Standby [" + set + "] refused: " + refusal.get()));
            finishHandover(Handover.REFUSED, refusal.get());
            return;
        }
        handover = Handover.IN_PROGRESS;
        handoverProblems.clear();
        handoverDetail = "standby [" + set + "]";
        out.add(new LogLine(Level.INFO, "Going standby [" + set + "]."));
        state = TakeoverState.STANDBY_GIVING;
        standbySet = set;
        standbyStep = StandbyStep.AWAITING_PEER;
        deadlineNanos = now + STANDBY_REPLY_TIMEOUT_NANOS;
        out.add(new Announce(new AskResources(set, StandbyPhase.ME)));
    }

    /**
     * {@code hb takeover SET}: ask the peer, with Heartbeat's {@code hb_takeover rsc_hold=SET}
     * message, to hand us SET (relative to us); the peer answers by going standby with the mirrored
     * set, and this node takes the groups in STANDBY_TAKING.
     */
    private void requestTakeover(ResourceSet set, List<Effect> out, long now) {
        handoverIsTakeover = true;
        Optional<String> refusal = handoverRefusal().or(() -> maintenanceIn(set));
        for (int i = 0; i < groups.size() && refusal.isEmpty(); i++) {
            if (failedHere[i] && (isLocal(i) ? set.includesLocal() : set.includesForeign())) {
                refusal = Optional.of("resource group " + groups.get(i).key() + " failed to start on " + me
                        + "; clear it first with 'hb cleanup " + groups.get(i).key() + "'");
            }
        }
        handoverSerial++;
        if (refusal.isPresent()) {
            out.add(new LogLine(Level.WARN, "Takeover [" + set + "] refused: " + refusal.get()));
            finishHandover(Handover.REFUSED, refusal.get());
            return;
        }
        handover = Handover.IN_PROGRESS;
        handoverProblems.clear();
        handoverDetail = "takeover [" + set + "]";
        handoverDeadlineNanos = now + TAKEOVER_REPLY_TIMEOUT_NANOS;
        out.add(new LogLine(Level.INFO, "Asking " + peer + " to hand over [" + set + "] resources (hb_takeover)."));
        out.add(new Announce(new Announcement.Takeover(set)));
    }

    private Optional<String> handoverRefusal() {
        if (!peerPresence.alive()) {
            return Optional.of(peer + " is not alive");
        }
        if (state != TakeoverState.STABLE || !settled()) {
            return Optional.of((state == TakeoverState.STANDBY_GIVING || state == TakeoverState.STANDBY_TAKING
                    ? "standby in progress" : "local resources in flux")
                    + " (" + state.name().toLowerCase(java.util.Locale.ROOT) + ")");
        }
        if (peerPresence != PeerPresence.STABLE) {
            return Optional.of(peer + "'s resources are in flux");
        }
        if (resyncing) {
            return Optional.of("this node did not run for a while and waits for " + peer + "'s account of what runs");
        }
        if (handover == Handover.IN_PROGRESS) {
            return Optional.of("standby in progress (" + handoverDetail + ")");
        }
        return Optional.empty();
    }

    /** The exchange ran to its end: DONE, or FAILED naming every group that did not end where it should. */
    private void finishHandoverDone(String detail) {
        if (handoverProblems.isEmpty()) {
            finishHandover(Handover.DONE, detail);
        } else {
            finishHandover(Handover.FAILED, detail + ", but " + String.join("; ", handoverProblems));
        }
    }

    private void finishHandover(Handover result, String detail) {
        handoversFinished[handoverIsTakeover ? 1 : 0][result.ordinal()]++;
        handover = result;
        handoverDetail = detail;
        handoverDeadlineNanos = Long.MAX_VALUE;
    }

    private void onShutdown(List<Effect> out) {
        if (state == TakeoverState.SHUTTING_DOWN) {
            return;
        }
        if (!settled()) {
            out.add(new LogLine(Level.INFO, "Shutdown delayed until current resource activity finishes."));
        }
        if (fenceDelayed) {
            fenceDelayed = false;
            fenceStatus = "fence of " + peer + " not started: this node shut down during the fence delay";
        }
        state = TakeoverState.SHUTTING_DOWN;
        out.add(new Announce(new Resources(ResourceSet.NONE, false, "shutdown")));
        out.add(new LogLine(Level.INFO, "Giving up all HA resources."));
        Arrays.fill(desired, false);
    }

    private void onTick(List<Effect> out, long now) {
        if (state == TakeoverState.FENCING && fenceDelayed && now >= deadlineNanos) {
            out.add(new LogLine(Level.INFO, "Resetting node " + peer + " with STONITH before taking over its resources."));
            startFencing(out);
            return;
        }
        if (state == TakeoverState.FENCING && now >= deadlineNanos) {
            deadlineNanos = Long.MAX_VALUE;
            fenceAttempts++;
            fenceStatus = "fencing " + peer + " (attempt " + fenceAttempts + ")";
            out.add(new Effect.FencePeer(peer));
            return;
        }
        if (now >= handoverDeadlineNanos && handover == Handover.IN_PROGRESS && state == TakeoverState.STABLE) {
            out.add(new LogLine(Level.WARN, peer + " did not hand over in time; takeover request cancelled."));
            finishHandover(Handover.CANCELLED, peer + " did not start a standby within "
                    + TAKEOVER_REPLY_TIMEOUT_NANOS / 1_000_000_000L + " s");
        }
        if (now < deadlineNanos) {
            return;
        }
        deadlineNanos = Long.MAX_VALUE;
        if (state == TakeoverState.STANDBY_GIVING && standbyStep == StandbyStep.AWAITING_PEER) {
            out.add(new LogLine(Level.WARN, "No reply to standby request.  Standby request cancelled."));
            state = TakeoverState.STABLE;
            finishHandover(Handover.CANCELLED, "no reply from " + peer + " to the standby request");
        } else if (state == TakeoverState.NEGOTIATING && peerReport == null && peerPresence.alive()) {
            // it is alive but did not answer stable: our starting may have been lost, or it is still busy;
            // taking our groups now could start one it runs, so ask again (Heartbeat takes them: RQSTDELAY)
            out.add(new LogLine(Level.INFO, "No stable resource answer from " + peer + " in time; asking again."));
            answerWhenSettled = false;
            deadlineNanos = now + NEGOTIATION_TIMEOUT_NANOS;
            out.add(new Announce(new Starting()));
        } else if (state == TakeoverState.NEGOTIATING) {
            out.add(new LogLine(Level.INFO, "No stable resource answer from " + peer
                    + " in time; taking our own groups it does not run."));
            negotiate(true, out);
        }
    }

    /**
     * Whether group {@code i} should run here: the protocol wants it here ({@code desired}, which a
     * failed start on the peer also sets: the offer), but never when it failed here or is blocked on
     * the peer (it may run there), or is disputed (the peer's haresources defines it differently).
     * FAILED and BLOCKED groups are left alone.
     */
    /** The first group of {@code set} (relative to this node) in maintenance, as a refusal; empty if none. */
    private Optional<String> maintenanceIn(ResourceSet set) {
        for (int i = 0; i < groups.size(); i++) {
            if ((isLocal(i) ? set.includesLocal() : set.includesForeign()) && inMaintenance(i)) {
                return Optional.of("resource group " + groups.get(i).key() + " is in maintenance ("
                        + maintenanceReason(i) + "); end it first with 'hb maintenance off'");
            }
        }
        return Optional.empty();
    }

    private boolean want(int i) {
        return desired[i] && !failedHere[i] && !peerBlocked[i] && !disputed[i];
    }

    /**
     * Whether the live peer's own report says group {@code i} runs, starts, stops or is blocked there: then
     * it is not started here, whatever the protocol wants (it starts once the peer reports it stopped or
     * failed, or is gone). Also while that peer, declared dead, is being fenced: a group we wanted anyway
     * (our own, back from the peer after a cleanup here) may still run there until the fence is confirmed,
     * which drops the report. Without a report (a Heartbeat 3.0.6 peer) the protocol alone decides.
     */
    private boolean peerReportsIt(int i) {
        return peerReport != null && (peerPresence.alive() || state == TakeoverState.FENCING)
                && occupies(peerReport.get(groups.get(i).key()));
    }

    /** Issues starts/stops so that actual state converges on {@link #want}, one operation per group. */
    private void reconcile(List<Effect> out) {
        for (int i = groups.size() - 1; i >= 0; i--) {
            if (!want(i) && actual[i] == GroupState.RUNNING && !inMaintenance(i)) {
                actual[i] = GroupState.STOPPING;
                out.add(new StopGroup(i, state == TakeoverState.SHUTTING_DOWN ? GroupOpReason.SHUTDOWN
                        : disputed[i] ? GroupOpReason.DISPUTED
                        : state == TakeoverState.STANDBY_GIVING ? GroupOpReason.STANDBY_RELEASE
                        : GroupOpReason.PARTITION_RELEASE));
            }
        }
        for (int i = 0; i < groups.size(); i++) {
            if (want(i) && actual[i] == GroupState.STOPPED && !identityConflict && !resyncing && !inMaintenance(i)
                    && !peerReportsIt(i)) {
                actual[i] = GroupState.STARTING;
                out.add(new StartGroup(i, state == TakeoverState.STANDBY_TAKING ? GroupOpReason.STANDBY_ACQUIRE
                        : peerFailed[i] && peerPresence.alive() ? GroupOpReason.OFFER_ACCEPT
                        : !peerPresence.alive() || !isLocal(i) ? GroupOpReason.TAKEOVER : GroupOpReason.LOCAL_START));
            }
        }
    }

    private void settleIfDone(List<Effect> out) {
        if (!settled()) {
            return;
        }
        switch (state) {
            case STABLE -> {
                if (settleInfo != null) {
                    Settlement info = settleInfo;
                    settleInfo = null;
                    answerWhenSettled = false;
                    out.add(new LogLine(Level.INFO, info.logLine(peer)));
                    out.add(new Announce(new Resources(holdings(), true, info.wireInfo())));
                } else if (answerWhenSettled && peerPresence.alive()) {
                    answerWhenSettled = false;
                    out.add(new Announce(new Resources(holdings(), true, "")));
                }
            }
            case STANDBY_GIVING -> {
                if (standbyStep == StandbyStep.RELEASING) {
                    standbyStep = StandbyStep.RELEASED;
                    // from our done on the peer starts what we gave: should it die before it reports, it may
                    // hold them (fenced, not "gave up resources")
                    ResourceSet given = standbySet.mirrored();
                    peerHolds = ResourceSet.of(peerHolds.includesLocal() || given.includesLocal(),
                            peerHolds.includesForeign() || given.includesForeign());
                    out.add(new Announce(new AskResources(standbySet, StandbyPhase.DONE)));
                    out.add(new LogLine(Level.INFO, "Local standby process completed [" + standbySet + "]."));
                }
            }
            case STANDBY_TAKING -> {
                if (standbyStep == StandbyStep.ACQUIRING) {
                    out.add(new LogLine(Level.INFO, "Standby resource acquisition done [" + standbySet + "]."));
                    out.add(new Announce(new AskResources(standbySet, StandbyPhase.DONE)));
                    becomeStable("", out);
                    if (handover == Handover.IN_PROGRESS) {
                        finishHandoverDone("acquired [" + standbySet.mirrored() + "] from " + peer);
                    }
                }
            }
            case SHUTTING_DOWN -> {
                if (removedStopping()) {
                    return; // shutdone says we hold nothing: not while a reload still stops a removed group
                }
                List<String> left = new ArrayList<>();
                for (int i = 0; i < groups.size(); i++) {
                    if (inMaintenance(i) && actual[i] != GroupState.STOPPED && actual[i] != GroupState.FAILED) {
                        left.add(groups.get(i).key() + " (" + actual[i].displayName() + ")");
                    }
                }
                out.add(left.isEmpty() ? new LogLine(Level.INFO, "All HA resources relinquished.")
                        : new LogLine(Level.WARN, "HA resources relinquished, except resource groups in maintenance,"
                        + " left as they are: " + String.join(", ", left)));
                out.add(new Announce(new ShutDone()));
                out.add(new Effect.ShutdownComplete());
                state = TakeoverState.STOPPED;
            }
            default -> { }
        }
    }

    private void becomeStable(String info, List<Effect> out) {
        state = TakeoverState.STABLE;
        standbyStep = StandbyStep.NONE;
        deadlineNanos = Long.MAX_VALUE;
        settleInfo = null;
        answerWhenSettled = false;
        out.add(new Announce(new Resources(holdings(), true, info)));
    }

    private void setDesired(boolean local, boolean foreign, boolean run) {
        for (int i = 0; i < groups.size(); i++) {
            if (isLocal(i) ? local : foreign) {
                desired[i] = run;
            }
        }
    }

    private void setDesiredFor(boolean localGroups, boolean run) {
        for (int i = 0; i < groups.size(); i++) {
            if (isLocal(i) == localGroups) {
                desired[i] = run;
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
    private boolean peerMayHoldAGroup() {
        for (int i = 0; peerReport != null && i < groups.size(); i++) {
            if (occupies(peerReport.get(groups.get(i).key()))) {
                return true; // its own account: the bits miss groups taken as offers or after maintenance
            }
        }
        boolean peerLocalGroups = false;
        boolean peerForeignGroups = false;
        for (int i = 0; i < groups.size(); i++) {
            peerLocalGroups |= !isLocal(i);
            peerForeignGroups |= isLocal(i);
        }
        return peerHolds.includesLocal() && peerLocalGroups || peerHolds.includesForeign() && peerForeignGroups;
    }

    private boolean isLocal(int i) {
        return groups.get(i).preferredNode().equals(me);
    }

    private boolean holdsAny(boolean localGroups) {
        for (int i = 0; i < groups.size(); i++) {
            if (isLocal(i) == localGroups
                    && (actual[i] == GroupState.RUNNING || actual[i] == GroupState.STARTING)) {
                return true;
            }
        }
        return false;
    }

    /** True when no group is starting or stopping and every group is where it should be. */
    public boolean settled() {
        for (int i = 0; i < groups.size(); i++) {
            GroupState a = actual[i];
            if (a == GroupState.STARTING || a == GroupState.STOPPING) {
                return false;
            }
            if (inMaintenance(i)) {
                continue; // left as it is: whatever runs is where it should be
            }
            if (want(i) ? a == GroupState.STOPPED && !peerReportsIt(i) : a == GroupState.RUNNING) {
                return false;
            }
        }
        return true;
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
        return peerFailed[i] || peerBlocked[i];
    }

    /** Run state of group {@code i}. */
    public GroupState groupState(int i) {
        return actual[i];
    }

    /**
     * Why group {@code i} is FAILED or BLOCKED here, or whether it failed on (or is blocked on) the
     * peer; empty when nothing is wrong. One line, for {@code hb status}.
     */
    public String groupProblem(int i) {
        List<String> p = new ArrayList<>();
        if (actual[i] == GroupState.BLOCKED) {
            p.add("could not be stopped here" + (failureDetail[i].isEmpty() ? "" : ": " + failureDetail[i]));
        } else if (failedHere[i]) {
            p.add(failedWhat[i] + " here" + (failureDetail[i].isEmpty() ? "" : ": " + failureDetail[i]));
        }
        if (peerBlocked[i]) {
            p.add("could not be stopped on " + peer);
        } else if (peerFailed[i]) {
            p.add("failed to start on " + peer);
        }
        if (!p.isEmpty() && (failedHere[i] && peerFailed[i] || actual[i] == GroupState.BLOCKED || peerBlocked[i])) {
            p.add("clear with 'hb cleanup " + groups.get(i).key() + "'");
        }
        if (identityConflict && actual[i] != GroupState.RUNNING) {
            p.add("not started here while another live node uses this node's name " + me
                    + " (see the CRIT log line; issue 15)");
        }
        return String.join("; ", p);
    }

    /**
     * Marks group {@code i} as BLOCKED before the machine runs: found running at start-up and its
     * stop failed. It is announced to the peer at comm up, before {@code starting}.
     *
     * @param detail why the stop failed
     */
    public void blockedAtStartup(int i, String detail) {
        actual[i] = GroupState.BLOCKED;
        failureDetail[i] = detail;
    }

    /**
     * Group {@code key}, which haresources no longer defines, was left here as it is: the start-up found it
     * running and left it ({@code state} RUNNING: in maintenance; BLOCKED: its release failed), or a reload's
     * stop of it failed (BLOCKED). It counts as running here ({@link #removedLeftRunning}) until a reload
     * adds it back in that state. Ignored for a group defined now (added back meanwhile).
     */
    public void leftUnmanaged(String key, GroupState state) {
        if (groups.stream().noneMatch(g -> g.key().equals(key))) {
            removedLeftHere.put(key, state);
        }
    }

    /**
     * Self-fencing on a stop failure (Heartbeat rebooted; jheartbeat only when the admin asks, {@code hb
     * daemon --self-fence-command}): a group that cannot be stopped makes this node tell the peer and
     * ask for a {@link Effect.SelfFence} instead of staying blocked. Set before the first event.
     */
    public void selfFenceOnStopFailure(boolean on) {
        this.selfFence = on;
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
        return inMaintenance(i, maintenance);
    }

    private boolean inMaintenance(int i, Maintenance m) {
        if (unmanaged[i] || peerLeftRunning[i] || m.covers(me, groups.get(i).key())) {
            return true;
        }
        return m.nodes().contains(peer.value()) && actual[i] != GroupState.RUNNING && actual[i] != GroupState.STARTING
                && actual[i] != GroupState.STOPPING && actual[i] != GroupState.BLOCKED;
    }

    /** Why group {@code i} is in maintenance here, for logs and {@code hb status}; empty when it is not. */
    public String maintenanceReason(int i) {
        String r = maintenance.reason(me, groups.get(i).key());
        if (!r.isEmpty()) {
            return r;
        }
        if (unmanaged[i]) {
            return "found running on both " + me + " and " + peer + " when maintenance ended: stop it on one node,"
                    + " then run 'hb maintenance off' again";
        }
        if (peerLeftRunning[i]) {
            return peer + " restarted after it last reported it running there (its new run may have kept it, as in"
                    + " maintenance); waiting for " + peer + "'s own report of it";
        }
        return inMaintenance(i) ? "node " + peer : "";
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
        for (int i : groupsThere) {
            if (i < groups.size() && (actual[i] == GroupState.STOPPED || actual[i] == GroupState.FAILED)) {
                peerLeftRunning[i] = true;
                out.add(new LogLine(Level.WARN, "Resource group " + groups.get(i).key() + ": " + maintenanceReason(i)
                        + "; not started here meanwhile"));
            }
        }
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
        if (!peerLeftRunning[i]) {
            return false;
        }
        peerLeftRunning[i] = false;
        boolean peerAlive = peerPresence != PeerPresence.LOST && peerPresence != PeerPresence.GONE
                && peerPresence != PeerPresence.UNKNOWN;
        if (runsThere || peerAlive && !isLocal(i)) {
            // a live peer's own group that does not run there is its to take (it negotiates after its
            // restart, and our answers never claimed it while it was held here): a death declared meanwhile
            // must not start it here as the peer starts it
            desired[i] = false;
        }
        out.add(new LogLine(Level.INFO, "Resource group " + groups.get(i).key() + (runsThere ? " runs on " + peer
                + " by its report: left there" : " does not run on " + peer + " by its report: managed again")));
        return true;
    }

    /** The maintenance setting this machine works with. */
    public Maintenance maintenance() {
        return maintenance;
    }

    /**
     * The groups that are in maintenance here now and would not be under {@code next}: those to probe
     * before feeding {@link TakeoverEvent.MaintenanceSet} with {@code next}.
     */
    public java.util.Set<Integer> leavingMaintenance(Maintenance next) {
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        for (int i = 0; i < groups.size(); i++) {
            if (inMaintenance(i) && !next.covers(me, groups.get(i).key())
                    && !(next.nodes().contains(peer.value()) && actual[i] != GroupState.RUNNING)) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * The new setting: groups that enter maintenance are no longer watched (their state here is
     * kept as it was); probed groups that leave it take what runs as their state: running here is
     * adopted (never restarted), running on the peer is left there, running nowhere is started by
     * the node it belongs to (its preferred node, or this one when the peer is not alive), running on
     * both is refused: left alone here, CRIT.
     */
    private void onMaintenanceSet(TakeoverEvent.MaintenanceSet e, List<Effect> out) {
        boolean[] was = new boolean[groups.size()];
        for (int i = 0; i < groups.size(); i++) {
            was[i] = inMaintenance(i);
        }
        Maintenance before = maintenance;
        maintenance = e.setting();
        if (!before.describe().equals(maintenance.describe())) {
            out.add(new LogLine(Level.INFO, "Maintenance mode: " + maintenance.describe() + " (was " + before.describe()
                    + ")"));
        }
        boolean changed = false;
        for (int i = 0; i < groups.size(); i++) {
            String key = groups.get(i).key();
            if (e.probed().contains(i) && !maintenance.covers(me, key)) {
                boolean here = e.runsHere().contains(i);
                boolean partly = e.partlyHere().contains(i);
                boolean there = e.runsOnPeer().contains(i);
                unmanaged[i] = false;
                if (actual[i] == GroupState.STARTING || actual[i] == GroupState.STOPPING) {
                    out.add(new LogLine(Level.INFO, "Resource group " + key + " is " + actual[i].displayName()
                            + ": the operation issued before its maintenance decides where it ends"));
                    continue;
                }
                if ((here || partly) && there) {
                    unmanaged[i] = true;
                    out.add(new LogLine(Level.CRIT, "Resource group " + key + " runs on both " + me + " and " + peer
                            + ": left alone here; stop it on the node it should not run on, then run"
                            + " 'hb maintenance off' again"));
                    continue;
                }
                changed = true;
                if (actual[i] == GroupState.BLOCKED) {
                    continue; // may run here, unknown: only hb cleanup frees it
                }
                if (here) {
                    actual[i] = GroupState.RUNNING;
                    desired[i] = state != TakeoverState.SHUTTING_DOWN; // shutting down: adopted, then stopped
                    out.add(new LogLine(Level.INFO, "Resource group " + key + " runs on " + me + ": adopted as it is"));
                    out.add(new Effect.WatchGroup(i, true));
                } else if (partly) {
                    actual[i] = failedHere[i] ? GroupState.FAILED : GroupState.STOPPED;
                    desired[i] |= state == TakeoverState.STABLE;
                    out.add(new LogLine(Level.INFO, "Resource group " + key + " runs partly on " + me
                            + ": starting the rest of it here"));
                } else {
                    actual[i] = failedHere[i] ? GroupState.FAILED : GroupState.STOPPED;
                    if (state == TakeoverState.STABLE) {
                        // in any other state the protocol decides: the negotiation, the takeover after a fence,
                        // the standby exchange in progress, the shutdown
                        desired[i] = !there && (!peerPresence.alive() || isLocal(i));
                    }
                    out.add(new LogLine(Level.INFO, "Resource group " + key + (there ? " runs on " + peer
                            + ": left there" : " runs nowhere: " + (desired[i] ? "starting it on " + me
                            : "it belongs to " + peer))));
                }
            } else if (!was[i] && inMaintenance(i)) {
                out.add(new LogLine(Level.INFO, "Resource group " + key + " is in maintenance ("
                        + maintenanceReason(i) + "): left " + (actual[i] == GroupState.RUNNING ? "running" : "as it is")
                        + " here, not watched, not moved"));
                out.add(new Effect.WatchGroup(i, false));
            }
        }
        if (changed && state == TakeoverState.STABLE && settleInfo == null) {
            settleInfo = Settlement.MAINTENANCE; // announce what we hold once any start ends
        }
    }

    /**
     * The groups a reload removed while in maintenance here that were left running (or blocked: they may
     * run) and have not been added back, by key: they run here as far as this node knows.
     */
    public java.util.Set<String> removedLeftRunning() {
        return java.util.Set.copyOf(removedLeftHere.keySet());
    }

    /**
     * The groups haresources no longer defines that may still run here, by key, with their state: stopping while
     * the reload that removed them stops them, blocked when that stop failed (or they were), running when left in
     * maintenance. The peer is told them in our {@code jhb-groups}: it may still define them, and must not start
     * them meanwhile (Pacemaker likewise keeps an orphaned resource active in its status until it is stopped).
     */
    public java.util.Map<String, GroupState> removedLeftHere() {
        return java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(removedLeftHere));
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
        if (removedLeftHere.get(key) != GroupState.STOPPING) {
            return out;
        }
        if (ok) {
            removedLeftHere.remove(key);
        } else {
            removedLeftHere.put(key, GroupState.BLOCKED);
            out.add(new Announce(new Announcement.GroupFailed(key, GroupFailure.STOP)));
        }
        out.addAll(on(new TakeoverEvent.Tick(), nowNanos)); // settles: a shutdown waits for such a stop
        return out;
    }

    /** Whether the stop of a group a reload removed is still under way. */
    public boolean removedStopping() {
        return removedLeftHere.containsValue(GroupState.STOPPING);
    }

    /**
     * Marks group {@code i} as running here before the machine runs: a daemon that starts in
     * maintenance found it running and leaves it so (issue 20).
     */
    public void runningAtStartup(int i) {
        actual[i] = GroupState.RUNNING;
        desired[i] = true;
    }

    /**
     * Sets the maintenance setting before the machine runs (the state file at start-up); events after
     * that go through {@link TakeoverEvent.MaintenanceSet}.
     */
    public void maintenanceAtStartup(Maintenance setting) {
        this.maintenance = setting;
    }

    /** Whether group {@code i} is disputed: the peer's haresources defines it differently. */
    public boolean disputed(int i) {
        return disputed[i];
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
        return Math.min(deadlineNanos, handoverDeadlineNanos);
    }

    /**
     * Whether the peer is a Heartbeat 3.0.6 node (it sent no {@code jhb-config} after comm up), which fences
     * at once: then, in a race of a cut of every link, this node always waits {@link #fenceDelay} whatever
     * the weights, so that one of the two survives (docs/design/stonith.md, "Fence delay"). Set by the engine
     * before each peer death; default false (the peer is a jheartbeat node and plays by the same rule).
     */
    public void peerNeverDelaysFencing(boolean heartbeatPeer) {
        this.peerNeverDelaysFencing = heartbeatPeer;
    }

    /**
     * How long this node waits before fencing a lost peer when it loses the fencing race (jheartbeat.yaml
     * {@code stonith: fence_delay}; the model is Pacemaker's {@code priority-fencing-delay}, Heartbeat
     * 3.0.6 fences at once). The race: weight = the resource groups a node holds (here: RUNNING or
     * STARTING; the peer: what its last {@code rsc_hold} covers); the lighter node, or with equal
     * weights the node listed later in ha.cf, waits; the other fences at once. The peer heard again
     * during the wait cancels the fence. Set before the first event.
     *
     * @param nanos the delay in ns; 0 (the machine's default) fences at once, as before
     * @throws IllegalArgumentException when {@code nanos} is negative
     */
    public void fenceDelay(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("fence delay " + nanos + " ns is negative");
        }
        this.fenceDelayNanos = nanos;
    }

    /**
     * Off only in tests that prove the rule ({@code SafetyRules}): a dead peer's groups are then taken over
     * without fencing it first, as without a device. Set before the first event.
     */
    public void fenceBeforeTakeover(boolean on) {
        this.fenceBeforeTakeover = on;
    }

    /** Whether a fence of the peer is waiting out the fence delay (nothing sent to the device yet). */
    public boolean fenceDelayed() {
        return fenceDelayed;
    }

    /** One line about fencing for {@code hb status}: {@code none}, delayed, in progress with attempts, or done. */
    public String fenceStatus() {
        return fenceStatus;
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
        return handoversFinished[takeover ? 1 : 0][outcome.ordinal()];
    }

    /** Outcome of the latest standby/takeover request (operator or auto-failback). */
    public Handover handover() {
        return handover;
    }

    /** One line about {@link #handover()}: what was asked and how it ended. */
    public String handoverDetail() {
        return handoverDetail;
    }

    /** Increases with every standby/takeover request, so a caller can tell its own from a later one. */
    public long handoverSerial() {
        return handoverSerial;
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
        for (GroupState a : actual) {
            if (a == GroupState.STARTING || a == GroupState.STOPPING) {
                throw new IllegalStateException("resource groups are starting or stopping");
            }
        }
        if (state != TakeoverState.AWAITING_COMM && state != TakeoverState.NEGOTIATING
                && state != TakeoverState.STABLE) {
            throw new IllegalStateException("resource groups cannot change in state " + state);
        }
        java.util.Map<String, Integer> old = new java.util.HashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            old.putIfAbsent(groups.get(i).key(), i);
        }
        int n = newGroups.size();
        GroupState[] actual2 = new GroupState[n];
        boolean[] desired2 = new boolean[n];
        boolean[] failedHere2 = new boolean[n];
        boolean[] peerFailed2 = new boolean[n];
        boolean[] peerBlocked2 = new boolean[n];
        String[] failureDetail2 = new String[n];
        String[] failedWhat2 = new String[n];
        boolean[] disputed2 = new boolean[n];
        boolean[] unmanaged2 = new boolean[n];
        boolean[] peerLeftRunning2 = new boolean[n];
        java.util.Set<String> newKeys = new java.util.HashSet<>();
        newGroups.forEach(g -> newKeys.add(g.key()));
        for (int i = 0; i < groups.size(); i++) {
            if (failedHere[i] && !newKeys.contains(groups.get(i).key())) {
                removedFailedHere.put(groups.get(i).key(), new String[] {failureDetail[i], failedWhat[i]});
            }
            if (!newKeys.contains(groups.get(i).key()) && (actual[i] == GroupState.BLOCKED
                    || inMaintenance(i) && actual[i] == GroupState.RUNNING)) {
                removedLeftHere.put(groups.get(i).key(), actual[i]);
            } else if (!newKeys.contains(groups.get(i).key()) && actual[i] == GroupState.RUNNING) {
                // the reload stops it: it may run here, and is reported so, until that stop ends (removedStopEnded)
                removedLeftHere.put(groups.get(i).key(), GroupState.STOPPING);
            }
        }
        for (int j = 0; j < n; j++) {
            ResourceGroupDecl g = newGroups.get(j);
            Integer i = old.get(g.key());
            if (i != null) {
                actual2[j] = actual[i];
                desired2[j] = desired[i];
                failedHere2[j] = failedHere[i];
                peerFailed2[j] = peerFailed[i];
                peerBlocked2[j] = peerBlocked[i];
                failureDetail2[j] = failureDetail[i];
                failedWhat2[j] = failedWhat[i];
                disputed2[j] = disputed[i];
                unmanaged2[j] = unmanaged[i];
                peerLeftRunning2[j] = peerLeftRunning[i];
            } else {
                actual2[j] = GroupState.STOPPED;
                failureDetail2[j] = "";
                failedWhat2[j] = STARTING_FAILED;
                String[] failed = removedFailedHere.remove(g.key());
                GroupState left = removedLeftHere.remove(g.key());
                if (left != null) {
                    actual2[j] = left; // it ran on, unmanaged, while it was not in haresources
                    desired2[j] = left == GroupState.RUNNING;
                    failureDetail2[j] = left == GroupState.BLOCKED ? "left running here while not in haresources"
                            + " (could not be stopped)" : "";
                } else if (failed != null) {
                    failedHere2[j] = true; // offered to the peer before it was removed: still not ours to start
                    actual2[j] = GroupState.FAILED; // and reported so
                    failureDetail2[j] = failed[0];
                    failedWhat2[j] = failed[1];
                    // offered again: a peer that restarted meanwhile forgot the offer, and the failures a
                    // node announces to a starting peer did not include a group it did not define then
                    out.add(new Announce(new Announcement.GroupFailed(g.key(), GroupFailure.START)));
                } else {
                    desired2[j] = state == TakeoverState.STABLE && wantedAfterRegroup(g, share, peerReport.apply(g.key()));
                }
            }
        }
        groups = List.copyOf(newGroups);
        actual = actual2;
        desired = desired2;
        failedHere = failedHere2;
        peerFailed = peerFailed2;
        peerBlocked = peerBlocked2;
        failureDetail = failureDetail2;
        failedWhat = failedWhat2;
        failingRunning = new boolean[n]; // only set while a group is STOPPING, which a regroup refuses
        disputed = disputed2;
        unmanaged = unmanaged2;
        peerLeftRunning = peerLeftRunning2;
        if (state == TakeoverState.STABLE && settleInfo == null) {
            settleInfo = Settlement.CONFIG; // announce what we hold once the new groups have started
        }
        return out;
    }

    /** Whether a group in state {@code there} on the peer may run there (running, starting, stopping, blocked). */
    private static boolean runsThere(GroupState there) {
        return there == GroupState.RUNNING || there == GroupState.STARTING || there == GroupState.STOPPING
                || there == GroupState.BLOCKED;
    }

    /** Whether a group new to our haresources is wanted here in STABLE (see {@link #regroup}). */
    private boolean wantedAfterRegroup(ResourceGroupDecl g, ResourceSet share, GroupPlacement.PeerReport report) {
        boolean ours = g.preferredNode().equals(me);
        boolean weHoldItsKind = ours ? share.includesLocal() : share.includesForeign();
        if (report instanceof GroupPlacement.PeerReport.Reported r && runsThere(r.state())) {
            // also when the peer is dead: its report is dropped when it is fenced or restarts, so a
            // dead peer still reporting the group may run it (our bits may come from a takeover of a
            // peer that "gave up resources" while we did not define this group)
            return false;
        }
        if (!peerPresence.alive()) {
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
