package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.takeover.TakeoverMachineFenceDelayTest.fences;
import static org.jheartbeat.core.takeover.TakeoverMachineFenceDelayTest.log;
import static org.jheartbeat.core.takeover.TakeoverMachineFenceDelayTest.starts;

import java.util.List;
import java.util.Map;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.junit.jupiter.api.Test;

/**
 * What the machine reads of the peer's holdings: between two jheartbeat nodes the peer's own per-group
 * report ({@link TakeoverEvent.PeerGroupStates}, {@code jhb-groups}), not Heartbeat's {@code rsc_hold} bits,
 * which change only once a whole transition ends and never cover a group taken as an offer; with a
 * Heartbeat 3.0.6 peer (no report) the bits. And the negotiation waits for a stable answer, as Heartbeat
 * does. Node1 with {@code g1} (node1's) and {@code g2} (node2's); fake clock.
 */
class TakeoverMachinePeerReportTest {
    static final NodeName N1 = TakeoverTableTest.N1;
    static final NodeName N2 = TakeoverTableTest.N2;
    static final long T0 = TakeoverTableTest.T0;
    static final long S = 1_000_000_000L;

    static TakeoverMachine negotiating(boolean fencing) {
        TakeoverMachine m = new TakeoverMachine(N1, N2, TakeoverTableTest.GROUPS, FailbackPolicy.ON,
                TakeoverSettings.DEFAULTS.withFencing(fencing));
        m.on(new TakeoverEvent.CommUp(), T0);
        return m;
    }

    static TakeoverEvent report(GroupState g1, GroupState g2) {
        return new TakeoverEvent.PeerGroupStates(Map.of("g1", g1, "g2", g2));
    }

