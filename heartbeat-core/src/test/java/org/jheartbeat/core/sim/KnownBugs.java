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
     * One node declares its peer dead while the peer never notices anything (a freeze of about deadtime,
     * or a one-way cut or loss): the lab's open report ("a node frozen a little longer than deadtime, then
     * resumed ... the peer never noticed"), being fixed on another branch. Without STONITH the node takes
     * the peer's groups; when frames flow again it logs "returning after partition" and claims them
     * ({@code rsc_hold=all info=partition}), but the peer, which saw no partition, ignores the claim and
     * reports nothing, so neither releases the copy that runs twice. A resumed node also runs the frames
     * queued while it was frozen as if nothing had happened (the end of a standby exchange its peer gave
     * up meanwhile: it takes a group the peer took back). And a standby exchange that the death cancelled
     * on one side only never ends on the other: the group it released runs nowhere.
     */
    static final String FROZEN_RESUME = "one-sided-death";

    /**
     * A standby request cancelled for want of an answer ({@code No reply to standby request}) reaches the
     * peer later (retransmitted once a cut heals): the peer answers and waits in STANDBY_TAKING for a
     * {@code done} that never comes, with no deadline, and resolves no double ownership meanwhile. Found by
     * this simulator; open.
     */
    static final String STANDBY_TAKING_STUCK = "standby-taking-stuck";

    /**
     * A standby's {@code done} that arrives late (a slow line; sent before this node's daemon restarted) is
     * taken for the end of the standby exchange in progress: this node starts the groups while the peer
     * still stops them. Standby messages carry no exchange number, and a delayed frame of the peer's
     * generation that fills a gap in tracking is accepted as new. Found by this simulator; open.
     */
    static final String STALE_STANDBY_DONE = "stale-standby-done";

    private KnownBugs() {
    }

    /** The known bug a stop of a group in maintenance is an instance of, or null: none is known. */
    static String atStopInMaintenance(String reason) {
        return null;
    }

    /** The known bug a group running nowhere although all is calm since {@code since} is an instance of, or null. */
    static String runsNowhere(Simulator sim, long since) {
        if (oneSidedDeath(sim, since)) {
            return FROZEN_RESUME;
        }
        for (SimNode n : sim.nodes) {
            if (n.longFreezeEnd >= 0 && longFreezeAround(n, since)) {
                return FROZEN_RESUME;
            }
        }
        return null;
    }

    /** Whether {@code node} resumed from a long freeze within (deadtime + 2 keepalives) before {@code t}, or is in one. */
    private static boolean longFreezeAround(SimNode node, long t) {
        long slack = node.sim.setup.timing().deadtime().toNanos() + 2 * node.sim.setup.timing().keepalive().toNanos();
        return node.longFreezeEnd >= 0 && t >= node.longFreezeStart && t <= node.longFreezeEnd + slack;
    }

    /**
     * Whether both nodes run now and only one of them declared the other dead within two deadtimes before
     * {@code t}: the other never noticed.
     */
    private static boolean oneSidedDeath(Simulator sim, long t) {
        if (!sim.nodes[0].live() || !sim.nodes[1].live()) {
            return false; // a node down or frozen now: its peer saw it die, as it should
        }
        int n = 0;
        for (SimNode node : sim.nodes) {
            n += node.peerDeclaredDeadAt >= t - 2 * sim.setup.timing().deadtime().toNanos() ? 1 : 0;
        }
        return n == 1;
    }

    /**
     * The known bug a resource that runs on both nodes since {@code since} is an instance of, or null: a
     * long freeze around its start, or the state the lab's report describes, whatever caused it (a freeze,
     * or a one-way cut: the same one-sided death): the group's preferred node runs it and knows that its
     * peer claims it ({@code rsc_hold} with our groups), but the peer does not know that the preferred
     * node holds it, so neither releases.
     */
    static String splitBrain(Simulator sim, long since) {
        if (oneSidedDeath(sim, since)) {
            return FROZEN_RESUME;
        }
        for (SimNode n : sim.nodes) {
            if (longFreezeAround(n, since)) {
                return FROZEN_RESUME;
            }
            if (n.engine != null && n.engine.machine().state() == org.jheartbeat.core.takeover.TakeoverState.STANDBY_TAKING
                    && n.peer().engine != null && n.peer().engine.machine().handover()
                    != org.jheartbeat.core.takeover.TakeoverMachine.Handover.IN_PROGRESS) {
                return STANDBY_TAKING_STUCK;
            }
        }
        for (SimNode p : sim.nodes) {
            SimNode x = p.peer();
            if (p.engine != null && x.engine != null && p.engine.machine().peerHoldings().includesForeign()
                    && p.engine.machine().holdings().includesLocal()
                    && !x.engine.machine().peerHoldings().includesLocal()
                    && x.engine.machine().holdings().includesForeign()) {
                return FROZEN_RESUME;
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
        if (reason == GroupOpReason.STANDBY_ACQUIRE && there != GroupState.STOPPED) {
            return STALE_STANDBY_DONE;
        }
        if (longFreezeAround(node, sim.now) || longFreezeAround(peer, sim.now)) {
            return FROZEN_RESUME;
        }
        return splitBrain(sim, sim.now);
    }
}
