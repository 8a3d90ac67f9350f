package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.ping.PingNodes;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.takeover.TakeoverState;

/**
 * How {@link NodeEngine} routes the ping nodes ({@link PingCoordination}): the ICMP edge's answers and the
 * timer's verdicts on each ping node, our count of live ping nodes sent to the peer ({@code jhb-ping}) when
 * it changed or the peer has not had it, and Heartbeat's ipfail: the standby the ping counts ask for once
 * both nodes are stable. Routing only. Not thread-safe (the engine's thread owns it).
 */
final class PingRouting {
    private final NodeEngine e;

    PingRouting(NodeEngine engine) {
        this.e = engine;
    }

    /** {@link NodeEngine#onPingAnswered}. */
    List<Effect> onPingAnswered(String node, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        // a reply read first after a pause must not land before its discount
        e.membership.awake(out, nowNanos, wallMillis);
        e.ping.pingNodes().answered(node, nowNanos)
                .ifPresent(c -> onPingChanges(List.of(c), out, nowNanos, wallMillis));
        return out;
    }

    void onPingChanges(List<PingNodes.Change> changes, List<Effect> out, long now, long wall) {
        e.ping.changed(changes, out, now);
        sendPingCountIfNew(out, wall);
    }

    /** Sends our {@code jhb-ping} when {@link PingCoordination#countToSend} says so. */
    void sendPingCountIfNew(List<Effect> out, long wall) {
        e.ping.countToSend(e.local.active(), e.detector.status(e.peer).isAlive(), e.peerSeq.generation())
                .ifPresent(m -> e.transmit(out, m, wall));
    }

    /** Heartbeat's ipfail ({@link PingCoordination#ipfailDue}): a standby when the ping counts say so. */
    void ipfailIfDue(List<Effect> out, long now, long wall) {
        boolean stable = e.machine.state() == TakeoverState.STABLE && e.machine.settled() && e.machine.peerStable()
                && e.detector.status(e.peer).isAlive() && e.machine.handovers().outcome() != TakeoverMachine.Handover.IN_PROGRESS;
        e.ping.ipfailDue(now, stable, e.machine.holdings()).ifPresent(a -> {
            out.add(a.line());
            a.standby().ifPresent(set -> e.machineFeed.on(new TakeoverEvent.StandbyRequested(set), out, now, wall));
        });
    }

    /** A jheartbeat peer reports its ping count within deadping of its start, plus a keepalive or two. */
    void expectPeerPingCount(long now) {
        e.ping.expectPeerCount(now, e.config.ping().deadping().toNanos() + 2 * e.timing.keepalive().toNanos());
    }
}
