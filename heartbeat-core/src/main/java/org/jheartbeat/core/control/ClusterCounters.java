package org.jheartbeat.core.control;

import java.util.Map;
import java.util.TreeMap;

/**
 * Event counts of one daemon since it started, read on the loop thread next to a
 * {@link StatusSnapshot} (for the Prometheus endpoint of {@code hb daemon}; plain numbers here, the
 * exposition lives in the cli module). Every count only grows while the daemon runs.
 *
 * @param lateHeartbeats     "Late heartbeat" warnings: the peer's heartbeat came more than warntime after
 *                           the previous one (Heartbeat 3.0.6 {@code check_for_timeouts} wording)
 * @param nodeDeaths         times the peer was declared dead (silent for deadtime on every link)
 * @param linkDeaths         per link (interface or serial device): times it was declared dead
 * @param takeovers          times this node took over the groups of a peer that died or left
 * @param handovers          standby and takeover requests of this node that ended, by kind
 *                           ({@code standby}, {@code takeover}) then outcome ({@code done}, {@code failed},
 *                           {@code cancelled}, {@code refused}); every combination present
 * @param groupStartFailures per resource group key: starts here that failed
 * @param groupStopFailures  per resource group key: stops here that failed
 * @param fencesSucceeded    STONITH resets of the peer the device confirmed
 * @param fencesFailed       STONITH attempts that failed (each retry counts)
 */
public record ClusterCounters(long lateHeartbeats, long nodeDeaths, Map<String, Long> linkDeaths, long takeovers,
                              Map<String, Map<String, Long>> handovers, Map<String, Long> groupStartFailures,
                              Map<String, Long> groupStopFailures, long fencesSucceeded, long fencesFailed) {
    public ClusterCounters {
        linkDeaths = Map.copyOf(linkDeaths);
        TreeMap<String, Map<String, Long>> h = new TreeMap<>();
        handovers.forEach((k, v) -> h.put(k, Map.copyOf(v)));
        handovers = Map.copyOf(h);
        groupStartFailures = Map.copyOf(groupStartFailures);
        groupStopFailures = Map.copyOf(groupStopFailures);
    }
}
