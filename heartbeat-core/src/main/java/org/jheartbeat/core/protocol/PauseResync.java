package org.jheartbeat.core.protocol;

import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.takeover.TakeoverState;

/**
 * The resynchronisation after a long pause of this process (SIGSTOP, a stalled VM): owns whether one is
 * under way and when it ends. A pause long enough for the peer to have declared this node dead means the
 * frames queued meanwhile may be stale (the peer may have taken our groups over and cancelled a standby
 * exchange), so starts are held back ({@link TakeoverEvent.Resync}) until the peer has had time to answer
 * our return. Pure: time and timings come in as arguments; it appends the log line to the caller's effects
 * and the engine feeds the events. Not thread-safe (the engine's thread owns it).
 */
final class PauseResync {
    private final NodeName peer;
    /** When the resynchronisation ends (monotonic ns); MAX: none under way. */
    private long endNanos = Long.MAX_VALUE;

    /** @param peer the peer node, for log lines */
    PauseResync(NodeName peer) {
        this.peer = peer;
    }

    /** When the resynchronisation under way ends (monotonic ns); {@link Long#MAX_VALUE}: none. */
    long endNanos() {
        return endNanos;
    }

    /**
     * This process did not run for {@code pausedMillis}: whether the peer may have declared it dead meanwhile
     * (its silence as the peer saw it, the pause plus up to a keepalive and a second of delay, may exceed
     * deadtime). If so, starts are held back for two keepalives and a second from {@code now}, long enough for
     * the peer's answer to our return (its {@code partition} claim and its {@code jhb-groups}, sent again to a
     * node it heard return), and a WARN goes to {@code out}.
     *
     * @param state the takeover machine's phase: a stopped or shutting-down node has nothing to resynchronise
     * @return true when a resynchronisation starts: the engine feeds {@code Resync(true, {})} and reports again
     */
    boolean paused(long pausedMillis, TakeoverState state, Timing timing, long now, List<Effect> out) {
        long mayBeDead = timing.deadtime().toMillis() - timing.keepalive().toMillis() - 1_000;
        // also when the peer was taken for dead: it may have come back meanwhile and taken its groups
        // (its frames wait unread), so a start decided now would act on the view from before the pause;
        // and before comm up: the peer may have declared this node dead at its initdead and taken its
        // groups, and its queued `starting` (sent at that comm up) would read as both nodes starting
        if (pausedMillis < mayBeDead || state == TakeoverState.STOPPED || state == TakeoverState.SHUTTING_DOWN) {
            return false;
        }
        endNanos = now + 2 * timing.keepalive().toNanos() + 1_000_000_000L;
        out.add(new Effect.LogLine(Level.WARN, peer + " may have declared this node dead during its pause: no"
                + " resource group is started until " + peer + " has answered its return"));
        return true;
    }

    /**
     * Whether the resynchronisation ends at {@code now}; if so it is over: the engine feeds
     * {@code Resync(false, groups the peer holds by its latest account)}.
     */
    boolean ends(long now) {
        if (now < endNanos) {
            return false;
        }
        endNanos = Long.MAX_VALUE;
        return true;
    }
}
