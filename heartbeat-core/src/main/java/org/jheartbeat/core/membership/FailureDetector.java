package org.jheartbeat.core.membership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.membership.MembershipEvent.LateHeartbeat;
import org.jheartbeat.core.membership.MembershipEvent.LinkDead;
import org.jheartbeat.core.membership.MembershipEvent.LinkUp;
import org.jheartbeat.core.membership.MembershipEvent.NodeDead;
import org.jheartbeat.core.membership.MembershipEvent.NodeStatusChanged;

/**
 * Decides which peers and links are alive, from packet arrival times alone. Pure: no clock, no
 * threads, no I/O; every method takes {@code nowNanos} from the caller's monotonic clock.
 *
 * <p>Semantics follow Heartbeat 3.0.6 {@code check_for_timeouts} (facts D.1, D.2):
 * <ul>
 *   <li>Until a peer has been heard from at least once, its dead interval is {@code initdead},
 *       counted from construction; afterwards it is the dead time the peer advertises in the
 *       {@code dt} field of its {@code status} messages, or our own {@code deadtime} if it sent none.</li>
 *   <li>Only {@code status} messages refresh a node's liveness; any packet refreshes its link.</li>
 *   <li>A node is dead only when no {@code status} arrived on <em>any</em> link for its dead
 *       interval; a single dead link never kills a node. Links use the same interval.</li>
 *   <li>A dead node or link stays dead until a fresh packet arrives.</li>
 *   <li>"Late heartbeat" is computed on arrival from the gap since the previous {@code status}.</li>
 *   <li>Silence counts only while this process runs ({@link #awake}): after it was stopped, the
 *       frames that waited in its socket buffer are read before any death is declared.</li>
 * </ul>
 * Not thread-safe: owned by the cluster loop's single thread.
 */
public final class FailureDetector {
    /**
     * A gap between two {@link #awake} calls longer than this is a pause of this process, in ns: five
     * times the cluster loop's longest sleep (100 ms), so that a busy machine's scheduling jitter is
     * not taken for one.
     */
    public static final long PAUSE_NANOS = 500_000_000L;

    private Timing timing;
    /** Start of the initdead count; moved forward by pauses, as every silence is. */
    private long startNanos;
    /** The previous {@link #awake} call (monotonic ns); MIN_VALUE before the first. */
    private long awakeNanos = Long.MIN_VALUE;
    /** The pause the last {@link #awake} call ended, ns; 0 if it ended none. */
    private long lastPauseNanos;
    private final Map<NodeName, Peer> peers = new LinkedHashMap<>();

    private static final class Peer {
        NodeStatus status = NodeStatus.INIT;
        boolean heard;
        long lastStatusNanos;
        long deadIntervalNanos;
        final Map<String, Link> links = new LinkedHashMap<>();
    }

    private static final class Link {
        LinkStatus status = LinkStatus.INIT;
        long lastPacketNanos;
    }

    /**
     * @param timing     keepalive, warntime, deadtime, initdead
     * @param peers      every node other than ourselves
     * @param linkNames  every local link name (interface or device), one link per peer and name
     * @param startNanos monotonic time at daemon start: initdead counts from here
     */
    public FailureDetector(Timing timing, Collection<NodeName> peers, Collection<String> linkNames, long startNanos) {
        this.timing = timing;
        this.startNanos = startNanos;
        for (NodeName n : peers) {
            Peer p = new Peer();
            p.deadIntervalNanos = timing.deadtime().toNanos();
            for (String l : linkNames) {
                p.links.put(l, new Link());
            }
            this.peers.put(n, p);
        }
    }

