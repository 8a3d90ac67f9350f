package org.jheartbeat.core.takeover;

/**
 * Outputs of the {@link TakeoverMachine}, executed in order by the cluster loop. Operations of one
 * group run one at a time, in the order issued (groups run independently); their ends come back as
 * {@link TakeoverEvent.GroupStarted}/{@link TakeoverEvent.GroupStopped}.
 */
public sealed interface TakeoverAction {

    /** Start group {@code group} (index in haresources order), for {@code reason}. */
    record StartGroup(int group, GroupOpReason reason) implements TakeoverAction { }

    /** Stop group {@code group}, for {@code reason}. */
    record StopGroup(int group, GroupOpReason reason) implements TakeoverAction { }

    /** Fence (STONITH) {@code node}; report the end with {@link TakeoverEvent.FenceOutcome}. */
    record FencePeer(org.jheartbeat.core.config.NodeName node) implements TakeoverAction { }

    /**
     * Reset this node (self-fencing after a stop failure, only when the admin asked for it).
     *
     * @param reason one line for the log and the command
     */
    record SelfFence(String reason) implements TakeoverAction { }

    /** Send a resource-protocol message to the peer. */
    record Announce(Announcement message) implements TakeoverAction { }

    /** An operator-facing log line in Heartbeat's words. */
    record Log(Level level, String text) implements TakeoverAction { }

    /** Shutdown finished: every group stopped and {@code shutdone} sent; the daemon may exit. */
    record ShutdownComplete() implements TakeoverAction { }

    /** Log levels as Heartbeat prints them; {@code DEBUG} lines go to the debug log only. */
    enum Level { DEBUG, INFO, WARN, ERROR, CRIT }
}
