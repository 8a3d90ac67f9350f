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

    /**
     * Send this packet on every medium (each picks its encoding and, if it is slow, how to queue it).
     *
     * @param traffic what the packet is to a medium's send queue
     */
    record Transmit(WirePacket packet, org.jheartbeat.core.wire.Traffic traffic) implements Effect {
        /** A packet sent for the first time, not a beat. */
        public Transmit(WirePacket packet) {
            this(packet, org.jheartbeat.core.wire.Traffic.MESSAGE);
        }
    }

    /** Shutdown finished: every group stopped and {@code shutdone} sent (machine → engine). */
    record ShutdownComplete() implements Effect { }

    /** Shutdown is complete and the last heartbeats are out: the daemon may exit now. */
    record Exit() implements Effect { }

    /** Log levels as Heartbeat prints them; {@code DEBUG} lines go to the debug log only. */
    enum Level { DEBUG, INFO, WARN, ERROR, CRIT }

    /**
     * Watch (monitor) group {@code group} from now on ({@code on}: maintenance ended and it runs
     * here, adopted), or stop watching it ({@code false}: it entered maintenance). Nothing is started
     * or stopped.
     */
    record WatchGroup(int group, boolean on) implements Effect { }

    /** Keep the maintenance setting in the state directory (it changed). */
    record PersistMaintenance(Maintenance setting) implements Effect { }

    /** The peer asks which groups run here: probe every group, answer with {@code jhb-maint runs}. */
    record ProbeForPeer(long request) implements Effect { }

    /** The peer answered our probe request {@code request}: these group keys run on it. */
    record PeerProbed(long request, java.util.Set<String> runs) implements Effect { }

    /**
     * The peer's newer setting ends the maintenance of {@code leaving} here: probe them, then apply
     * {@code setting} with what runs ({@code peerRuns}: groups the peer says run on it).
     */
    record ProbeThenApply(Maintenance setting, java.util.Set<Integer> leaving, java.util.Set<Integer> peerRuns)
            implements Effect { }
}