    /**
     * Any authenticated packet from {@code node} arrived on {@code link}: refreshes that link.
     *
     * @return a {@link LinkUp} if the link was not up before; otherwise nothing
     */
    public List<MembershipEvent> packetReceived(NodeName node, String link, long nowNanos) {
        Peer p = peers.get(node);
        if (p == null) {
            return List.of();
        }
        Link l = p.links.computeIfAbsent(link, k -> new Link());
        l.lastPacketNanos = nowNanos;
        if (l.status != LinkStatus.UP) {
            l.status = LinkStatus.UP;
            return List.of(new LinkUp(node, link));
        }
        return List.of();
    }

    /**
     * A {@code status} message from {@code node} arrived (call {@link #packetReceived} for its link too).
     *
     * @param reported           the {@code st} it reported
     * @param advertisedDeadtime the {@code dt} it advertised, or {@code null} to use our deadtime
     * @return late-heartbeat and status-change events, in that order
     */
    public List<MembershipEvent> statusReceived(NodeName node, NodeStatus reported, Duration advertisedDeadtime,
                                                long nowNanos) {
        Peer p = peers.get(node);
        if (p == null) {
            return List.of();
        }
        List<MembershipEvent> out = new ArrayList<>(2);
        if (p.heard && p.status != NodeStatus.DEAD) {
            long gapMs = (nowNanos - p.lastStatusNanos) / 1_000_000;
            if (gapMs > timing.warntime().toMillis()) {
                out.add(new LateHeartbeat(node, gapMs, gapMs > timing.deadtime().toMillis()));
            }
        }
        p.heard = true;
        p.lastStatusNanos = nowNanos;
        p.deadIntervalNanos = advertisedDeadtime != null && !advertisedDeadtime.isZero()
                ? advertisedDeadtime.toNanos() : timing.deadtime().toNanos();
        NodeStatus to = reported == NodeStatus.DEAD ? NodeStatus.UP : reported;
        if (p.status != to) {
            out.add(new NodeStatusChanged(node, p.status, to));
            p.status = to;
        }
        return out;
    }

    /**
     * The node announced a clean shutdown ({@code shutdone}): it is dead now, without waiting.
     *
     * @return a {@link NodeDead} event unless it was already dead
     */
    public List<MembershipEvent> nodeLeft(NodeName node, long nowNanos) {
        Peer p = peers.get(node);
        if (p == null || p.status == NodeStatus.DEAD) {
            return List.of();
        }
        p.status = NodeStatus.DEAD;
        p.heard = true;
        return List.of(new NodeDead(node, 0));
    }

    /**
     * The caller runs at {@code nowNanos}: call first at every timer tick and every frame. A gap since
     * the previous call longer than {@link #PAUSE_NANOS} means this process did not run (SIGSTOP, a
     * frozen VM, a long stall) and so read nothing; the peer's beats of that time wait in the socket
     * buffer and come next. The gap is then not counted as anyone's silence: every deadline not yet
     * passed moves forward by it. Without this, the first tick after the resume found the peer silent
     * beyond its dead interval and declared it dead before reading its beats, and the resumed node took
     * over groups that ran on the live peer. Corosync notices its pauses the same way (a gap over half
     * its token timeout: "Process pause detected"), but then discards the membership messages that
     * waited; here they are the peer's proof of life and are read.
     *
     * @return one {@link MembershipEvent.Paused} per node not dead when a pause ended; otherwise nothing
     */
    public List<MembershipEvent> awake(long nowNanos) {
        long gap = awakeNanos == Long.MIN_VALUE ? 0 : nowNanos - awakeNanos;
        awakeNanos = Math.max(awakeNanos, nowNanos);
        if (gap <= PAUSE_NANOS) {
            lastPauseNanos = 0;
            return List.of();
        }
        lastPauseNanos = gap;
        List<MembershipEvent> out = new ArrayList<>();
        startNanos += gap;
        for (Map.Entry<NodeName, Peer> e : peers.entrySet()) {
            Peer p = e.getValue();
            for (Link l : p.links.values()) {
                if (l.status == LinkStatus.UP) {
                    l.lastPacketNanos += gap;
                }
            }
            if (p.status != NodeStatus.DEAD) {
                p.lastStatusNanos += gap;
                out.add(new MembershipEvent.Paused(e.getKey(), gap / 1_000_000));
            }
        }
        return out;
    }

