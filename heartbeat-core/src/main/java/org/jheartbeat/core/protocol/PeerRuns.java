package org.jheartbeat.core.protocol;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverState;

/**
 * Which run of the peer a message speaks for, and what a run leaves behind: a run first heard while being
 * fenced for its silence at start-up, the groups a run that shut down leaves running, and the groups of the
 * peer's that run here although its latest report says they run there too. Pure and stateless: the
 * machine's and the reports' views come in as arguments.
 */
final class PeerRuns {
    private PeerRuns() {
    }

    /**
     * The peer's {@code status}: a peer never heard before, and being fenced for its silence at initdead, is a
     * run that was not declared dead after it was seen (no return after a partition), so it is taken as a
     * restart: a new daemon released what ran there, or reports it (the machine calls off a fence not yet at
     * the device, and takes nothing over on the outcome of one that is, but negotiates).
     *
     * @param firstContact the peer was never heard before this frame
     * @param restarted    this frame already showed a new generation (a restart is fed anyway)
     * @param phase        the takeover machine's phase
     * @return the INFO line to log when the frame comes from such a run (feed a restart then), else empty
     */
    static Optional<Effect.LogLine> unseenRun(NodeName peer, boolean firstContact, boolean restarted,
                                              TakeoverState phase) {
        if (!firstContact || restarted || phase != TakeoverState.FENCING) {
            return Optional.empty();
        }
        return Optional.of(new Effect.LogLine(Level.INFO, peer + " is heard for the first time while being fenced"
                + " for its silence at start-up: a run of it this node never saw"));
    }

    /**
     * The peer's {@code shutdone} releases what it stopped, not what it leaves running: the groups its last
     * {@code jhb-maint} shows running there and those its last {@code jhb-groups} shows held. Those are not
     * taken over until its next run's own report says where they run.
     *
     * @param maintenanceRuns groups its last {@code jhb-maint} says run there
     * @param reportedHolding groups its current run's last report says it holds
     * @return their union, by index
     */
    static Set<Integer> leftAtShutdown(Set<Integer> maintenanceRuns, Set<Integer> reportedHolding) {
        Set<Integer> left = new TreeSet<>(maintenanceRuns);
        left.addAll(reportedHolding);
        return left;
    }

    /**
     * Double ownership from what both nodes run (jheartbeat peers): the groups of the peer's this node lets go
     * of because the peer's latest {@code jhb-groups} says it runs (or starts) them too. Only while no frame of
     * the peer is missing: a report is sent before the protocol messages of the same change, so with none
     * missing it is not older than the last {@code done} or {@code resource} read. Only when this node holds
     * the {@code foreign} share, and in STABLE or STANDBY_GIVING (a report read during a standby exchange is
     * acted on once it ends: the check is made on each report and each tick).
     *
     * @param holdings      the machine's holdings
     * @param noneMissing   no frame of the peer is missing
     * @param phase         the machine's phase
     * @param peerReportsRunning the groups the peer's current report says run or start there
     * @return the groups to hand to the machine ({@code PeerGroupsRunning}); empty when none
     */
    static Set<Integer> runningOnBoth(ResourceSet holdings, boolean noneMissing, TakeoverState phase,
                                      Supplier<Set<Integer>> peerReportsRunning) {
        if (!holdings.includesForeign() || !noneMissing
                || phase != TakeoverState.STABLE && phase != TakeoverState.STANDBY_GIVING) {
            return Set.of();
        }
        return peerReportsRunning.get();
    }
}
