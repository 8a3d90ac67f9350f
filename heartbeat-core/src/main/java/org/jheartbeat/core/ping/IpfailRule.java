package org.jheartbeat.core.ping;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The ipfail decision (as Heartbeat 3.0.6's {@code ipfail} client: {@code msg_ping_nodes},
 * {@code delay_giveup}, {@code giveup}), on counts of live ping nodes: this node's and the peer's.
 * <ul>
 *   <li>fewer here than on the peer: after a settle delay, hand every group over ({@link Verdict#GIVE_UP_ALL});</li>
 *   <li>the same count on both: nothing moves (a pending hand-over is cancelled); with auto_failback on,
 *       groups held for the peer are handed back ({@link Verdict#GIVE_UP_FOREIGN}), as ipfail does;</li>
 *   <li>more here: nothing to do here (the peer applies the first rule).</li>
 * </ul>
 * Every change of either count restarts the settle delay (ipfail's {@code delay_giveup} replaces its
 * timer), so counts that move in a burst, as when both nodes lose the same ping node one after the
 * other, decide only once both have settled. A due verdict is released only while the caller says the
 * cluster is stable (ipfail's {@code need_standby}: wait for the peer's {@code isstable=1}), and only
 * once. Without the peer's count (a Heartbeat 3.0.6 peer, or a peer not heard since it started)
 * nothing is decided. Pure: time comes in as monotonic nanoseconds.
 */
public final class IpfailRule {
    /** What this node should do. */
    public enum Verdict {
        /** Hand every group this node holds to the peer (ipfail {@code HB_ALL_RESOURCES}). */
        GIVE_UP_ALL,
        /** Hand the peer's own groups back to it (ipfail, auto_failback on, counts balanced). */
        GIVE_UP_FOREIGN
    }

    private final long settleNanos;
    private final boolean autoFailback;
    private OptionalInt local = OptionalInt.empty();
    private OptionalInt peer = OptionalInt.empty();
    private Verdict pending;
    private long dueNanos = Long.MAX_VALUE;
    /** The pending verdict is due but waits for stability: no deadline to wake up for. */
    private boolean waitingForStability;

    /**
     * @param settleNanos  how long both counts must stay unchanged before a verdict is due
     *                     (ipfail: twice keepalive); positive
     * @param autoFailback whether balanced counts hand foreign groups back (ha.cf {@code auto_failback on})
     */
    public IpfailRule(long settleNanos, boolean autoFailback) {
        if (settleNanos <= 0) {
            throw new IllegalArgumentException("settle delay must be positive");
        }
        this.settleNanos = settleNanos;
        this.autoFailback = autoFailback;
    }

    /** This node's count of live ping nodes is now {@code count} (only call once its ping nodes have settled). */
    public void local(int count, long nowNanos) {
        if (local.isPresent() && local.getAsInt() == count) {
            return;
        }
        local = OptionalInt.of(count);
        compare(nowNanos);
    }

    /** The peer reported its count of live ping nodes. */
    public void peer(int count, long nowNanos) {
        if (peer.isPresent() && peer.getAsInt() == count) {
            return;
        }
        peer = OptionalInt.of(count);
        compare(nowNanos);
    }

    /** The peer died, left or restarted: its count is unknown until it reports again; nothing is pending. */
    public void peerUnknown() {
        peer = OptionalInt.empty();
        waitingForStability = false;
        pending = null;
        dueNanos = Long.MAX_VALUE;
    }

    private void compare(long nowNanos) {
        waitingForStability = false;
        pending = null;
        dueNanos = Long.MAX_VALUE;
        if (local.isEmpty() || peer.isEmpty()) {
            return;
        }
        int l = local.getAsInt();
        int p = peer.getAsInt();
        if (l < p) {
            pending = Verdict.GIVE_UP_ALL;
        } else if (l == p && autoFailback) {
            pending = Verdict.GIVE_UP_FOREIGN;
        }
        if (pending != null) {
            dueNanos = nowNanos + settleNanos;
        }
    }

    /**
     * The verdict due at {@code nowNanos}, released once: empty before the settle delay has passed,
     * while {@code stable} is false (it stays pending), or when nothing is pending.
     *
     * @param stable whether both nodes are stable (no negotiation, hand-over or group operation under way)
     */
    public Optional<Verdict> due(long nowNanos, boolean stable) {
        if (pending == null || nowNanos < dueNanos) {
            return Optional.empty();
        }
        if (!stable) {
            waitingForStability = true;
            return Optional.empty();
        }
        waitingForStability = false;
        Verdict v = pending;
        pending = null;
        dueNanos = Long.MAX_VALUE;
        return Optional.of(v);
    }

    /**
     * When the pending verdict falls due; {@code Long.MAX_VALUE} when none is pending, or when it is due
     * and waits for stability (the caller asks again on its next timer).
     */
    public long nextDeadlineNanos() {
        return waitingForStability ? Long.MAX_VALUE : dueNanos;
    }

    /** This node's count, if known. */
    public OptionalInt localCount() {
        return local;
    }

    /** The peer's count, if known. */
    public OptionalInt peerCount() {
        return peer;
    }

    /** The verdict waiting for its settle delay or for stability, if any. */
    public Optional<Verdict> pending() {
        return Optional.ofNullable(pending);
    }
}
