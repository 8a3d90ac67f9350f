package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.membership.FailureDetector;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.membership.SequenceTracker;
import org.jheartbeat.core.ping.PingNodes;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.RscHold;
import org.jheartbeat.core.takeover.StartOutcome;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.takeover.TakeoverSettings;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WireFormatException;

/**
 * One node's protocol engine: turns authenticated inbound messages, timer ticks and group results into
 * {@link Effect}s, speaking Heartbeat 3.0.6's R1 protocol (facts C, D, E). It owns the
 * {@link FailureDetector}, the peer's {@link SequenceTracker} and the {@link TakeoverMachine}, and the
 * {@link OutboundStamper} that builds every packet. Pure: time comes in as arguments, I/O goes out as
 * effects. Not thread-safe: the cluster loop's single thread owns it.
 *
 * <p>Start-up follows Heartbeat: {@code status st=init}, then {@code up} every keepalive; once the
 * peer is heard, {@code reqnodes} every 1 s until its {@code repnodes} arrives, which is "comm up":
 * status becomes {@code active} and the resource negotiation starts. A peer never heard within
 * initdead is declared dead, and this node takes every group.
 *
 * <p>The engine routes, nothing else: each entry point goes to the part that routes that kind of input
 * ({@code ReceivePath}: the peer's frames and each message type; {@code TimerPath}; {@code MembershipRouting}:
 * the detector's verdicts, a pause, comm up; {@code LocalEvents}: group results, fencing, operator commands;
 * {@code MaintenanceRouting}; {@code PingRouting}; {@code ReloadPath}), and {@code MachineFeed} feeds the
 * machine and passes its effects on. The decisions live in pure classes beside it, which those parts feed:
 * {@code LocalStatus} (our status and beat), {@code FrameAdmission} (the peer's sequence numbers),
 * {@code FlowControl} (acks and retransmission), {@code ConfigAgreement} ({@code jhb-config}, disputed
 * groups), {@code MaintenanceCoordination} ({@code jhb-maint}), {@code PingCoordination} (ping nodes,
 * ipfail), {@code IdentityGuard} (another node with our name), {@code PauseResync} (a pause of this
 * process), {@code AutoFailback}, {@code PeerRuns} (which run of the peer a message is from, what it
 * leaves), {@code Regrouping} (a reload) and {@link GroupReports} ({@code jhb-groups}). The peer's liveness
 * is the machine's {@code PeerPresence}.
 */
public final class NodeEngine {
    // the parts, shared with the routing classes of this package (the engine's thread owns them all)
    ClusterConfig config;
    final NodeName me;
    final NodeName peer;
    Timing timing;
    final OutboundStamper stamper;
    final FailureDetector detector;
    final TakeoverMachine machine;
    final SequenceTracker peerSeq;
    final BadPacketCounter badPackets = new BadPacketCounter();
    final EventCounters counters = new EventCounters();
    final StaleFrameCounter staleFrames = new StaleFrameCounter();
    final RscHold rscHold;
    final AutoFailback failback;
    final FlowControl flow;
    final ConfigAgreement agreement;
    final MaintenanceCoordination maint;
    final PauseResync resync;
    final GroupReports groupReports = new GroupReports();
    final LocalStatus local;
    final CommUpHandshake handshake = new CommUpHandshake();
    final PingCoordination ping;
    final IdentityGuard identity;
    /** The peer's UUID from its frames (null until heard), for the {@code destuuid} of what we send it. */
    byte[] peerUuid;
    /** When the final beats after our {@code shutdone} end and the process exits. */
    long exitAtNanos = Long.MAX_VALUE;
    // the routing, by kind of input
    final ReceivePath receive = new ReceivePath(this);
    final MachineFeed machineFeed = new MachineFeed(this);
    final LocalEvents localEvents = new LocalEvents(this);
    final MaintenanceRouting maintenance = new MaintenanceRouting(this);
    final ReloadPath reload = new ReloadPath(this);
    final TimerPath timer = new TimerPath(this);
    final PingRouting pings = new PingRouting(this);
    final MembershipRouting membership = new MembershipRouting(this);

    /**
     * @param config     the cluster configuration (two nodes)
     * @param me         this node; must be one of {@code config.nodes()}
     * @param stamper    builds and signs outgoing packets
     * @param ackTrigger 0..9: we acknowledge peer messages whose {@code seq % 10} equals it (Heartbeat picks it at random)
     * @param startNanos monotonic time at start; initdead counts from here
     */
    public NodeEngine(ClusterConfig config, NodeName me, OutboundStamper stamper, int ackTrigger, long startNanos) {
        this(config, me, stamper, ackTrigger, startNanos, SafetyRules.ALL);
    }

