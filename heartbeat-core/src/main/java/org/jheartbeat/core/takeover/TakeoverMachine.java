package org.jheartbeat.core.takeover;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Announcement.Resources;
import org.jheartbeat.core.takeover.Effect.Announce;

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
 * <p>The state × event table is docs/design/takeover.md's ("State × event table", checked cell by cell by
 * {@code TakeoverTableTest}); {@link #on} routes each event to the one handler of its family of rows:
 * CommUp, NEGOTIATING, PeerStarting, PeerResources, PeerGroupStates and PeerRestarted: {@link PeerReports};
 * PeerAskResources and the operator's StandbyRequested/TakeoverRequested: {@link StandbyHandler} (its
 * record: {@link StandbyExchange}); PeerDead/PeerShutdown, FenceOutcome and PeerReturned: {@link PeerLoss}
 * (the FENCING sub-state: {@link Fencing}); Tick: {@link Timeouts}; the failure rows and CleanupRequested:
 * {@link GroupFailures}; Resync, PeerGroupsRunning and double ownership: {@link DoubleOwnership};
 * MaintenanceSet: {@link MaintenancePolicy}; ShutdownRequested, IdentityConflict and GroupsDisputed:
 * {@link LocalEvents}; a reload: {@link GroupReload}. After every event {@link Reconciler} issues the
 * starts and stops and ends a settled transition. What is known of each group is one {@link GroupSlot}.
 * STOPPED ignores everything. Not thread-safe: owned by the cluster loop's thread.
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
    final GroupReload reload = new GroupReload(this);
    /** ShutdownRequested, IdentityConflict and GroupsDisputed: the rows about this node itself. */
    private final LocalEvents localEvents = new LocalEvents(this);

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
    /** We answered the peer's {@code starting} with {@code isstable=0}: tell it once we are settled. */
    boolean answerWhenSettled;

    /** The standby exchange and the operator's standby/takeover request it serves. */
    final StandbyExchange exchange = new StandbyExchange();
    /** When the current negotiation, standby request or fence step times out (monotonic ns), or MAX_VALUE. */
    long deadlineNanos = Long.MAX_VALUE;
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
        this.maint = new MaintenancePolicy(this);
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
        // the families are disjoint: exactly one handler takes each kind of event
        if (!(failures.on(event, out, nowNanos) || peerReports.on(event, out, nowNanos)
                || standby.on(event, out, nowNanos) || peerLoss.on(event, out, nowNanos)
                || timeouts.on(event, out, nowNanos) || doubleOwnership.on(event, out) || maint.on(event, out)
                || localEvents.on(event, out))) {
            throw new IllegalArgumentException("no handler for " + event);
        }
        doubleOwnership.resolveIfDue(out);
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
        peerReports.claimPredatesExchange(older);
    }

    /**
     * Whether a frame the peer sent after its last {@code jhb-groups} is missing now (a gap awaiting
     * retransmission; a newer report may be among them): while one is, that report is not taken for double
     * ownership (the next event after the gap is filled looks again).
     */
    public void peerReportMayBeOld(boolean mayBeOld) {
        doubleOwnership.peerReportMayBeOld(mayBeOld);
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
            return GroupState.occupies(peerReport.get(slots.get(i).key()));
        }
        return isLocal(i) ? peerHolds.includesForeign() : peerHolds.includesLocal();
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

    /** Whether another live node uses this node's name ({@link TakeoverEvent.IdentityConflict}): nothing is started. */
    public boolean identityConflict() {
        return identityConflict;
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
        return peerLoss.takeovers();
    }

    /** The maintenance setting, which groups it keeps out of the protocol here, and the start-up's findings. */
    public MaintenancePolicy maintenancePolicy() {
        return maint;
    }

    /** The configuration reload ({@link GroupReload#regroup}) and the groups it removed that may still run here. */
    public GroupReload reload() {
        return reload;
    }

    /** The operator's standby and takeover requests: the latest one's outcome, and the counts by outcome. */
    public StandbyExchange handovers() {
        return exchange;
    }
}