    /**
     * The pause of this process that the last {@link #awake} call ended, for the other silence counts
     * kept beside this one (ping nodes) to discount it too.
     *
     * @return its length in ns, or 0 if the last call ended no pause
     */
    public long lastPauseNanos() {
        return lastPauseNanos;
    }

    /**
     * Checks every link and node against its dead interval.
     *
     * @return link-dead events, then node-dead events, for whatever expired since the last call
     */
    public List<MembershipEvent> evaluate(long nowNanos) {
        List<MembershipEvent> out = new ArrayList<>();
        for (Map.Entry<NodeName, Peer> e : peers.entrySet()) {
            Peer p = e.getValue();
            long interval = interval(p);
            for (Map.Entry<String, Link> le : p.links.entrySet()) {
                Link l = le.getValue();
                long since = l.status == LinkStatus.INIT ? startNanos : l.lastPacketNanos;
                long limit = l.status == LinkStatus.INIT ? timing.initdead().toNanos() : interval;
                if (l.status != LinkStatus.DEAD && nowNanos - since > limit) {
                    l.status = LinkStatus.DEAD;
                    out.add(new LinkDead(e.getKey(), le.getKey()));
                }
            }
        }
        for (Map.Entry<NodeName, Peer> e : peers.entrySet()) {
            Peer p = e.getValue();
            long since = p.heard ? p.lastStatusNanos : startNanos;
            if (p.status != NodeStatus.DEAD && nowNanos - since > interval(p)) {
                p.status = NodeStatus.DEAD;
                out.add(new NodeDead(e.getKey(), (nowNanos - since) / 1_000_000));
            }
        }
        return out;
    }

    /** The earliest instant (monotonic ns) at which {@link #evaluate} could report something new. */
    public long nextDeadlineNanos() {
        long next = Long.MAX_VALUE;
        for (Peer p : peers.values()) {
            if (p.status != NodeStatus.DEAD) {
                next = Math.min(next, (p.heard ? p.lastStatusNanos : startNanos) + interval(p) + 1);
            }
            for (Link l : p.links.values()) {
                if (l.status == LinkStatus.UP) {
                    next = Math.min(next, l.lastPacketNanos + interval(p) + 1);
                } else if (l.status == LinkStatus.INIT) {
                    next = Math.min(next, startNanos + timing.initdead().toNanos() + 1);
                }
            }
        }
        return next;
    }

    private long interval(Peer p) {
        return p.heard ? p.deadIntervalNanos : timing.initdead().toNanos();
    }

    /**
     * A configuration reload changed the timings: warntime, initdead and our own deadtime apply from
     * now on. A peer already heard keeps the dead time it advertises ({@code dt}) until its next
     * {@code status}; nothing already dead comes back, nothing alive dies by this call alone.
     */
    public void retime(Timing newTiming) {
        this.timing = java.util.Objects.requireNonNull(newTiming, "newTiming");
    }

    /** Current status of {@code node}; {@link NodeStatus#INIT} until heard from. */
    public NodeStatus status(NodeName node) {
        Peer p = peers.get(node);
        return p == null ? NodeStatus.DEAD : p.status;
    }

    /** Whether {@code node} has sent at least one {@code status} since we started. */
    public boolean heardFrom(NodeName node) {
        Peer p = peers.get(node);
        return p != null && p.heard;
    }

    /** Link name → status for {@code node}, in medium order. */
    public Map<String, LinkStatus> links(NodeName node) {
        Peer p = peers.get(node);
        Map<String, LinkStatus> out = new LinkedHashMap<>();
        if (p != null) {
            p.links.forEach((k, v) -> out.put(k, v.status));
        }
        return out;
    }
}