    /** As the daemon's engine, with {@code rules} (tests only: the daemon uses {@link SafetyRules#ALL}). */
    public NodeEngine(ClusterConfig config, NodeName me, OutboundStamper stamper, int ackTrigger, long startNanos,
                      SafetyRules rules) {
        this(config, me, stamper, ackTrigger, startNanos, rules, TakeoverSettings.DEFAULTS);
    }

    /** @param takeover fence delay, self-fencing; the device and ha.cf order come from config, the rest from rules */
    public NodeEngine(ClusterConfig config, NodeName me, OutboundStamper stamper, int ackTrigger, long startNanos,
                      SafetyRules rules, TakeoverSettings takeover) {
        this.peerSeq = new SequenceTracker(rules.olderGenerationsAreReplays());
        this.config = config;
        this.me = me;
        this.peer = config.peerOf(me).orElseThrow(() -> new IllegalArgumentException("no peer node in ha.cf"));
        this.timing = config.timing();
        this.stamper = stamper;
        this.flow = new FlowControl(peer, ackTrigger);
        List<String> links = config.media().stream().map(MediumDecl::linkName).distinct().toList();
        this.detector = new FailureDetector(timing, List.of(peer), links, startNanos);
        this.machine = new TakeoverMachine(me, peer, config.resourceGroups(), config.autoFailback(),
                takeover.withFencing(config.stonithFor(me).isPresent()).withFenceBeforeTakeover(rules.fenceBeforeTakeover())
                        .withPeerFirstInHaCf(config.nodes().indexOf(peer) < config.nodes().indexOf(me)));
        this.rscHold = new RscHold(Regrouping.prefersAny(config.resourceGroups(), me),
                Regrouping.prefersAny(config.resourceGroups(), peer));
        this.local = new LocalStatus(startNanos);
        this.agreement = new ConfigAgreement(me, peer, config);
        this.maint = new MaintenanceCoordination(peer);
        this.failback = new AutoFailback(peer);
        this.resync = new PauseResync(peer);
        this.identity = new IdentityGuard(me);
        this.ping = new PingCoordination(peer, new PingNodes(config.ping().nodes(), config.ping().deadping(),
                startNanos), config.ping().ipfail(), ipfailSettleNanos(), config.autoFailback() != FailbackPolicy.OFF);
    }

    /**
     * How long both ping counts must stay unchanged before ipfail acts: twice keepalive, as Heartbeat's
     * ipfail ({@code delay_giveup}), or half of deadping when that is longer, so that a ping node lost by
     * both nodes (each declares it dead within about one probe interval of the other) is seen dead on
     * both before anything moves.
     */
    public long ipfailSettleNanos() {
        return Math.max(2 * timing.keepalive().toNanos(), config.ping().deadping().toNanos() / 2);
    }

    /**
     * How long after comm up the negotiation waits for the peer's {@code jhb-config} before taking
     * groups: two keepalives. A jheartbeat peer sends it with its {@code starting}, so it normally
     * arrives first; a Heartbeat 3.0.6 peer never sends one, and after this grace the negotiation
     * goes on as without this check.
     */
    public long configGraceNanos() {
        return 2 * timing.keepalive().toNanos();
    }

    /** Timer: sends the heartbeat when due, repeats {@code reqnodes}, checks deadlines. */
    public List<Effect> onTimer(long nowNanos, long wallMillis) {
        return timer.onTimer(nowNanos, wallMillis);
    }

    /**
     * The ICMP edge reports that ping node {@code node} (for a {@code ping_group}: one of its hosts)
     * answered an echo request. An unknown name is ignored.
     *
     * @param node the ping node's name as in ha.cf
     */
    public List<Effect> onPingAnswered(String node, long nowNanos, long wallMillis) {
        return pings.onPingAnswered(node, nowNanos, wallMillis);
    }

    /** The earliest monotonic instant at which {@link #onTimer} has something to do. */
    public long nextWakeupNanos() {
        return timer.nextWakeupNanos();
    }

