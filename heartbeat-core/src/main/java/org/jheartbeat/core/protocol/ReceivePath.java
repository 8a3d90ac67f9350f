package org.jheartbeat.core.protocol;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.membership.MembershipEvent;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.membership.SequenceTracker;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * The receive path of {@link NodeEngine}: an authenticated message from the medium is checked
 * ({@link FrameAdmission}: sender, generation, sequence, destination), its link and node refreshed in the
 * failure detector, acknowledged ({@link FlowControl}), and each message type routed to the part that owns
 * it: {@code status} to the detector, {@code reqnodes}/{@code repnodes} to the comm-up handshake, the
 * resource messages to the takeover machine, {@code jhb-config} to {@link ConfigAgreement}, {@code jhb-maint}
 * to {@link MaintenanceCoordination}, {@code jhb-ping} to {@link PingCoordination}, {@code jhb-groups} to
 * {@link GroupReports}. Keeps what only this path reads: the newest frame of each link, the seq of the
 * peer's latest standby message, and the generation that sent {@code shutdone}. Routing only: the rules
 * are in those parts; sending and feeding the machine are the engine's. Not thread-safe (the engine's
 * thread owns it).
 */
final class ReceivePath {
    private final NodeEngine e;
    /** The sequence check of the peer's frames, with the newest frame each link carried. */
    private final FrameAdmission admission = new FrameAdmission();
    /** The peer's seq of the frame being dispatched, and of its latest standby message ({@code ask_resources}). */
    private long dispatchedSeq;
    private long peerAskSeq;
    /** Generation of a peer that announced {@code shutdone}: its last beats must not revive it. */
    private long leftGeneration = -1;

    ReceivePath(NodeEngine engine) {
        this.e = engine;
    }

    /** {@link NodeEngine#onPacket}: admits the peer's frame ({@link FrameAdmission}) and routes it. */
    List<Effect> onPacket(String link, String source, HaMessage message, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        e.membership.awake(out, nowNanos, wallMillis);
        Optional<String> type = message.type();
        Optional<String> src = message.get(Field.SOURCE);
        if (type.isEmpty() || src.isEmpty() || message.get(Field.TIMESTAMP).isEmpty()) {
            e.bad(out, source + " on " + link, "missing from/ts/type", nowNanos);
            return out;
        }
        NodeName from;
        try {
            from = NodeName.of(src.get());
        } catch (IllegalArgumentException notAName) {
            e.bad(out, source + " on " + link, "bad node name in message", nowNanos);
            return out;
        }
        if (from.equals(e.me)) {
            Optional<String> other = IdentityGuard.otherInstance(message, e.stamper.uuid(), e.stamper.generation());
            if (other.isPresent()) {
                e.identity.heard(other.get(), source, link, nowNanos, e.timing.deadtime().toNanos(), out)
                        .ifPresent(c -> e.machineFeed.feed(c, out, nowNanos, wallMillis));
                return out;
            }
            // our own frames echoed back, or left in a line by our previous run: never about the peer
            stale(out, StaleFrameCounter.Reason.OWN_FRAME, from + " " + type.get() + " on " + link, nowNanos);
            return out;
        }
        if (!from.equals(e.peer)) {
            e.bad(out, source + " on " + link, "bad node [" + from + "] in message", nowNanos);
            return out;
        }
        Optional<MessageType> mt = MessageType.fromWire(type.get());
        FrameAdmission.Result admitted = admission.admit(message, type.get(), from, link, e.peerSeq);
        if (admitted instanceof FrameAdmission.Bad b) {
            e.bad(out, source + " on " + link, b.reason(), nowNanos);
            return out;
        }
        if (admitted instanceof FrameAdmission.Stale st) {
            stale(out, st.reason(), st.detail(), nowNanos);
            return out;
        }
        if (!(admitted instanceof FrameAdmission.Admitted a)) {
            return out; // a copy of an older frame
        }
        boolean unsequenced = a.unsequenced();
        long hg = a.hg();
        long seq = a.seq();
        long lastBefore = a.lastBefore();
        SequenceTracker.Verdict verdict = a.verdict();
        message.getBinary(Field.SOURCE_UUID).filter(u -> u.length == 16).ifPresent(u -> e.peerUuid = u);
        // an NS_ frame (ack, retransmission request) has no seq, so a recorded one cannot be told from a
        // new one: it refreshes no link; the peer's beats, sent on every link each keepalive, do
        for (MembershipEvent change : unsequenced ? List.<MembershipEvent>of()
                : e.detector.packetReceived(from, link, nowNanos)) {
            e.membership.onMembership(change, out, nowNanos, wallMillis, false);
        }
        boolean forUs = FrameAdmission.isFor(message, e.me, e.stamper.uuid());
        if (unsequenced) {
            if (forUs && mt.isPresent() && mt.get() == MessageType.RETRANSMIT_REQUEST) {
                FlowControl.retransmit(message, e.stamper, out, nowNanos);
            } else if (forUs && mt.isPresent() && mt.get() == MessageType.RETRANSMIT_NAK) {
                e.flow.nak(message, e.peerSeq).ifPresent(line -> {
                    e.machine.peerReportMayBeOld(peerReportMayBeOld());
                    out.add(line);
                });
            }
            return out;
        }
        trackGaps(verdict, lastBefore, seq, out, nowNanos);
        switch (verdict) {
            case DUPLICATE -> {
                return out;
            }
            case RESTART -> {
                peerAskSeq = 0; // a new run numbers its frames from the start
                e.ping.peerUnknown();
                e.machine.maintenancePolicy().peerLeftRunning(e.groupReports.leftByRestartedPeer(e.config.resourceGroups(),
                        e.peerSeq.generation(), e.maint.peerRuns()), out);
                e.machineFeed.feed(new TakeoverEvent.PeerRestarted(), out, nowNanos, wallMillis);
            }
            default -> { }
        }
        e.flow.ackFor(seq, e.peerSeq).ifPresent(ack -> e.transmit(out, ack, wallMillis)); // flow control (C.5)
        if (!forUs || mt.isEmpty()) {
            return out;
        }
        if (hg == leftGeneration && mt.get() == MessageType.STATUS) {
            return out; // the final beats after shutdone (Heartbeat keeps beating ~1 s): it is gone
        }
        dispatchedSeq = seq;
        dispatch(mt.get(), message, out, nowNanos, wallMillis, verdict == SequenceTracker.Verdict.RESTART);
        return out;
    }

