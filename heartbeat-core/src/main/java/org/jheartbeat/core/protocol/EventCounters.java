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
import org.jheartbeat.core.takeover.StandbyPhase;
import org.jheartbeat.core.takeover.TakeoverEvent;
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
    /** The groups last recorded as disputed, by key. */
    private java.util.Set<String> disputedKeys = java.util.Set.of();
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

    /**
     * The groups disputed now ({@code ConfigAgreement}): each one newly disputed is recorded as
     * {@code config-dispute} with {@code reason}, its group key as subject.
     */
    void disputed(java.util.Set<Integer> now, java.util.function.IntFunction<String> key,
                  java.util.function.IntFunction<String> reason, long wall) {
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (int g : now) {
            keys.add(key.apply(g));
            if (!disputedKeys.contains(key.apply(g))) {
                record(wall, EventKind.CONFIG_DISPUTE, key.apply(g), reason.apply(g), -1);
            }
        }
        disputedKeys = keys;
    }

    /**
     * A hand-over the peer asked for, recorded with {@code by} = {@code peer NODE}: its {@code hb takeover}
     * (we go standby for the set, relative to us) or the start of its {@code hb standby} or auto_failback exchange
     * ({@code ask_resources} phase {@code me}: we take over the set, relative to the peer). Other events: nothing.
     */
    void peerAsked(TakeoverEvent event, String peer, long wall) {
        if (event instanceof TakeoverEvent.StandbyRequested r) {
            sink.record(new ClusterEvent(0, wall, node, EventKind.STANDBY, r.set().wireName(),
                    peer + " asked to take these groups over", "peer " + peer, -1));
        } else if (event instanceof TakeoverEvent.PeerAskResources a && a.phase() == StandbyPhase.ME) {
            sink.record(new ClusterEvent(0, wall, node, EventKind.TAKEOVER, peer + "'s " + a.set().wireName(),
                    peer + " hands these groups over (ask_resources)", "peer " + peer, -1));
        }
    }

    /**
     * The "Configuration differs" WARN just given ({@link PeerConfigCheck#takeWarned()}): one {@code config-dispute}
     * with the differing files as subject. Nothing when {@code files} is empty.
     */
    void filesDiffer(java.util.List<String> files, String peer, long wall) {
        if (!files.isEmpty()) {
            record(wall, EventKind.CONFIG_DISPUTE, String.join(", ", files), "differs from " + peer + "; make these"
                    + " files the same on both nodes and reload both (hb config diff compares them)", -1);
        }
    }

    /**
     * The peer's maintenance setting applied here ({@code jhb-maint}): each scope it turned on or off is one
     * {@code maintenance-on}/{@code maintenance-off}, subject as the operator's own ({@code cluster},
     * {@code node NAME}, {@code group KEY}), with {@code by} = {@code peer NODE}.
     */
    void peerMaintenance(org.jheartbeat.core.takeover.Maintenance before, org.jheartbeat.core.takeover.Maintenance after,
                         String peer, long wall) {
        if (before.cluster() != after.cluster()) {
            peerMaintenance(after.cluster(), "cluster", peer, wall);
        }
        scopes(before.nodes(), after.nodes(), "node ", peer, wall);
        scopes(before.groups(), after.groups(), "group ", peer, wall);
    }

    private void scopes(java.util.Set<String> before, java.util.Set<String> after, String prefix, String peer,
                        long wall) {
        after.stream().filter(n -> !before.contains(n)).forEach(n -> peerMaintenance(true, prefix + n, peer, wall));
        before.stream().filter(n -> !after.contains(n)).forEach(n -> peerMaintenance(false, prefix + n, peer, wall));
    }

    private void peerMaintenance(boolean on, String subject, String peer, long wall) {
        sink.record(new ClusterEvent(0, wall, node, on ? EventKind.MAINTENANCE_ON : EventKind.MAINTENANCE_OFF, subject,
                "set on " + peer + ", applied here", "peer " + peer, -1));
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
