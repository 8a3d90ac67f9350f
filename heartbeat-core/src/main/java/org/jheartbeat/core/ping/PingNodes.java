package org.jheartbeat.core.ping;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.PingNodeDecl;

/**
 * The status of every ping pseudo-node of one node, from the answers its ICMP edge reports (Heartbeat
 * 3.0.6 {@code ping}/{@code ping_group} media): a node (for a group: any of its hosts) that answered
 * within the last {@code deadping} is {@link PingStatus#PING}, one silent that long is
 * {@link PingStatus#DEAD}; before its first answer and until {@code deadping} has passed since start
 * it is {@link PingStatus#INIT}. Pure: time comes in as monotonic nanoseconds. Not thread-safe: the
 * loop thread owns it.
 */
public final class PingNodes {
    /**
     * A ping node changed status.
     *
     * @param node its name ({@code ping} host or {@code ping_group} name)
     * @param from the status before
     * @param to   the status now
     */
    public record Change(String node, PingStatus from, PingStatus to) {
        /** One log line, in Heartbeat's words for a node status update. */
        public String logLine() {
            return to == PingStatus.DEAD ? "node " + node + ": is dead (ping node silent for deadping)"
                    : "Status update for node " + node + ": status " + to.wireName();
        }
    }

    private final long deadpingNanos;
    private long startNanos;
    private final Map<String, PingStatus> status = new LinkedHashMap<>();
    private final Map<String, Long> lastAnswer = new LinkedHashMap<>();

    /**
     * @param nodes      the ping nodes of ha.cf, in file order
     * @param deadping   silence after which a ping node is dead (ha.cf {@code deadping}); positive
     * @param startNanos monotonic time at start: a node never heard is dead {@code deadping} after it
     */
    public PingNodes(List<PingNodeDecl> nodes, Duration deadping, long startNanos) {
        if (deadping.isNegative() || deadping.isZero()) {
            throw new IllegalArgumentException("deadping must be positive");
        }
        this.deadpingNanos = deadping.toNanos();
        this.startNanos = startNanos;
        for (PingNodeDecl d : nodes) {
            status.put(d.name(), PingStatus.INIT);
        }
    }

    /**
     * The edge reports that {@code node} (one of its hosts) answered an echo request at {@code nowNanos}.
     *
     * @return the change, if the node was not {@link PingStatus#PING} already; empty for an unknown name
     */
    public Optional<Change> answered(String node, long nowNanos) {
        PingStatus before = status.get(node);
        if (before == null) {
            return Optional.empty();
        }
        lastAnswer.put(node, nowNanos);
        if (before == PingStatus.PING) {
            return Optional.empty();
        }
        status.put(node, PingStatus.PING);
        return Optional.of(new Change(node, before, PingStatus.PING));
    }

    /**
     * This process did not run for {@code gapNanos} (SIGSTOP, a frozen VM; noticed by
     * {@code FailureDetector.awake}): the echo replies of that time were never read, so the gap is
     * nobody's silence. Every count not yet ended (a node not {@link PingStatus#DEAD}, and the start-up
     * count of a node never heard) moves forward by it, as the peer's deadline does.
     *
     * @param gapNanos the length of the pause, ns; not positive: nothing changes
     */
    public void paused(long gapNanos) {
        if (gapNanos <= 0) {
            return;
        }
        startNanos += gapNanos;
        for (Map.Entry<String, Long> e : lastAnswer.entrySet()) {
            if (status.get(e.getKey()) != PingStatus.DEAD) {
                e.setValue(e.getValue() + gapNanos);
            }
        }
    }

    /** Declares dead every node silent for {@code deadping} at {@code nowNanos}; returns the changes. */
    public List<Change> evaluate(long nowNanos) {
        List<Change> out = new ArrayList<>();
        for (Map.Entry<String, PingStatus> e : status.entrySet()) {
            if (e.getValue() != PingStatus.DEAD && nowNanos - since(e.getKey()) >= deadpingNanos) {
                out.add(new Change(e.getKey(), e.getValue(), PingStatus.DEAD));
                e.setValue(PingStatus.DEAD);
            }
        }
        return out;
    }

    /** The earliest instant at which {@link #evaluate} may declare a node dead; {@code Long.MAX_VALUE} if none can. */
    public long nextDeadlineNanos() {
        long t = Long.MAX_VALUE;
        for (Map.Entry<String, PingStatus> e : status.entrySet()) {
            if (e.getValue() != PingStatus.DEAD) {
                t = Math.min(t, since(e.getKey()) + deadpingNanos);
            }
        }
        return t;
    }

    private long since(String node) {
        return lastAnswer.getOrDefault(node, startNanos);
    }

    /** Every ping node and its status, in ha.cf order. */
    public Map<String, PingStatus> statuses() {
        return java.util.Collections.unmodifiableMap(status);
    }

    /** The number of ping nodes that answer ({@link PingStatus#PING}), as ipfail counts them. */
    public int upCount() {
        return (int) status.values().stream().filter(s -> s == PingStatus.PING).count();
    }

    /** Whether every ping node has a status (none is {@link PingStatus#INIT}): only then is the count meaningful. */
    public boolean settled() {
        return status.values().stream().noneMatch(s -> s == PingStatus.INIT);
    }

    /** Whether any ping node is declared. */
    public boolean any() {
        return !status.isEmpty();
    }
}