    /**
     * A packet arrived on a medium. It is decoded and verified here (netstring or classic, any
     * authkeys index); anything bad is counted and dropped without changing state.
     *
     * @param link   the local link name it arrived on (interface or device)
     * @param source where it came from, for bad-packet accounting (e.g. {@code 198.18.1.2:694})
     * @param packet the raw payload, at most 256 KiB
     */
    public List<Effect> onFrame(String link, String source, byte[] packet, long nowNanos, long wallMillis) {
        HaMessage message;
        try {
            message = WireCodec.decode(packet, stamper.authenticator());
        } catch (WireFormatException e) {
            return onBadPacket(link, source, e.getMessage(), nowNanos);
        }
        return onPacket(link, source, message, nowNanos, wallMillis);
    }

    /**
     * An authenticated, decoded message arrived on a medium.
     *
     * @param link    the local link name it arrived on
     * @param source  where it came from, for bad-packet accounting
     * @param message the decoded message
     */
    public List<Effect> onPacket(String link, String source, HaMessage message, long nowNanos, long wallMillis) {
        return receive.onPacket(link, source, message, nowNanos, wallMillis);
    }

    /** A packet failed to decode or authenticate: counts it and logs at most once per 10 s per source. */
    public List<Effect> onBadPacket(String link, String source, String reason, long nowNanos) {
        List<Effect> out = new ArrayList<>();
        bad(out, source + " on " + link, reason, nowNanos);
        return out;
    }

    /** A group start or stop ended. */
    public List<Effect> onGroupDone(int group, boolean wasStart, boolean ok, long nowNanos, long wallMillis) {
        return onGroupDone(group, wasStart, ok, "", nowNanos, wallMillis);
    }

    /** A group start or stop ended; {@code detail}: why it failed (resource and reason), or empty. */
    public List<Effect> onGroupDone(int group, boolean wasStart, boolean ok, String detail, long nowNanos,
                                    long wallMillis) {
        return localEvents.onGroupDone(group, wasStart, ok, detail, nowNanos, wallMillis);
    }

    /** A group start ended: {@code outcome} also says whether a failed one left part of the group here. */
    public List<Effect> onGroupStarted(int group, StartOutcome outcome, String detail, long nowNanos, long wallMillis) {
        return localEvents.onGroupStarted(group, outcome, detail, nowNanos, wallMillis);
    }

    /**
     * The stop of group {@code key}, which a reload removed from haresources, ended (the caller stops it:
     * {@link #onReload}). Until then our {@code jhb-groups} reports it stopping, so that a peer that still
     * defines it does not start it meanwhile, and a shutdown waits for it before its {@code shutdone}; then it is
     * no longer reported ({@code ok}), or reported blocked, left unmanaged, and the peer told not to start it
     * (the stop failed: it may still run here; {@link TakeoverMachine#removedStopEnded}).
     *
     * @param key the group's key
     * @param ok  whether it stopped
     */
    public List<Effect> onRemovedGroupStopped(String key, boolean ok, long nowNanos, long wallMillis) {
        return localEvents.onRemovedGroupStopped(key, ok, nowNanos, wallMillis);
    }

    /**
     * Monitoring gave up on group {@code group} running here ({@link TakeoverEvent.GroupFailedRunning}):
     * the machine stops it and offers it to the peer.
     *
     * @param detail which resource failed and how
     */
    public List<Effect> onGroupFailedRunning(int group, String detail, long nowNanos, long wallMillis) {
        return localEvents.onGroupFailedRunning(group, detail, nowNanos, wallMillis);
    }

    /**
     * {@code hb cleanup}: clears the failures of group {@code group} (haresources index, -1 for all),
     * here and, through {@code jhb-grpfail clear}, on the peer.
     */
    public List<Effect> onCleanupRequested(int group, long nowNanos, long wallMillis) {
        return localEvents.onCleanupRequested(group, nowNanos, wallMillis);
    }

    /** A fencing attempt ended ({@code fenced} = the device confirmed it). */
    public List<Effect> onFenceDone(boolean fenced, String detail, long nowNanos, long wallMillis) {
        return localEvents.onFenceDone(fenced, detail, nowNanos, wallMillis);
    }

    /**
     * An operator command is about to be decided (the loop reads this engine's view to decide it, e.g.
     * whether the peer is alive for {@code hb maintenance off}): a pause of this process ends here first, so
     * that a command read first after a SIGSTOP does not act on the view from before it (the peer may have
     * declared this node dead and taken its groups meanwhile; starts are then held for the
     * resynchronisation). Changes nothing else.
     */
    public List<Effect> onOperatorCommand(long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        membership.awake(out, nowNanos, wallMillis);
        return out;
    }

