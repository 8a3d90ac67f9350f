package org.jheartbeat.core.protocol;

import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.ping.IpfailRule;
import org.jheartbeat.core.ping.PingNodes;
import org.jheartbeat.core.ping.PingStatus;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * The engine's ping nodes and ipfail (ha.cf {@code ping}, {@code ping_group}, {@code respawn ... ipfail}):
 * owns the ping pseudo-nodes' statuses ({@link PingNodes}), the {@link IpfailRule}, and the exchange of
 * live ping node counts with the peer ({@code jhb-ping}, which a Heartbeat 3.0.6 peer ignores). Pure:
 * time comes in as arguments; it appends log lines to the caller's effects and returns the messages to
 * send and the standby to ask of the takeover machine, which the engine carries out. Not thread-safe
 * (the engine's thread owns it).
 */
final class PingCoordination {
    private final NodeName peer;
    /** The ping pseudo-nodes' statuses. */
    private final PingNodes pingNodes;
    /** The ipfail rule, when ha.cf has {@code respawn ... ipfail} and ping nodes; null otherwise. */
    private final IpfailRule ipfail;
    /** The count our last {@code jhb-ping} carried and the peer generation it went to (-1: none). */
    private int pingCountSent = -1;
    private long pingSentToGeneration = -1;
    /** The peer's count from its last {@code jhb-ping}; -1 when unknown. */
    private int peerPingCount = -1;
    /** When the peer's first {@code jhb-ping} is overdue (monotonic ns), if ipfail waits for one. */
    private long peerPingDueNanos = Long.MAX_VALUE;

    /** What ipfail decided: the line to log, and the standby to ask of the machine (empty: none). */
    record IpfailAction(Effect.LogLine line, Optional<ResourceSet> standby) { }

    /**
     * @param peer        the peer node, for log lines
     * @param pingNodes   the ping pseudo-nodes
     * @param ipfailOn    ha.cf runs ipfail (it acts only when there are ping nodes)
     * @param settleNanos how long both counts must stay unchanged before ipfail acts (ns)
     * @param autoFailback auto_failback is not off (ipfail then hands the peer's groups back when balanced)
     */
    PingCoordination(NodeName peer, PingNodes pingNodes, boolean ipfailOn, long settleNanos, boolean autoFailback) {
        this.peer = peer;
        this.pingNodes = pingNodes;
        this.ipfail = ipfailOn && pingNodes.any() ? new IpfailRule(settleNanos, autoFailback) : null;
    }

    /** The ping pseudo-nodes and their statuses. */
    PingNodes pingNodes() {
        return pingNodes;
    }

    /** The peer's last reported count of live ping nodes, or -1 when unknown. */
    int peerPingCount() {
        return peerPingCount;
    }

    /** The earliest monotonic instant at which a ping node's status or ipfail's verdict may change. */
    long nextDeadlineNanos() {
        long t = pingNodes.nextDeadlineNanos();
        return ipfail != null ? Math.min(t, ipfail.nextDeadlineNanos()) : t;
    }

    /** Ping node statuses changed: logs each change, and gives ipfail our count once the nodes have settled. */
    void changed(List<PingNodes.Change> changes, List<Effect> out, long now) {
        for (PingNodes.Change c : changes) {
            out.add(new Effect.LogLine(c.to() == PingStatus.DEAD ? Level.WARN : Level.INFO, c.logLine()));
        }
        if (pingNodes.settled() && ipfail != null) {
            ipfail.local(pingNodes.upCount(), now);
        }
    }

    /**
     * Our {@code jhb-ping}, when the count changed or this peer generation has not had it, once our ping
     * nodes have settled and communication is up; empty otherwise. Recorded as sent.
     *
     * @param commUp         this node's status is active
     * @param peerAlive      the peer is taken for alive
     * @param peerGeneration the peer's current generation
     */
    Optional<HaMessage> countToSend(boolean commUp, boolean peerAlive, long peerGeneration) {
        if (!pingNodes.any() || !pingNodes.settled() || !commUp || !peerAlive) {
            return Optional.empty();
        }
        int count = pingNodes.upCount();
        if (count == pingCountSent && pingSentToGeneration == peerGeneration) {
            return Optional.empty();
        }
        pingCountSent = count;
        pingSentToGeneration = peerGeneration;
        return Optional.of(HaMessage.builder().add(Field.TYPE, MessageType.PING_COUNT.wireName())
                .add(Field.PING_COUNT, Integer.toString(count)).build());
    }

    /**
     * The peer's {@code jhb-ping} carried {@code n}.
     *
     * @return false when it is not a count (1 to 4 digits): the message is bad and changes nothing
     */
    boolean peerCount(String n, long now) {
        if (!n.matches("[0-9]{1,4}")) {
            return false;
        }
        if (ipfail != null) {
            ipfail.peer(Integer.parseInt(n), now);
        }
        peerPingCount = Integer.parseInt(n);
        return true;
    }

    /**
     * A jheartbeat peer with the same ping nodes reports its count once they have settled: within
     * {@code dueAfterNanos} (deadping plus a keepalive or two for the message) of now.
     */
    void expectPeerCount(long now, long dueAfterNanos) {
        if (ipfail != null && peerPingCount < 0) {
            peerPingDueNanos = now + dueAfterNanos;
        }
    }

    /** ipfail on, but the peer never reported a count: the WARN saying once why nothing will move. */
    Optional<Effect.LogLine> noPeerCountWarning(long now, boolean peerAlive) {
        if (now < peerPingDueNanos) {
            return Optional.empty();
        }
        peerPingDueNanos = Long.MAX_VALUE;
        if (peerPingCount < 0 && peerAlive) {
            return Optional.of(new Effect.LogLine(Level.WARN, "ipfail: " + peer + " reports no ping node count (a"
                    + " Heartbeat 3.0.6 peer, or no ping nodes in its ha.cf): ping nodes are only reported, nothing"
                    + " moves because of them"));
        }
        return Optional.empty();
    }

    /** The peer died, shut down or restarted: its count is unknown, and ours is told again once it is heard. */
    void peerUnknown() {
        peerPingCount = -1;
        peerPingDueNanos = Long.MAX_VALUE;
        pingSentToGeneration = -1; // tell it again once it is heard: it forgot ours too
        if (ipfail != null) {
            ipfail.peerUnknown();
        }
    }

    /**
     * Heartbeat's ipfail: when this node has seen fewer live ping nodes than the peer for the settle
     * delay and both are stable, it goes standby for everything it holds; with auto_failback on and
     * balanced counts, it hands the peer's own groups back ({@link IpfailRule}).
     *
     * @param stable both nodes are stable, the peer alive, and no standby exchange is under way
     * @param held   what this node holds
     * @return what to log and ask of the machine; empty when nothing is due
     */
    Optional<IpfailAction> ipfailDue(long now, boolean stable, ResourceSet held) {
        if (ipfail == null) {
            return Optional.empty();
        }
        Optional<IpfailRule.Verdict> v = ipfail.due(now, stable);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        String counts = pingNodes.upCount() + " live ping node(s) here, " + ipfail.peerCount().orElse(-1)
                + " on " + peer;
        if (v.get() == IpfailRule.Verdict.GIVE_UP_ALL) {
            if (held == ResourceSet.NONE) {
                return Optional.of(new IpfailAction(new Effect.LogLine(Level.INFO, "ipfail: " + counts
                        + "; this node holds no group, nothing to hand over"), Optional.empty()));
            }
            return Optional.of(new IpfailAction(new Effect.LogLine(Level.WARN, "ipfail: " + counts + ": giving up"
                    + " because we have less visible ping nodes; handing [all] to " + peer),
                    Optional.of(ResourceSet.ALL)));
        } else if (held.includesForeign()) {
            return Optional.of(new IpfailAction(new Effect.LogLine(Level.INFO, "ipfail: " + counts
                    + ", balanced: handing " + peer + " back its share [foreign] (auto_failback)"),
                    Optional.of(ResourceSet.FOREIGN)));
        }
        return Optional.empty();
    }
}
