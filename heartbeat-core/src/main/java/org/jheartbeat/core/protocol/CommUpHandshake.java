package org.jheartbeat.core.protocol;

/**
 * Heartbeat 3.0.6's comm-up handshake ({@code heartbeat.c}: {@code comm_now_up}): once the peer's
 * first {@code status} arrives, ask it for its node list ({@code reqnodes}) every second until it
 * answers ({@code repnodes}); that answer brings communication up. A peer declared dead first (no
 * beat within initdead) brings it up as well, so the node can take every group. Pure: times are
 * monotonic nanoseconds given by the caller; not thread-safe (the engine's thread owns it).
 */
final class CommUpHandshake {
    /** How often {@code reqnodes} is repeated while unanswered, in ns (Heartbeat: 1 s). */
    static final long REQNODES_INTERVAL_NANOS = 1_000_000_000L;

    private boolean up;
    private boolean awaiting;
    private long nextRequestNanos = Long.MAX_VALUE;

    /**
     * The peer was heard for the first time.
     *
     * @return true when {@code reqnodes} is to be sent now
     */
    boolean onFirstContact(long nowNanos) {
        if (up) {
            return false;
        }
        awaiting = true;
        nextRequestNanos = nowNanos + REQNODES_INTERVAL_NANOS;
        return true;
    }

    /**
     * The peer answered {@code repnodes}.
     *
     * @return true when communication comes up with this answer
     */
    boolean onReplyNodes() {
        awaiting = false;
        return bringUp();
    }

    /**
     * The peer was declared dead.
     *
     * @return true when communication comes up now (the peer died before it ever answered)
     */
    boolean onPeerDead() {
        awaiting = false;
        return bringUp();
    }

    private boolean bringUp() {
        if (up) {
            return false;
        }
        up = true;
        return true;
    }

    /** @return true when {@code reqnodes} is due again (and schedules the next one) */
    boolean requestDue(long nowNanos) {
        if (!awaiting || nowNanos < nextRequestNanos) {
            return false;
        }
        nextRequestNanos = nowNanos + REQNODES_INTERVAL_NANOS;
        return true;
    }

    /** The next time {@link #requestDue} may say yes, or {@link Long#MAX_VALUE}. */
    long nextDeadlineNanos() {
        return awaiting ? nextRequestNanos : Long.MAX_VALUE;
    }

    /** Whether communication is up. */
    boolean isUp() {
        return up;
    }
}