    /** Orderly shutdown (SIGTERM): release every group, send {@code shutdone}, beat one more second, exit. */
    public List<Effect> onShutdownRequested(long nowNanos, long wallMillis) {
        return localEvents.onShutdownRequested(nowNanos, wallMillis);
    }

    /** Operator takeover ({@code hb takeover}): ask the peer to hand us {@code set} (relative to this node). */
    public List<Effect> onTakeoverRequested(ResourceSet set, long nowNanos, long wallMillis) {
        return localEvents.onTakeoverRequested(set, nowNanos, wallMillis);
    }

    /** Operator standby: hand {@code set} (relative to this node) to the peer. */
    public List<Effect> onStandbyRequested(ResourceSet set, long nowNanos, long wallMillis) {
        return localEvents.onStandbyRequested(set, nowNanos, wallMillis);
    }

    /** Sends our {@code jhb-config} unless this peer generation already has it ({@link ConfigAgreement#digestToSend}). */
    void sendConfigDigestIfNew(List<Effect> out, long wall) {
        agreement.digestToSend(peerSeq.generation()).ifPresent(m -> transmit(out, m, wall));
    }

    void sendStatus(List<Effect> out, long wall) {
        transmit(out, local.beat(timing.deadtime().toMillis(), out), wall);
    }

    /** Stamps and sends {@code body} ({@link OutboundStamper#transmit}). */
    void transmit(List<Effect> out, HaMessage body, long wall) {
        out.add(stamper.transmit(body, wall, peer, peerUuid));
    }

    /**
     * Applies a maintenance setting: to the machine (groups in {@code probed} take what runs
     * as their state), to the state directory, and, when {@code announce}, to the peer (with what runs
     * here and, for a probe exchange, what its probe found there).
     *
     * @param next     the new setting
     * @param probed   groups leaving maintenance, probed here just now
     * @param runsHere of those, the ones running here (every resource)
     * @param partly   of those, the ones running partly here
     * @param runsPeer groups running on the peer (its probe or its last report)
     * @param announce send {@code jhb-maint set} to the peer (an operator's change here)
     */
    public List<Effect> onMaintenanceApplied(Maintenance next, java.util.Set<Integer> probed,
                                             java.util.Set<Integer> runsHere, java.util.Set<Integer> partly,
                                             java.util.Set<Integer> runsPeer, boolean announce, long now, long wall) {
        return maintenance.onMaintenanceApplied(next, probed, runsHere, partly, runsPeer, announce, now, wall);
    }

    /** Asks the peer to probe its groups and answer with {@code jhb-maint runs} and {@code request}. */
    public List<Effect> onPeerProbeRequested(long request, long wall) {
        List<Effect> out = new ArrayList<>();
        transmit(out, MaintenanceMessages.probe(request), wall);
        return out;
    }

    /**
     * Our probe for the peer's request {@code request} ended: {@code fully} and {@code partly} are the
     * groups running here (every resource, some). Kept: the peer's {@code set} that follows decides from it.
     */
    public List<Effect> onProbedForPeer(long request, java.util.Set<Integer> fully, java.util.Set<Integer> partly,
                                        long wall) {
        return maintenance.onProbedForPeer(request, fully, partly, wall);
    }

    /** What the peer's {@code jhb-groups} from its current run says of group {@code key} ({@code hb status}). */
    public org.jheartbeat.core.takeover.GroupPlacement.PeerReport peerReport(String key) {
        return groupReports.peerReport(key, peerSeq.generation());
    }

    /** Groups the peer last reported running on it in a {@code jhb-maint} (status during maintenance). */
    public java.util.Set<Integer> peerMaintenanceRuns() {
        return maint.peerRuns();
    }

    List<String> runningKeys() {
        return GroupKeys.running(config.resourceGroups(), machine::groupState, machine.reload().removedLeftRunning());
    }

    int groupIndex(String key) {
        return GroupKeys.index(config.resourceGroups(), key);
    }

    void bad(List<Effect> out, String source, String reason, long now) {
        badPackets.record(source, reason, now).ifPresent(line -> log(out, Level.ERROR, line));
    }

    static void log(List<Effect> out, Level level, String text) {
        out.add(new Effect.LogLine(level, text));
    }

    /**
     * Whether the resource groups may change now ({@link #onReload} with another group list): no
     * group is starting or stopping (nor one an earlier reload removed), and the machine is awaiting
     * comm, negotiating or stable (not in a standby exchange, fencing or shutting down).
     */
    public boolean groupsQuiet() {
        return reload.groupsQuiet();
    }

