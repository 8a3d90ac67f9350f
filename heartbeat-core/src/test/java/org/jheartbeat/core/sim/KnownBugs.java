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
        return splitBrain(sim, sim.now);
    }
}
