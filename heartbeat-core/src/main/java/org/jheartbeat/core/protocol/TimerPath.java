package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.membership.MembershipEvent;
import org.jheartbeat.core.ping.PingNodes;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.HaMessage;

/**
 * How {@link NodeEngine} routes the timer: the pause check, the final beats after {@code shutdone}, our
 * beat and {@code reqnodes} when due, the retransmission requests, the detector's deadlines, the end of a
 * pause's resynchronisation, the config grace, the impostor's silence, the machine's tick, the double
 * ownership and auto_failback checks, and the ping nodes with ipfail; and the earliest instant at which
 * any of these is due. Routing only. Not thread-safe (the engine's thread owns it).
 */
final class TimerPath {
    private final NodeEngine e;

    TimerPath(NodeEngine engine) {
        this.e = engine;
    }

    /** {@link NodeEngine#onTimer}. */
    List<Effect> onTimer(long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        e.membership.awake(out, nowNanos, wallMillis);
        if (nowNanos >= e.exitAtNanos) {
            out.add(new Effect.Exit());
            e.exitAtNanos = Long.MAX_VALUE;
            return out;
        }
        if (e.local.beatDue(nowNanos, e.timing.keepalive().toNanos())) {
            e.sendStatus(out, wallMillis);
        }
        if (e.handshake.requestDue(nowNanos)) {
            e.transmit(out, LocalStatus.requestNodes(e.peer), wallMillis);
        }
        requestRetransmissions(out, nowNanos, wallMillis);
        for (MembershipEvent change : e.detector.evaluate(nowNanos)) {
            e.membership.onMembership(change, out, nowNanos, wallMillis, false);
        }
        if (e.resync.ends(nowNanos)) {
            // groups the peer holds by its latest account are not started here
            e.machineFeed.feed(new TakeoverEvent.Resync(false, e.groupReports.peerHolding(e.config.resourceGroups(),
                    e.peerSeq.generation(), GroupReports.HOLDING)), out, nowNanos, wallMillis);
        }
        e.agreement.graceEnded(nowNanos, e.configGraceNanos()).ifPresent(out::add);
        e.identity.expired(nowNanos, out).ifPresent(c -> e.machineFeed.feed(c, out, nowNanos, wallMillis));
        e.machineFeed.feed(new TakeoverEvent.Tick(), out, nowNanos, wallMillis);
        e.machineFeed.releaseWhatThePeerReportsRunning(out, nowNanos, wallMillis);
        e.machineFeed.failBackIfDue(out, nowNanos, wallMillis);
        List<PingNodes.Change> pingChanges = e.ping.pingNodes().evaluate(nowNanos);
        if (!pingChanges.isEmpty()) {
            e.pings.onPingChanges(pingChanges, out, nowNanos, wallMillis);
        }
        e.pings.sendPingCountIfNew(out, wallMillis);
        e.ping.noPeerCountWarning(nowNanos, e.detector.status(e.peer).isAlive()).ifPresent(out::add);
        e.pings.ipfailIfDue(out, nowNanos, wallMillis);
        return out;
    }

    /** {@link NodeEngine#nextWakeupNanos}. */
    long nextWakeupNanos() {
        long t = Math.min(e.local.nextBeatNanos(), e.detector.nextDeadlineNanos());
        t = Math.min(t, e.machine.nextDeadlineNanos());
        t = Math.min(t, e.handshake.nextDeadlineNanos());
        t = Math.min(t, e.flow.nextDeadlineNanos());
        t = Math.min(t, e.ping.nextDeadlineNanos());
        return Math.min(Math.min(t, e.exitAtNanos), e.resync.endNanos());
    }

    /** Sends the due {@code NS_rexmit} requests ({@link FlowControl#requestsDue}). */
    void requestRetransmissions(List<Effect> out, long now, long wall) {
        for (HaMessage m : e.flow.requestsDue(now, e.detector.status(e.peer).isAlive())) {
            e.transmit(out, m, wall);
        }
    }
}
