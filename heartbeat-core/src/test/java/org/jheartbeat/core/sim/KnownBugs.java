package org.jheartbeat.core.sim;

import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.GroupState;

/**
 * Recognises violations that are instances of bugs known and still open (docs/simulation.md, "Bugs
 * found"), so that the CI run counts them instead of failing on them until their fixes are merged; with
 * {@code -Djhb.sim.strict=true} they fail like any other. Each recogniser looks at the state at the moment
 * of the violation and is as narrow as the diagnosis allows.
 */
final class KnownBugs {
    /**
     * A node takes its own group at comm up (its negotiation) while its peer runs or starts it, because the
     * peer's answer to {@code starting} does not claim it: {@code resource} messages carry Heartbeat's
     * {@code rsc_hold} bits, which are not what runs. The bits change only once a whole takeover completes
     * (a node restarting while the peer still takes its groups over), never for a group taken because the
     * node could not run it (a failure offer: the node then restarts, forgets the failure and takes the group
     * back while the peer runs it; or the peer's daemon dies and, its bits claiming nothing, it "gave up
     * resources" and is not fenced (likewise after {@code hb maintenance off} started a group: the bits stay
     * as they were); or, once the failure is cleared, the peer's report of its own share
     * makes this node release the group as "owned by both" though nobody else runs it), and the negotiation takes its own groups on any answer that does not
     * claim them, stable or not (Heartbeat itself waits for {@code isstable=1}, or 10 s). Found by this
     * simulator; open.
     */
    static final String RSC_HOLD_NOT_WHAT_RUNS = "rsc-hold-not-what-runs";

    /**
     * {@code hb maintenance off} while the peer's daemon is down starts a group that runs nowhere as far as
     * this node can probe, though the peer still runs it: in maintenance an orderly stop of the peer's
     * daemon leaves its groups running, yet its {@code shutdone} counts as "gave up resources" (no fence),
     * and the peer's last {@code jhb-maint} report of what it runs is not used when it cannot be probed.
     * Found by this simulator; open.
     */
    static final String MAINTENANCE_OFF_PEER_DOWN = "maintenance-off-peer-down";

    /**
     * A start that fails leaves resources of the group running (a rollback's stop failed, or a resource was
     * running before the start and is not rolled back): the machine takes the group as FAILED (not running)
     * and offers it to the peer, which starts it too. The open report "a failed rollback hands the group to
     * the peer"; being fixed on another branch.
     */
    static final String FAILED_START_LEAVES_RUNNING = "failed-rollback-handover";

    /**
     * The negotiation of a starting node times out (no {@code resource} answer within 10 s) while the peer
     * is alive and holds the node's groups, and the node takes them: its {@code starting} was lost (a cut
     * just after comm up, or comm up by declaring a silent peer dead after initdead) and, as the peer saw a
     * new generation whose first frames it never got, nothing was retransmitted and the peer never answered.
     * Found by this simulator; open.
     */
    static final String NEGOTIATION_TIMEOUT = "negotiation-timeout-takes-held-groups";

    /**
     * A fence confirmed late, after the fenced node already booted again and took its own groups (a reset;
     * the device acts at once but answers seconds later): on the confirmation the fencing node takes those
     * groups over although the peer, a new generation heard since, runs them. Found by this simulator; open.
     */
    static final String FENCE_CONFIRMED_AFTER_REBOOT = "fence-confirmed-after-reboot";

    /**
     * A standby request cancelled for want of an answer ({@code No reply to standby request}) reaches the
     * peer later (retransmitted once a cut heals): the peer answers and waits in STANDBY_TAKING for a
     * {@code done} that never comes, with no deadline, and resolves no double ownership meanwhile. Found by
     * this simulator; open.
     */
    static final String STANDBY_TAKING_STUCK = "standby-taking-stuck";

    /**
     * A reload that adds a group back (removed by an earlier reload on this node only) starts it here when
     * this node's {@code rsc_hold} covers its kind, although the peer runs it ({@code TakeoverMachine.regroup}
     * looks at our bits only). Found by this simulator; open.
     */
    static final String RELOAD_READDS_HELD_GROUP = "reload-readds-held-group";

    /**
     * A reload that removes a group from haresources stops it, also when the group is in maintenance
     * ({@code ClusterLoop.reconfigure} does not ask): maintenance means nothing starts or stops it. Found
     * by this simulator; open.
     */
    static final String RELOAD_STOPS_MAINTENANCE = "reload-stops-group-in-maintenance";

