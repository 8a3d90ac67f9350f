package org.jheartbeat.core.protocol;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.EventSink;
import org.jheartbeat.core.membership.MembershipEvent;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.TakeoverMachine;

/**
 * The engine's event counts (late heartbeats, deaths, link deaths, group failures, fencing results)
 * as plain numbers, touched by the loop thread only; {@link #snapshot} adds the takeover machine's
 * own counts and copies everything into a {@link ClusterCounters}. The membership verdicts counted here
 * also go to the event journal's sink ({@link #recordTo}): nodes dead and alive, links down and up, late beats.
 */
final class EventCounters {
    private EventSink sink = EventSink.NONE;
    private String node = "";
    private long lateHeartbeats;
    private long nodeDeaths;
    private final Map<String, Long> linkDeaths = new HashMap<>();
    private final Map<String, Long> startFailures = new HashMap<>();
    private final Map<String, Long> stopFailures = new HashMap<>();
    private long fencesSucceeded;
    private long fencesFailed;

    /** From now on, membership verdicts are recorded in {@code sink} as events of node {@code self}. */
    void recordTo(EventSink sink, String self) {
        this.sink = sink;
        this.node = self;
    }

    /**
     * Counts a late heartbeat, a node death or a link death (other events are not counted), and records each
     * verdict but a pause at {@code wall} (ms since the epoch).
     */
    void membership(MembershipEvent e, long wall) {
        if (e instanceof MembershipEvent.LateHeartbeat l) {
            lateHeartbeats++;
            record(wall, EventKind.LATE_BEAT, l.node().value(), l.beyondDeadtime() ? "beyond deadtime" : "after warntime",
                    l.intervalMillis());
        } else if (e instanceof MembershipEvent.NodeDead d) {
            nodeDeaths++;
            record(wall, EventKind.NODE_DEAD, d.node().value(), "no beat for " + d.silentMillis() + " ms",
                    d.silentMillis());
        } else if (e instanceof MembershipEvent.LinkDead d) {
            linkDeaths.merge(d.link(), 1L, Long::sum);
            record(wall, EventKind.LINK_DOWN, d.node().value() + "/" + d.link(), "no beats on this link", -1);
        } else if (e instanceof MembershipEvent.LinkUp u) {
            record(wall, EventKind.LINK_UP, u.node().value() + "/" + u.link(), "", -1);
        } else if (e instanceof MembershipEvent.NodeStatusChanged c && c.to() != NodeStatus.DEAD
                && c.to() != NodeStatus.INIT && (c.from() == NodeStatus.DEAD || c.from() == NodeStatus.INIT)) {
            record(wall, EventKind.NODE_ALIVE, c.node().value(), "status " + c.to(), -1);
        }
    }

    private void record(long wall, EventKind kind, String subject, String cause, long durationMillis) {
        sink.record(new ClusterEvent(0, wall, node, kind, subject, cause, "", durationMillis));
    }

    /** Counts a failed start or stop of the group with key {@code key}; a success is not counted. */
    void groupDone(String key, boolean wasStart, boolean ok) {
        if (!ok) {
            (wasStart ? startFailures : stopFailures).merge(key, 1L, Long::sum);
        }
    }

    /** Counts the end of one fencing attempt. */
    void fenceDone(boolean fenced) {
        if (fenced) {
            fencesSucceeded++;
        } else {
            fencesFailed++;
        }
    }

    /** Everything counted so far, with the machine's takeovers and finished hand-overs. */
    ClusterCounters snapshot(TakeoverMachine machine) {
        Map<String, Map<String, Long>> handovers = new TreeMap<>();
        for (boolean takeover : new boolean[] {false, true}) {
            Map<String, Long> byOutcome = new TreeMap<>();
            for (TakeoverMachine.Handover h : TakeoverMachine.Handover.values()) {
                if (h != TakeoverMachine.Handover.NONE && h != TakeoverMachine.Handover.IN_PROGRESS) {
                    byOutcome.put(h.name().toLowerCase(Locale.ROOT), machine.handovers().finished(takeover, h));
                }
            }
            handovers.put(takeover ? "takeover" : "standby", byOutcome);
        }
        return new ClusterCounters(lateHeartbeats, nodeDeaths, linkDeaths, machine.takeovers(), handovers,
                startFailures, stopFailures, fencesSucceeded, fencesFailed);
    }
}
