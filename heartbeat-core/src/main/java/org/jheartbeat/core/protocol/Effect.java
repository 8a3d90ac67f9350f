package org.jheartbeat.core.protocol;

import org.jheartbeat.core.takeover.TakeoverAction.Level;

/**
 * What the {@link NodeEngine} asks its shell (the cluster loop) to do, in order.
 */
public sealed interface Effect {

    /** Send this packet on every medium (each picks its encoding). */
    record Transmit(org.jheartbeat.core.wire.WirePacket packet) implements Effect { }

    /** Start resource group {@code group} (haresources index); report the end with {@link NodeEngine#onGroupDone}. */
    record StartGroup(int group, org.jheartbeat.core.takeover.GroupOpReason reason) implements Effect { }

    /** Stop resource group {@code group}; report the end with {@link NodeEngine#onGroupDone}. */
    record StopGroup(int group, org.jheartbeat.core.takeover.GroupOpReason reason) implements Effect { }

    /**
     * The peer left the cluster ({@code how}: {@code died} when declared dead, {@code shut down} after
     * its {@code shutdone}): work towards it in flight, such as a hand-over sync, is cancelled.
     * Emitted before the takeover's group operations of the same step.
     */
    record PeerLost(org.jheartbeat.core.config.NodeName node, String how) implements Effect { }

    /** Fence (STONITH) {@code node}; report the end with {@link NodeEngine#onFenceDone}. */
    record FencePeer(org.jheartbeat.core.config.NodeName node) implements Effect { }

    /** Reset this node: a resource could not be stopped and self-fencing is configured ({@code Fencer#fenceSelf}). */
    record SelfFence(String reason) implements Effect { }

    /** Log one operator-facing line. */
    record LogLine(Level level, String text) implements Effect { }

    /** Shutdown is complete and the last heartbeats are out: the daemon may exit now. */
    record Exit() implements Effect { }
}
