package org.jheartbeat.core.membership;

import org.jheartbeat.core.config.NodeName;

/**
 * What the {@link FailureDetector} decided. It never acts on these itself: the loop logs them and
 * feeds them to the takeover machine (detection is kept apart from decision).
 */
public sealed interface MembershipEvent {

    /** The node concerned. */
    NodeName node();

    /** Heartbeat's log line for this event, e.g. {@code node node2: is dead}. */
    String logLine();

    /** First packet on a link, or a packet on a dead link: {@code Link node2:eth1 up.} */
    record LinkUp(NodeName node, String link) implements MembershipEvent {
        @Override
        public String logLine() {
            return "Link " + node + ":" + link + " up.";
        }
    }

    /** No packet on a link for the node's dead interval: {@code Link node2:eth1 dead.} */
    record LinkDead(NodeName node, String link) implements MembershipEvent {
        @Override
        public String logLine() {
            return "Link " + node + ":" + link + " dead.";
        }
    }

    /** The node reported a new status, or came back from dead: {@code Status update for node node2: status active}. */
    record NodeStatusChanged(NodeName node, NodeStatus from, NodeStatus to) implements MembershipEvent {
        @Override
        public String logLine() {
            return "Status update for node " + node + ": status " + to;
        }
    }

    /** No {@code status} message from the node on any link for its dead interval: {@code node node2: is dead}. */
    record NodeDead(NodeName node, long silentMillis) implements MembershipEvent {
        @Override
        public String logLine() {
            return "node " + node + ": is dead";
        }
    }

    /**
     * Two consecutive {@code status} messages arrived further apart than warntime:
     * {@code Late heartbeat: Node node2: interval 2300 ms}; with {@code (> deadtime)} when beyond deadtime.
     */
    record LateHeartbeat(NodeName node, long intervalMillis, boolean beyondDeadtime) implements MembershipEvent {
        @Override
        public String logLine() {
            return "Late heartbeat: Node " + node + ": interval " + intervalMillis + " ms"
                    + (beyondDeadtime ? " (> deadtime)" : "");
        }
    }

    /**
     * This process did not run for {@code pausedMillis} (SIGSTOP, a frozen VM, a long stall): the
     * node's silence meanwhile is not counted towards its dead interval ({@link FailureDetector#awake}).
     */
    record Paused(NodeName node, long pausedMillis) implements MembershipEvent {
        @Override
        public String logLine() {
            return "This node did not run for " + pausedMillis + " ms (stopped or starved of CPU): " + node
                    + "'s silence meanwhile is not counted towards its deadtime.";
        }
    }
}
