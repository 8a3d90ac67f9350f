package org.jheartbeat.core.protocol;

import java.util.List;
import org.jheartbeat.core.membership.FailureDetector;
import org.jheartbeat.core.membership.MembershipEvent;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverEvent;

/**
 * How {@link NodeEngine} routes the failure detector's verdicts on the peer and on this process: a pause
 * of this process is discounted on the first tick or frame after it ({@link FailureDetector#awake}) and its
 * resynchronisation asked of {@link PauseResync}; the peer's death, return and a dead peer at initdead go to
 * the comm-up handshake and the takeover machine (whose {@code PeerPresence} is the one record of the peer's
 * liveness); comm up sends our status, {@code jhb-config}, {@code jhb-maint} and {@code jhb-ping} before the
 * machine's {@code starting}. Routing only. Not thread-safe (the engine's thread owns it).
 */
final class MembershipRouting {
    private final NodeEngine e;

    MembershipRouting(NodeEngine engine) {
        this.e = engine;
    }

    /** The first tick or frame after a pause of this process discounts it ({@link FailureDetector#awake}). */
    void awake(List<Effect> out, long now, long wall) {
        List<MembershipEvent> events = e.detector.awake(now);
        events.forEach(change -> onMembership(change, out, now, wall, false));
        e.ping.pingNodes().paused(e.detector.lastPauseNanos()); // the ICMP replies of the pause wait unread too
        if (e.detector.lastPauseNanos() > 0
                && events.stream().noneMatch(change -> change instanceof MembershipEvent.Paused)) {
            // the peer was taken for dead before the pause (no silence of its to discount): it may have come
            // back and taken its groups meanwhile, its frames waiting unread
            resyncAfterPause(e.detector.lastPauseNanos() / 1_000_000, out, now, wall);
        }
    }

    /** A verdict of the detector: logged, counted, and routed to the handshake and the machine. */
    void onMembership(MembershipEvent change, List<Effect> out, long now, long wall, boolean restarted) {
        Level level = Level.INFO;
        if (change instanceof MembershipEvent.NodeDead || change instanceof MembershipEvent.Paused) {
            level = Level.WARN;
        } else if (change instanceof MembershipEvent.LateHeartbeat l) {
            level = l.beyondDeadtime() ? Level.CRIT : Level.WARN;
        }
        NodeEngine.log(out, level, change.logLine());
        e.counters.membership(change, wall);
        if (change instanceof MembershipEvent.Paused p) {
            resyncAfterPause(p.pausedMillis(), out, now, wall);
        } else if (change instanceof MembershipEvent.NodeDead) {
            if (e.handshake.onPeerDead()) {
                commNowUp(out, now, wall);
            }
            out.add(new Effect.PeerLost(e.peer, "died"));
            e.ping.peerUnknown();
            e.machineFeed.feed(new TakeoverEvent.PeerDead(peerIsHeartbeat306(now)), out, now, wall);
        } else if (change instanceof MembershipEvent.NodeStatusChanged c && c.from() == NodeStatus.DEAD
                && e.machine.peerPresence().departed() && !restarted) {
            // the machine's PeerPresence is the one record of whether the peer was declared gone
            e.machineFeed.feed(new TakeoverEvent.PeerReturned(), out, now, wall);
        }
    }

    /** This process did not run for {@code pausedMillis}: starts wait when {@link PauseResync#paused} says so. */
    void resyncAfterPause(long pausedMillis, List<Effect> out, long now, long wall) {
        if (e.resync.paused(pausedMillis, e.machine.state(), e.timing, now, out)) {
            e.groupReports.peerMayHaveMissed(); // our own report goes out again at once
            e.machineFeed.feed(new TakeoverEvent.Resync(true, java.util.Set.of()), out, now, wall);
        }
    }

    /** Comm is up: our status and settings go to the peer before the machine's {@code starting}. */
    void commNowUp(List<Effect> out, long now, long wall) {
        e.local.commUp(out);
        e.sendStatus(out, wall);
        e.sendConfigDigestIfNew(out, wall); // before starting: the peer compares before it answers
        e.maintenance.sendMaintenanceIfNew(out, wall);
        e.pings.sendPingCountIfNew(out, wall);
        e.pings.expectPeerPingCount(now);
        e.agreement.commUp(now, e.configGraceNanos());
        e.machineFeed.on(new TakeoverEvent.CommUp(), out, now, wall);
    }

    /** Whether the peer is a Heartbeat 3.0.6 node ({@link ConfigAgreement#peerIsHeartbeat306}). */
    boolean peerIsHeartbeat306(long now) {
        return e.agreement.peerIsHeartbeat306(now, e.peerSeq.generation());
    }
}
