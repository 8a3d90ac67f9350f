package org.jheartbeat.core.protocol;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.membership.MembershipEvent;
import org.jheartbeat.core.takeover.TakeoverMachine;

/**
 * The engine's event counts (late heartbeats, deaths, link deaths, group failures, fencing results)
 * as plain numbers, touched by the loop thread only; {@link #snapshot} adds the takeover machine's
 * own counts and copies everything into a {@link ClusterCounters}.
 */
final class EventCounters {
    private long lateHeartbeats;
    private long nodeDeaths;
    private final Map<String, Long> linkDeaths = new HashMap<>();
    private final Map<String, Long> startFailures = new HashMap<>();
    private final Map<String, Long> stopFailures = new HashMap<>();
    private long fencesSucceeded;
    private long fencesFailed;

    /** Counts a late heartbeat, a node death or a link death; other events are not counted. */
    void membership(MembershipEvent e) {
        if (e instanceof MembershipEvent.LateHeartbeat) {
            lateHeartbeats++;
        } else if (e instanceof MembershipEvent.NodeDead) {
            nodeDeaths++;
        } else if (e instanceof MembershipEvent.LinkDead d) {
            linkDeaths.merge(d.link(), 1L, Long::sum);
        }
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