    /**
     * After a partition, the node running its peer's group knows the peer runs it too (the peer's {@code
     * resource} report claims it) but keeps it: double ownership is resolved only when such a report
     * arrives in STABLE, and one that arrives during a standby exchange (e.g. an auto_failback started by
     * a cleanup, which the peer ignores as "local resources in flux") is never looked at again. Found by
     * this simulator; open.
     */
    static final String DOUBLE_OWNERSHIP_UNRESOLVED = "double-ownership-unresolved";

    /**
     * A standby's {@code done} that arrives late (a slow line; sent before this node's daemon restarted) is
     * taken for the end of the standby exchange in progress: this node starts the groups while the peer
     * still stops them. Standby messages carry no exchange number, and a delayed frame of the peer's
     * generation that fills a gap in tracking is accepted as new. Found by this simulator; open.
     */
    static final String STALE_STANDBY_DONE = "stale-standby-done";

    private KnownBugs() {
    }

    /** The known bug a stop of a group in maintenance is an instance of, or null. */
    static String atStopInMaintenance(String reason) {
        return "REMOVED".equals(reason) ? RELOAD_STOPS_MAINTENANCE : null;
    }

    /** The known bug a group running nowhere although all is calm since {@code since} is an instance of, or null. */
    static String runsNowhere(Simulator sim, long since) {
        for (SimNode n : sim.nodes) {
            if (n.releasesOnBitsAlone) {
                return RSC_HOLD_NOT_WHAT_RUNS;
            }
        }
        return null;
    }

    /** The known bug a resource that runs on both nodes since {@code since} is an instance of, or null. */
    static String splitBrain(Simulator sim, long since) {
        for (SimNode n : sim.nodes) {
            if (n.engine != null && n.engine.machine().state() == org.jheartbeat.core.takeover.TakeoverState.STANDBY_TAKING
                    && n.peer().engine != null && n.peer().engine.machine().handover()
                    != org.jheartbeat.core.takeover.TakeoverMachine.Handover.IN_PROGRESS) {
                return STANDBY_TAKING_STUCK;
            }
        }
        for (SimNode x : sim.nodes) {
            if (x.engine != null && x.engine.machine().holdings().includesForeign()
                    && x.engine.machine().peerHoldings().includesLocal()
                    && x.engine.machine().peerPresence() == org.jheartbeat.core.takeover.PeerPresence.STABLE) {
                return DOUBLE_OWNERSHIP_UNRESOLVED;
            }
        }
        return null;
    }

    /** The known bug a start of local group {@code i} on {@code node} that breaks (a) is an instance of, or null. */
    static String atStart(Simulator sim, SimNode node, int i, GroupOpReason reason) {
        SimNode peer = node.peer();
        int gid = node.agents.gidOf[i];
        int j = peer.agents.localOf(gid);
        GroupState there = peer.engine != null && j >= 0 ? peer.engine.machine().groupState(j) : GroupState.STOPPED;
        // the narrowest signatures first
        if (reason == GroupOpReason.LOCAL_START && node.negotiationTimedOutAt == sim.now) {
            return NEGOTIATION_TIMEOUT;
        }
        if (reason == GroupOpReason.TAKEOVER && node.fenceRequestedAt >= 0
                && peer.daemonStartedAt > node.fenceRequestedAt) {
            return FENCE_CONFIRMED_AFTER_REBOOT;
        }
        if (node.reloadedAt == sim.now) {
            return RELOAD_READDS_HELD_GROUP;
        }
        if (peer.engine == null && node.maintenanceOffAt == sim.now) {
            return MAINTENANCE_OFF_PEER_DOWN;
        }
        if (reason == GroupOpReason.STANDBY_ACQUIRE && there != GroupState.STOPPED) {
            return STALE_STANDBY_DONE;
        }
        if (there == GroupState.FAILED) {
            return FAILED_START_LEAVES_RUNNING;
        }
        if (reason == GroupOpReason.LOCAL_START && !node.engine.machine().peerHoldings().includesForeign()
                && (there == GroupState.STARTING || there == GroupState.RUNNING || there == GroupState.STOPPING)) {
            return RSC_HOLD_NOT_WHAT_RUNS;
        }
        if (reason == GroupOpReason.TAKEOVER && node.gaveUpAt == sim.now) {
            return RSC_HOLD_NOT_WHAT_RUNS; // "gave up resources" from bits that do not show what it runs
        }
        return splitBrain(sim, sim.now);
    }
}