    /**
     * A configuration reload: from now on this node runs {@code applied}
     * ({@link org.jheartbeat.core.config.ConfigReload.Plan#applied()}). The timings go to the failure
     * detector and the beat timer (the beat already scheduled stays, the following ones are one new
     * keepalive apart; the deadtime we advertise changes with our next {@code status}); new authkeys sign and verify every
     * packet from now on; a changed group list goes to the takeover machine, which keeps every
     * group's state by key and starts a new group where this node holds that kind of group. The
     * disputes are computed again against the peer's last group list, and our new {@code jhb-config}
     * is sent at once when comm is up, so the peer compares again (once both nodes are reloaded a
     * new group is agreed). A group removed from the list is the caller's to stop, and its end is told to
     * {@link #onRemovedGroupStopped}: until then our {@code jhb-groups} reports it stopping.
     *
     * @param applied the configuration to run; its nodes and media must be the running ones
     * @throws IllegalStateException when the group list changes and {@link #groupsQuiet()} is false
     *                               (nothing is changed then)
     */
    public List<Effect> onReload(ClusterConfig applied, long nowNanos, long wallMillis) {
        return reload.onReload(applied, nowNanos, wallMillis);
    }

    // --- views for status ---

    /** The ping pseudo-nodes and their statuses (read-only use, on the loop thread). */
    public PingNodes pingNodes() {
        return ping.pingNodes();
    }

    /** The peer's last reported count of live ping nodes ({@code jhb-ping}), or -1 when unknown. */
    public int peerPingCount() {
        return ping.peerPingCount();
    }

    /** Where nodes dead and alive, links and late beats are recorded ({@link EventCounters}); set before the loop runs. */
    public void recordEventsTo(org.jheartbeat.core.journal.EventSink sink) {
        counters.recordTo(sink, me.value());
    }

    /** This node's name. */
    public NodeName me() {
        return me;
    }

    /** The peer's name. */
    public NodeName peer() {
        return peer;
    }

    /** The status this node advertises. */
    public NodeStatus localStatus() {
        return local.status();
    }

    /** The failure detector (read-only use: statuses and links). */
    public FailureDetector detector() {
        return detector;
    }

    /** The takeover machine (read-only use: states and holdings). */
    public TakeoverMachine machine() {
        return machine;
    }

    /** Event counts since start (late beats, deaths, link deaths, takeovers, hand-overs, failures, fencing): loop thread. */
    public ClusterCounters counters() {
        return counters.snapshot(machine);
    }

    /** Bad-packet counters. */
    public BadPacketCounter badPackets() {
        return badPackets;
    }

    /**
     * {@code cl_status rscstatus}: {@code transition} while this node or the peer is in flux (a live
     * peer not yet reported stable, a negotiation, standby, takeover or group operation under way),
     * otherwise Heartbeat's bits ({@link RscHold}): {@code none}, {@code local}, {@code foreign} or
     * {@code all}. As Heartbeat 3.0.6 {@code hb_rsc_resource_state}.
     */
    public String rscStatus() {
        boolean peerSettled = machine.peerStable() || !machine.peerPresence().alive();
        return machine.state() == TakeoverState.STABLE && machine.settled() && peerSettled
                ? rscHold.value().wireName() : "transition";
    }

    /** Frames dropped because they are from before (older generation, stale seq, our own name). */
    public StaleFrameCounter staleFrames() {
        return staleFrames;
    }

    /** Our generation. */
    public long generation() {
        return stamper.generation();
    }

    /** The {@code Config:} line of {@code hb status}, e.g. {@code same as node2}. */
    public String configStatus() {
        if (machine.peerPresence().departed()) {
            // its digest was from a run that ended: its files may have changed since
            return "unknown (" + peer + " is not running; compare again once it is back)";
        }
        return agreement.check().statusLine(peerSeq.generation());
    }

    /** This node's configuration digest. */
    public ConfigDigest localConfigDigest() {
        return agreement.check().local();
    }

    /**
     * Why group {@code i} is disputed (the peer's haresources defines it differently, so neither node
     * starts it), or empty when it is not.
     */
    public Optional<String> disputeReason(int i) {
        return Optional.ofNullable(agreement.disputeReason(i));
    }

    /** The digest the peer's current generation sent, if any. */
    public Optional<ConfigDigest> peerConfigDigest() {
        return machine.peerPresence().departed() ? Optional.empty() : agreement.check().peerDigest(peerSeq.generation());
    }
}
