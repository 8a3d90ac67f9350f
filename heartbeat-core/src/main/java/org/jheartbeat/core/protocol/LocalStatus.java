package org.jheartbeat.core.protocol;

import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.MessageType;

/**
 * This node's advertised status and its heartbeat, as Heartbeat 3.0.6 starts up: {@code status st=init}
 * first, then {@code up} every keepalive, and {@code active} from comm up on. Owns the status and when the
 * next beat is due, and builds the beat and the node list messages ({@code reqnodes}, {@code repnodes}).
 * Pure: time and timings come in as arguments; it appends log lines to the caller's effects and returns the
 * messages, which the engine stamps and sends. Not thread-safe (the engine's thread owns it).
 */
final class LocalStatus {
    private NodeStatus status = NodeStatus.INIT;
    private boolean sentFirst;
    /** When the next beat is due (monotonic ns). */
    private long nextBeatNanos;

    /** @param startNanos monotonic time at start: the first beat is due then */
    LocalStatus(long startNanos) {
        this.nextBeatNanos = startNanos;
    }

    /** The status this node advertises. */
    NodeStatus status() {
        return status;
    }

    /** Whether communication is up ({@code active}). */
    boolean active() {
        return status == NodeStatus.ACTIVE;
    }

    /** When the next beat is due (monotonic ns). */
    long nextBeatNanos() {
        return nextBeatNanos;
    }

    /**
     * Whether a beat is due at {@code now}; if so, the following one is scheduled a keepalive later (or a
     * keepalive from now, when this one is late by more than that).
     */
    boolean beatDue(long now, long keepaliveNanos) {
        if (now < nextBeatNanos) {
            return false;
        }
        long next = nextBeatNanos + keepaliveNanos;
        nextBeatNanos = next > now ? next : now + keepaliveNanos;
        return true;
    }

    /**
     * The beat ({@code status}) to send now; after the first one, {@code init} becomes {@code up} (logged to
     * {@code out}).
     *
     * @param deadtimeMillis the deadtime to advertise, ms
     */
    HaMessage beat(long deadtimeMillis, List<Effect> out) {
        if (sentFirst && status == NodeStatus.INIT) {
            status = NodeStatus.UP;
            out.add(new Effect.LogLine(Level.INFO, "Local status now set to: 'up'"));
        }
        sentFirst = true;
        // Heartbeat 3.0.6 advertises deadtime + 2 s for its first 5 s (hb_add_deadtime); we always
        // advertise deadtime, so a node that dies right after start is still taken over in deadtime.
        return HaMessage.builder()
                .add(Field.TYPE, MessageType.STATUS.wireName())
                .add(Field.STATUS, status.wireName())
                .add(Field.DEADTIME, OutboundStamper.hex(deadtimeMillis))
                .add(Field.PROTOCOL, "1").build();
    }

    /** Communication is up: the status becomes {@code active} (logged to {@code out}). */
    void commUp(List<Effect> out) {
        out.add(new Effect.LogLine(Level.INFO, "Comm_now_up(): updating status to active"));
        status = NodeStatus.ACTIVE;
        out.add(new Effect.LogLine(Level.INFO, "Local status now set to: 'active'"));
    }

    /** {@code reqnodes} to {@code peer}: asks for its node list. */
    static HaMessage requestNodes(NodeName peer) {
        return HaMessage.builder().add(Field.TYPE, MessageType.REQUEST_NODES.wireName())
                .add(Field.DESTINATION, peer.value()).build();
    }

    /** {@code repnodes} to {@code peer}: our node list (each name followed by a space), no deleted node. */
    static HaMessage replyNodes(NodeName peer, List<NodeName> nodes) {
        StringBuilder sb = new StringBuilder();
        nodes.forEach(n -> sb.append(n.value()).append(' '));
        return HaMessage.builder()
                .add(Field.DESTINATION, peer.value())
                .add(Field.TYPE, MessageType.REPLY_NODES.wireName())
                .add(Field.NODE_LIST, sb.toString())
                .add(Field.DELETED_NODE_LIST, " ").build();
    }
}
