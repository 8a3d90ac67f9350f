package org.jheartbeat.core.takeover;

import java.util.List;
import org.jheartbeat.core.takeover.Announcement.Starting;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.Effect.LogLine;
import org.jheartbeat.core.takeover.TakeoverMachine.Handover;

/**
 * The Tick column of the {@link TakeoverMachine}'s table: the machine's own timers, each read against the
 * monotonic time of the tick. In FENCING the end of the fence delay (fence now) and the pause after a failed
 * attempt (retry, Heartbeat: every 5 s, forever); a takeover request the peer did not answer with a standby
 * in 30 s (cancelled); a standby request without the peer's {@code other} in 10 s (cancelled, Heartbeat);
 * a negotiation without a stable answer in 10 s (ask again while the peer is alive and silent, else take
 * our own groups it does not run: Heartbeat's RQSTDELAY). Works on the machine's state; owned by the
 * machine's thread.
 */
final class Timeouts {
    private final TakeoverMachine m;

    Timeouts(TakeoverMachine machine) {
        this.m = machine;
    }

    /**
     * Tick.
     *
     * @return whether the event is a Tick (else nothing was done)
     */
    boolean on(TakeoverEvent event, List<Effect> out, long now) {
        if (!(event instanceof TakeoverEvent.Tick)) {
            return false;
        }
        tick(out, now);
        return true;
    }

    private void tick(List<Effect> out, long now) {
        if (m.state == TakeoverState.FENCING && m.fence.delayed() && now >= m.deadlineNanos) {
            out.add(new LogLine(Level.INFO, "Resetting node " + m.peer + " with STONITH before taking over its resources."));
            m.peerLoss.startFencing(out);
            return;
        }
        if (m.state == TakeoverState.FENCING && now >= m.deadlineNanos) {
            m.deadlineNanos = Long.MAX_VALUE;
            m.fence.retry(m.peer);
            out.add(new Effect.FencePeer(m.peer));
            return;
        }
        if (now >= m.exchange.deadlineNanos() && m.exchange.inProgress() && m.state == TakeoverState.STABLE) {
            out.add(new LogLine(Level.WARN, m.peer + " did not hand over in time; takeover request cancelled."));
            m.exchange.finish(Handover.CANCELLED, m.peer + " did not start a standby within "
                    + TakeoverMachine.TAKEOVER_REPLY_TIMEOUT_NANOS / 1_000_000_000L + " s");
        }
        if (now < m.deadlineNanos) {
            return;
        }
        m.deadlineNanos = Long.MAX_VALUE;
        if (m.state == TakeoverState.STANDBY_GIVING && m.exchange.step() == StandbyStep.AWAITING_PEER) {
            out.add(new LogLine(Level.WARN, "No reply to standby request.  Standby request cancelled."));
            m.state = TakeoverState.STABLE;
            m.exchange.finish(Handover.CANCELLED, "no reply from " + m.peer + " to the standby request");
        } else if (m.state == TakeoverState.NEGOTIATING && m.peerReport == null && m.peerPresence.alive()) {
            // it is alive but did not answer stable: our starting may have been lost, or it is still busy;
            // taking our groups now could start one it runs, so ask again (Heartbeat takes them: RQSTDELAY)
            out.add(new LogLine(Level.INFO, "No stable resource answer from " + m.peer + " in time; asking again."));
            m.answerWhenSettled = false;
            m.deadlineNanos = now + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS;
            out.add(new Announce(new Starting()));
        } else if (m.state == TakeoverState.NEGOTIATING) {
            out.add(new LogLine(Level.INFO, "No stable resource answer from " + m.peer
                    + " in time; taking our own groups it does not run."));
            m.peerReports.negotiate(true, out);
        }
    }
}