    private void dispatch(MessageType type, HaMessage m, List<Effect> out, long now, long wall, boolean restarted) {
        switch (type) {
            case STATUS -> {
                NodeStatus st = m.get(Field.STATUS).flatMap(NodeStatus::fromWire).orElse(NodeStatus.UP);
                long dtMs = FrameAdmission.parseHex(m.get(Field.DEADTIME).orElse(""), 0);
                boolean firstContact = !e.detector.heardFrom(e.peer);
                Optional<Effect.LogLine> unseen = PeerRuns.unseenRun(e.peer, firstContact, restarted,
                        e.machine.state());
                boolean unseenRun = unseen.isPresent();
                if (unseenRun) {
                    out.add(unseen.get());
                    e.machineFeed.feed(new TakeoverEvent.PeerRestarted(), out, now, wall);
                }
                Duration deadtime = Duration.ofMillis(Math.max(0, dtMs));
                for (MembershipEvent change : e.detector.statusReceived(e.peer, st, deadtime, now)) {
                    e.membership.onMembership(change, out, now, wall, restarted || unseenRun);
                }
                if (firstContact && e.handshake.onFirstContact(now)) {
                    e.transmit(out, LocalStatus.requestNodes(e.peer), wall);
                }
            }
            case REQUEST_NODES -> e.transmit(out, LocalStatus.replyNodes(e.peer, e.config.nodes()), wall);
            case REPLY_NODES -> {
                if (e.handshake.onReplyNodes()) {
                    e.membership.commNowUp(out, now, wall);
                }
            }
            case STARTING -> {
                e.sendConfigDigestIfNew(out, wall); // before our resource answer: the peer compares first
                e.maintenance.sendMaintenanceIfNew(out, wall);
                e.pings.sendPingCountIfNew(out, wall);
                e.pings.expectPeerPingCount(now);
                e.failback.peerStarting();
                // our report goes with the answer: one sent before the peer tracked our sequence numbers
                // (its first frames from us lost) is never asked for again, and our groups may not change
                e.groupReports.peerMayHaveMissed();
                e.machineFeed.feed(new TakeoverEvent.PeerStarting(), out, now, wall);
            }
            case CONFIG_DIGEST -> {
                e.agreement.received(m, e.peerSeq.generation(), e.config.resourceGroups(), out).ifPresent(g -> {
                    e.counters.disputed(g, i -> e.config.resourceGroups().get(i).key(), e.agreement::disputeReason, wall);
                    e.machineFeed.on(new TakeoverEvent.GroupsDisputed(g), out, now, wall);
                });
                e.counters.filesDiffer(e.agreement.check().takeWarned(), e.peer.value(), wall);
                e.sendConfigDigestIfNew(out, wall);
                e.machineFeed.feed(null, out, now, wall); // the peer's resource messages held back for this
            }
            case RESOURCE, ASK_RESOURCES, TAKEOVER, GROUP_FAILURE -> {
                Optional<ResourceMessages.Decoded> d = ResourceMessages.decode(type, m, e::groupIndex);
                if (d.isPresent() && d.get() instanceof ResourceMessages.Decoded.Malformed bad) {
                    e.bad(out, e.peer.value(), bad.reason(), now);
                } else if (d.isPresent() && d.get() instanceof ResourceMessages.Decoded.Event ev) {
                    if (type == MessageType.ASK_RESOURCES) {
                        peerAskSeq = dispatchedSeq;
                    }
                    // a claim sent before the peer's part in the standby exchange (read late: it filled a gap)
                    // does not end that exchange
                    e.machine.claimPredatesExchange(type == MessageType.RESOURCE && dispatchedSeq < peerAskSeq);
                    e.counters.peerAsked(ev.event(), e.peer.value(), wall);
                    if (type == MessageType.GROUP_FAILURE) {
                        e.machineFeed.on(ev.event(), out, now, wall);
                        if (ev.event() instanceof TakeoverEvent.PeerGroupFailure f
                                && f.failure() == org.jheartbeat.core.takeover.GroupFailure.CLEAR) {
                            e.localEvents.failBackAfterCleanup(out, now, wall);
                        }
                    } else {
                        if (ev.event() instanceof TakeoverEvent.PeerResources r
                                && ("partition".equals(r.info()) || "mach_down".equals(r.info()))) {
                            // it took us for dead: our reports meanwhile may be lost for good (a restarted peer
                            // tracks our sequence numbers only from the first frame it heard), and it must
                            // know what runs here to let go of what it took over
                            e.groupReports.peerMayHaveMissed();
                        }
                        e.machineFeed.feed(ev.event(), out, now, wall);
                    }
                }
            }
            case SHUTDOWN_DONE -> {
                leftGeneration = e.peerSeq.generation();
                for (MembershipEvent change : e.detector.nodeLeft(e.peer, now)) {
                    NodeEngine.log(out, Level.INFO, change.logLine());
                }
                out.add(new Effect.PeerLost(e.peer, "shut down"));
                e.maint.leftRunningAtShutdown(e.config.resourceGroups()).ifPresent(out::add);
                e.machine.maintenancePolicy().peerLeftRunning(PeerRuns.leftAtShutdown(e.peerMaintenanceRuns(),
                        e.groupReports.peerHolding(e.config.resourceGroups(), e.peerSeq.generation(),
                                GroupReports.HOLDING)), out);
                e.ping.peerUnknown();
                e.machineFeed.feed(new TakeoverEvent.PeerShutdown(), out, now, wall);
            }
            case PING_COUNT -> {
                if (!e.ping.peerCount(m.get(Field.PING_COUNT).orElse(""), now)) {
                    e.bad(out, e.peer.value(), type.wireName() + " without a valid " + Field.PING_COUNT.wireName(),
                            now);
                    return;
                }
                e.pings.sendPingCountIfNew(out, wall);
            }
            case MAINTENANCE -> e.maintenance.onMaintenanceMessage(m, out, now, wall);
            case GROUP_STATES -> {
                Optional<String> malformed = e.groupReports.received(m, e.peerSeq.generation(),
                        FrameAdmission.parseHex(m.get(Field.SEQ).orElse(""), -1));
                malformed.ifPresent(r -> e.bad(out, e.peer.value(), r, now));
                e.machine.peerReportMayBeOld(peerReportMayBeOld());
                if (malformed.isEmpty()) {
                    // what may run there, group by group: the machine's source of the peer's holdings
                    // (not through feed: it must not release resource messages held back for the jhb-config)
                    e.machineFeed.on(new TakeoverEvent.PeerGroupStates(
                            e.groupReports.peerStates(e.peerSeq.generation())), out, now, wall);
                    boolean ended = false;
                    for (var r : e.groupReports.peerMayRun(e.config.resourceGroups(), e.peerSeq.generation())
                            .entrySet()) {
                        ended |= e.machine.maintenancePolicy().peerReported(r.getKey(), r.getValue(), out);
                    }
                    if (ended) {
                        // reconciles what is managed again
                        e.machineFeed.feed(new TakeoverEvent.Tick(), out, now, wall);
                    }
                    e.machineFeed.releaseWhatThePeerReportsRunning(out, now, wall);
                }
            }
            case STONITH -> NodeEngine.log(out, Level.INFO, e.peer + " reports STONITH of "
                    + m.get(Field.NODE).orElse("?") + ": " + m.get(Field.RESULT).orElse("?"));
            default -> { }
        }
    }

    /** Whether a newer {@code jhb-groups} of the peer may be missing ({@link GroupReports#peerReportMayBeOld}). */
    private boolean peerReportMayBeOld() {
        return e.groupReports.peerReportMayBeOld(e.peerSeq.missing(), e.peerSeq.generation());
    }

    /** Keeps the retransmission requests in step with the tracker ({@link FlowControl#track}). */
    private void trackGaps(SequenceTracker.Verdict verdict, long lastBefore, long seq, List<Effect> out, long now) {
        e.flow.track(verdict, lastBefore, seq, e.peerSeq, out, now);
        e.machine.peerReportMayBeOld(verdict != SequenceTracker.Verdict.RESTART && peerReportMayBeOld());
    }

    /** Counts a frame dropped as from before ({@link StaleFrameCounter}). */
    private void stale(List<Effect> out, StaleFrameCounter.Reason reason, String detail, long now) {
        e.staleFrames.record(reason, detail, now).ifPresent(line -> NodeEngine.log(out, Level.DEBUG, line));
    }
}
