package org.jheartbeat.core.takeover;

import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.wire.WirePacket;

/**
 * What the decision kernels ask their shell to do, in order: the one output type of the
 * {@link TakeoverMachine} and of the protocol engine ({@code NodeEngine}), executed by the cluster
 * loop. The machine emits protocol messages as {@link Announce} and the end of a shutdown as
 * {@link ShutdownComplete}; the engine turns those into {@link Transmit} and, after the last beats,
 * {@link Exit}, so the loop never sees them. Operations of one group run one at a time, in the order
 * issued (groups run independently); their ends come back as {@link TakeoverEvent.GroupStarted} /
 * {@link TakeoverEvent.GroupStopped}.
 */
public sealed interface Effect {

    /** Start group {@code group} (index in haresources order), for {@code reason}. */
    record StartGroup(int group, GroupOpReason reason) implements Effect { }

    /** Stop group {@code group}, for {@code reason}. */
    record StopGroup(int group, GroupOpReason reason) implements Effect { }

    /** Fence (STONITH) {@code node}; the end comes back as {@link TakeoverEvent.FenceOutcome}. */
    record FencePeer(NodeName node) implements Effect { }

    /**
     * Reset this node (self-fencing after a stop failure, only when the admin asked for it;
     * {@code Fencer#fenceSelf}).
     *
     * @param reason one line for the log and the command
     */
    record SelfFence(String reason) implements Effect { }

    /**
     * The peer left the cluster ({@code how}: {@code died} when declared dead, {@code shut down} after
     * its {@code shutdone}): work towards it in flight, such as a hand-over sync, is cancelled.
     * Emitted before the takeover's group operations of the same step.
     */
    record PeerLost(NodeName node, String how) implements Effect { }

    /** An operator-facing log line in Heartbeat's words. */
    record LogLine(Level level, String text) implements Effect { }

    /** Send a resource-protocol message to the peer (machine → engine; the engine transmits it). */
    record Announce(Announcement message) implements Effect { }

    /** Send this packet on every medium (each picks its encoding). */
    record Transmit(WirePacket packet) implements Effect { }

    /** Shutdown finished: every group stopped and {@code shutdone} sent (machine → engine). */
    record ShutdownComplete() implements Effect { }

    /** Shutdown is complete and the last heartbeats are out: the daemon may exit now. */
    record Exit() implements Effect { }

    /** Log levels as Heartbeat prints them; {@code DEBUG} lines go to the debug log only. */
    enum Level { DEBUG, INFO, WARN, ERROR, CRIT }
}