    /** node1 restarted while node2 still takes its group over: node2's answer is in flux and claims nothing yet. */
    @Test
    void aRestartingNodeWaitsWhileThePeerStillTakesItsGroupOver() {
        TakeoverMachine m = negotiating(false);
        m.on(report(GroupState.STARTING, GroupState.RUNNING), T0);
        List<Effect> out = m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, false, ""), T0);
        assertThat(starts(out)).isEmpty();
        assertThat(m.state()).isEqualTo(TakeoverState.NEGOTIATING);

        m.on(report(GroupState.RUNNING, GroupState.RUNNING), 2 * S);
        out = m.on(new TakeoverEvent.PeerResources(ResourceSet.ALL, true, true, "mach_down"), 2 * S);
        assertThat(starts(out)).isEmpty();
        assertThat(log(out)).contains("Local Resource acquisition completed. (none)");
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
    }

    /** Before: an answer in flux that did not claim g1 made node1 start it at once. */
    @Test
    void anAnswerInFluxIsNotTakenAsTheLastWordEvenWithoutAReport() {
        TakeoverMachine m = negotiating(false);
        assertThat(starts(m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, false, ""), T0))).isEmpty();
        assertThat(starts(m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), S))).containsExactly(0);
    }

    /** Both nodes starting at once: the peer's answer is in flux, but it sent starting too and takes only its own. */
    @Test
    void bothNodesStartingTakeTheirOwnGroupsAtOnce() {
        TakeoverMachine m = negotiating(false);
        assertThat(starts(m.on(new TakeoverEvent.PeerStarting(), T0))).containsExactly(0);
        assertThat(starts(m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, false, ""), T0))).isEmpty();
    }

    /** The peer took g1 as an offer: its bits (local) do not cover it, its report does. */
    @Test
    void aGroupThePeerTookAsAnOfferIsNotTakenOnJoining() {
        TakeoverMachine m = negotiating(false);
        m.on(report(GroupState.RUNNING, GroupState.STOPPED), T0);
        List<Effect> out = m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), T0);
        assertThat(starts(out)).isEmpty();
        assertThat(log(out)).contains("Local Resource acquisition completed. (none)");
    }

    /** The report covers each group: g1 is taken while g2 (which does not run on the peer) is not ours anyway. */
    @Test
    void withAReportOurGroupsThePeerDoesNotRunAreTakenWhateverItsBits() {
        TakeoverMachine m = negotiating(false);
        m.on(report(GroupState.FAILED, GroupState.RUNNING), T0);
        assertThat(starts(m.on(new TakeoverEvent.PeerResources(ResourceSet.ALL, true, true, ""), T0))).containsExactly(0);
    }

    /**
     * STONITH, one group (node1's): node2 took it as an offer, so its bits claim only its own share, of which
     * no group exists; its report says it runs g1: dead, it did not give up resources and is fenced.
     */
    @Test
    void aPeerThatRunsAGroupItsBitsDoNotCoverIsFencedWhenItDies() {
        TakeoverMachine m = new TakeoverMachine(N1, N2, TakeoverTableTest.GROUPS.subList(0, 1), FailbackPolicy.ON,
                TakeoverSettings.DEFAULTS.withFencing(true));
        m.on(new TakeoverEvent.CommUp(), T0);
        assertThat(starts(m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0))).containsExactly(0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.GroupFailedRunning(0, "test"), S);
        m.on(new TakeoverEvent.GroupStopped(0, true), S);
        assertThat(m.groupState(0)).isEqualTo(GroupState.FAILED);
        m.on(new TakeoverEvent.PeerGroupStates(Map.of("g1", GroupState.RUNNING)), 2 * S);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), 2 * S);
        List<Effect> out = m.on(new TakeoverEvent.PeerDead(), 10 * S);
        assertThat(log(out)).doesNotContain("gave up resources");
        assertThat(fences(out)).isTrue();
    }

    /** After a failure cleared: node2's bits claim its own share, but its report says g2 runs nowhere there. */
    @Test
    void aGroupThePeerDoesNotRunIsNotReleasedAsOwnedByBoth() {
        TakeoverMachine m = negotiating(false);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.PeerGroupFailure(1, GroupFailure.START), T0);
        m.on(new TakeoverEvent.GroupStarted(1, true), T0);
        m.on(report(GroupState.STOPPED, GroupState.FAILED), T0);
        m.on(new TakeoverEvent.PeerGroupFailure(1, GroupFailure.CLEAR), S);
        m.on(report(GroupState.STOPPED, GroupState.STOPPED), S);
        List<Effect> out = m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), S);
        assertThat(log(out)).doesNotContain("Both machines own foreign resources");
        assertThat(m.groupState(1)).isEqualTo(GroupState.RUNNING);

        out = m.on(report(GroupState.STOPPED, GroupState.STARTING), 2 * S);
        assertThat(log(out)).contains("Both machines own foreign resources! Releasing node2's groups");
        assertThat(out).contains(new Effect.StopGroup(1, GroupOpReason.PARTITION_RELEASE));
    }

    /** node1 runs g1; node2 (g2 running, reported) goes standby and hands g2 over; its new reports are missing. */
    private static TakeoverMachine takesG2WithTheReportsMissing(List<Effect> outOfDone) {
        TakeoverMachine m = negotiating(false);
        m.on(report(GroupState.STOPPED, GroupState.RUNNING), T0);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), T0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.ME), S);
        m.peerReportMayBeOld(true); // its "stopping" and "stopped" reports lost, to be retransmitted
        outOfDone.addAll(m.on(new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.DONE), 2 * S));
        return m;
    }

    /**
     * A frame of node2 missing: its last report ("g2 running") is older than the done and resource just read,
     * so g2, handed over, is not released as owned by both (before: released at once, it ran nowhere).
     */
    @Test
    void aReportOlderThanTheDoneIsNotTakenForDoubleOwnership() {
        List<Effect> out = new java.util.ArrayList<>();
        TakeoverMachine m = takesG2WithTheReportsMissing(out);
        assertThat(starts(out)).isEmpty(); // the report says it still runs there: g2 waits for the next
        out = m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), 2 * S);
        assertThat(log(out)).doesNotContain("Both machines own foreign resources");
        // the gap filled: the report "stopped" arrives (as the engine feeds it)
        m.peerReportMayBeOld(false);
        out = m.on(report(GroupState.STOPPED, GroupState.STOPPED), 3 * S);
        m.maintenancePolicy().peerReported(1, false, out);
        out.addAll(m.on(new TakeoverEvent.Tick(), 3 * S));
        assertThat(log(out)).doesNotContain("Both machines own foreign resources");
        assertThat(starts(out)).containsExactly(1);
    }

    /** The check is put off, not dropped: once the gap is filled a report still saying g2 runs there releases it. */
    @Test
    void theDoubleOwnershipCheckIsMadeOnceTheGapIsFilled() {
        List<Effect> out = new java.util.ArrayList<>();
        TakeoverMachine m = takesG2WithTheReportsMissing(out);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), 2 * S);
        m.peerReportMayBeOld(false);
        m.on(report(GroupState.STOPPED, GroupState.STOPPED), 3 * S);
        m.maintenancePolicy().peerReported(1, false, out);
        m.on(new TakeoverEvent.Tick(), 3 * S);
        m.on(new TakeoverEvent.GroupStarted(1, true), 3 * S);
        // a frame missing again when its next report says g2 runs there (a copy of its own)
        m.peerReportMayBeOld(true);
        out = m.on(report(GroupState.STOPPED, GroupState.RUNNING), 4 * S);
        assertThat(log(out)).doesNotContain("Both machines own foreign resources");
        m.peerReportMayBeOld(false);
        out = m.on(new TakeoverEvent.Tick(), 5 * S);
        assertThat(log(out)).contains("Both machines own foreign resources! Releasing node2's groups");
        assertThat(out).contains(new Effect.StopGroup(1, GroupOpReason.PARTITION_RELEASE));
    }

    /**
     * node2 negotiating (its starting went to node1's previous run) when node1's new run sends starting: both
     * are starting, node2 takes its own groups at once; before, each waited for the other's stable answer
     * until the 10 s negotiation timeout.
     */
    @Test
    void aNegotiatingNodeTakesItsOwnGroupsWhenThePeerStartsToo() {
        TakeoverMachine m = negotiating(false);
        m.on(report(GroupState.STOPPED, GroupState.STOPPED), T0);
        List<Effect> out = m.on(new TakeoverEvent.PeerStarting(), S);
        assertThat(starts(out)).containsExactly(0);
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
    }

    /** A Heartbeat 3.0.6 peer sends no report: its bits decide, as before. */
    @Test
    void withoutAReportTheBitsDecide() {
        TakeoverMachine m = negotiating(false);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.PeerDead(), S);
        m.on(new TakeoverEvent.GroupStarted(1, true), S);
        m.on(new TakeoverEvent.PeerReturned(), 2 * S);
        List<Effect> out = m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, "partition"), 2 * S);
        assertThat(out).contains(new Effect.StopGroup(1, GroupOpReason.PARTITION_RELEASE));
    }

    /**
     * node1 runs node2's group after a partition and asks node2 to take it back (standby); node2, in flux,
     * ignores the request and reports that it runs the group: the report came outside STABLE, and is looked
     * at once the standby is given up (bits alone), or at once with node2's own report.
     */
    @Test
    void doubleOwnershipReportedDuringAStandbyIsResolved() {
        for (boolean withReport : new boolean[] {false, true}) {
            TakeoverMachine m = negotiating(false);
            m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0);
            m.on(new TakeoverEvent.GroupStarted(0, true), T0);
            m.on(new TakeoverEvent.PeerDead(), S);
            m.on(new TakeoverEvent.GroupStarted(1, true), S);
            m.on(new TakeoverEvent.PeerReturned(), 2 * S);
            m.on(new TakeoverEvent.StandbyRequested(ResourceSet.FOREIGN), 2 * S);
            assertThat(m.state()).isEqualTo(TakeoverState.STANDBY_GIVING);
            List<Effect> out = m.on(withReport ? report(GroupState.STOPPED, GroupState.RUNNING)
                    : new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), 3 * S);
            if (withReport) {
                assertThat(out).as("with its report").contains(new Effect.StopGroup(1, GroupOpReason.STANDBY_RELEASE));
                continue;
            }
            assertThat(out).isEmpty();
            out = m.on(new TakeoverEvent.Tick(), 2 * S + TakeoverMachine.STANDBY_REPLY_TIMEOUT_NANOS);
            assertThat(log(out)).contains("No reply to standby request.  Standby request cancelled.",
                    "Both machines own foreign resources! Releasing node2's groups");
            assertThat(out).contains(new Effect.StopGroup(1, GroupOpReason.PARTITION_RELEASE));
        }
    }

    /**
     * The negotiation times out while the peer is alive (our starting was lost, or it never answered
     * stable): it may run our groups, so we ask again rather than take them; with its report we take what
     * it does not run.
     */
    @Test
    void aNegotiationThatTimesOutWithALivePeerAsksAgainInsteadOfTakingOurGroups() {
        TakeoverMachine m = negotiating(true);
        List<Effect> out = m.on(new TakeoverEvent.Tick(), T0 + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS);
        assertThat(starts(out)).isEmpty();
        assertThat(out).contains(new Effect.Announce(new Announcement.Starting()));
        assertThat(log(out)).contains("No stable resource answer from node2 in time; asking again.");
        assertThat(m.state()).isEqualTo(TakeoverState.NEGOTIATING);
        assertThat(m.nextDeadlineNanos()).isEqualTo(T0 + 2 * TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS);

        m.on(report(GroupState.RUNNING, GroupState.RUNNING), T0 + 11 * S);
        out = m.on(new TakeoverEvent.Tick(), T0 + 2 * TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS);
        assertThat(starts(out)).as("node2 runs g1").isEmpty();

        TakeoverMachine other = negotiating(true);
        other.on(report(GroupState.STOPPED, GroupState.RUNNING), T0);
        out = other.on(new TakeoverEvent.Tick(), T0 + TakeoverMachine.NEGOTIATION_TIMEOUT_NANOS);
        assertThat(starts(out)).containsExactly(0);
    }

    /** A peer declared dead during the negotiation is fenced and taken over, as before. */
    @Test
    void aNegotiationThatTimesOutAfterThePeerWasFencedTakesEverything() {
        TakeoverMachine m = negotiating(true);
        assertThat(fences(m.on(new TakeoverEvent.PeerDead(), T0 + S))).isTrue();
        assertThat(starts(m.on(new TakeoverEvent.FenceOutcome(true, "OK"), T0 + 2 * S))).containsExactly(0, 1);
    }

    /**
     * The device powered node2 off at once but confirms late; node2 booted meanwhile (a new generation heard)
     * and runs its group: the confirmation takes nothing over; node1 takes its own groups back.
     */
    @Test
    void aFenceConfirmedAfterThePeerRestartedTakesNothingOver() {
        TakeoverMachine m = TakeoverMachineFenceDelayTest.stable(N1, TakeoverTableTest.GROUPS, 0);
        assertThat(fences(m.on(new TakeoverEvent.PeerDead(), 10 * S))).isTrue();
        m.on(new TakeoverEvent.PeerRestarted(), 12 * S);
        m.on(new TakeoverEvent.PeerStarting(), 12 * S);
        List<Effect> out = m.on(new TakeoverEvent.FenceOutcome(true, "OK"), 17 * S);
        assertThat(starts(out)).isEmpty();
        assertThat(log(out)).contains("was heard restarted since it was asked for: nothing is taken over from it.");
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
        assertThat(m.peerPresence()).isEqualTo(PeerPresence.JOINING);
        assertThat(out).contains(new Effect.Announce(new Announcement.Resources(ResourceSet.LOCAL, true, "")));
    }

    /** The restarted run died in turn before the confirmation: it may hold what it took since, so it is fenced too. */
    @Test
    void aFenceConfirmedAfterThePeerRestartedAndDiedAgainFencesAgain() {
        TakeoverMachine m = TakeoverMachineFenceDelayTest.stable(N1, TakeoverTableTest.GROUPS, 0);
        m.on(new TakeoverEvent.PeerDead(), 10 * S);
        m.on(new TakeoverEvent.PeerRestarted(), 12 * S);
        m.on(new TakeoverEvent.PeerDead(), 16 * S);
        List<Effect> out = m.on(new TakeoverEvent.FenceOutcome(true, "OK"), 17 * S);
        assertThat(out).contains(new Effect.FencePeer(N2));
        assertThat(starts(out)).isEmpty();
        assertThat(starts(m.on(new TakeoverEvent.FenceOutcome(true, "OK"), 19 * S))).containsExactly(1);
    }

    /** A restart heard during the fence delay calls the fence off: nothing was sent to the device yet. */
    @Test
    void aRestartDuringTheFenceDelayCancelsTheFence() {
        TakeoverMachine m = TakeoverMachineFenceDelayTest.stable(N2, TakeoverTableTest.GROUPS, 5 * S);
        m.on(new TakeoverEvent.PeerDead(), 10 * S);
        assertThat(m.fenceDelayed()).isTrue();
        List<Effect> out = m.on(new TakeoverEvent.PeerRestarted(), 12 * S);
        assertThat(log(out)).contains("restarted during the fence delay; its fence is cancelled");
        assertThat(m.fenceDelayed()).isFalse();
        assertThat(fences(m.on(new TakeoverEvent.Tick(), 16 * S))).isFalse();
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
    }

    /**
     * STONITH: node2, never heard, is fenced for its silence at initdead (node1 negotiating); the device fails.
     * node2 then starts (a run node1 never saw, taken as a restart): the retry is called off and node1
     * negotiates, taking its own group at node2's starting (before: node1 kept fencing the node that had
     * just started, ran nothing until the device worked, then reset it).
     */
    @Test
    void aRestartAfterAFailedFencingAttemptCancelsTheRetry() {
        TakeoverMachine m = negotiating(true);
        assertThat(fences(m.on(new TakeoverEvent.PeerDead(), T0))).isTrue();
        m.on(new TakeoverEvent.FenceOutcome(false, "device failure"), T0 + S);
        List<Effect> out = m.on(new TakeoverEvent.PeerRestarted(), T0 + 2 * S);
        assertThat(log(out)).contains("restarted after a failed fencing attempt; its fence is cancelled");
        assertThat(m.state()).isEqualTo(TakeoverState.NEGOTIATING);
        assertThat(fences(m.on(new TakeoverEvent.Tick(), T0 + 7 * S))).isFalse();
        m.on(report(GroupState.STOPPED, GroupState.STOPPED), T0 + 7 * S);
        assertThat(starts(m.on(new TakeoverEvent.PeerStarting(), T0 + 7 * S))).containsExactly(0);
    }

    /**
     * The same with the request still at the device when node2 is heard starting (answered in flux): its
     * failure takes nothing over, and node1 negotiates at once from node2's starting and report.
     */
    @Test
    void aFenceOutcomeAfterAnUnnegotiatedPeerRestartedNegotiates() {
        TakeoverMachine m = negotiating(true);
        assertThat(fences(m.on(new TakeoverEvent.PeerDead(), T0))).isTrue();
        m.on(new TakeoverEvent.PeerRestarted(), T0 + S);
        m.on(report(GroupState.STOPPED, GroupState.STOPPED), T0 + S);
        m.on(new TakeoverEvent.PeerStarting(), T0 + S);
        List<Effect> out = m.on(new TakeoverEvent.FenceOutcome(false, "timed out"), T0 + 8 * S);
        assertThat(log(out)).contains("nothing is taken over from it", "Acquiring resource groups of node1");
        assertThat(starts(out)).containsExactly(0);
    }

    /**
     * node2, resumed from a pause node1 took for its death, asks to go standby before its beat tells node1 it
     * is back: node1, which took g2 over, ignores the request (before: it answered {@code other}, then released
     * g2 on node2's return, while node2 gave g2 up and cancelled on node1's partition claim: g2 ran nowhere),
     * and on the return releases g2, which node2 still runs.
     */
    @Test
    void aStandbyRequestFromAPeerNotYetHeardBackIsIgnored() {
        TakeoverMachine m = negotiating(false);
        m.on(report(GroupState.STOPPED, GroupState.RUNNING), T0);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), T0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.PeerDead(), S);
        m.on(new TakeoverEvent.GroupStarted(1, true), S);

        List<Effect> out = m.on(new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.ME), 5 * S);
        assertThat(log(out)).contains("standby message [me] from node2 ignored: node2 was declared dead");
        assertThat(out).noneMatch(e -> e instanceof Effect.Announce);
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);

        out = new java.util.ArrayList<>(m.on(new TakeoverEvent.PeerReturned(), 5 * S));
        out.addAll(m.on(report(GroupState.STOPPED, GroupState.RUNNING), 5 * S));
        assertThat(out).contains(new Effect.StopGroup(1, GroupOpReason.PARTITION_RELEASE));
    }
}
