package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.Effect.StartGroup;
import org.jheartbeat.core.takeover.GroupPlacement.PeerReport;
import org.junit.jupiter.api.Test;

/**
 * A reload that adds a group ({@link GroupReload#regroup}) places it from what runs, the peer's own
 * report ({@code jhb-groups}), not from this node's {@code rsc_hold} bits alone: a group the peer runs
 * is not started here too, and a group that runs nowhere is not left so.
 */
class TakeoverMachineRegroupTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");
    static final ResourceGroupDecl MINE = group(N1, "198.18.0.100", 1);
    static final ResourceGroupDecl THEIRS = group(N2, "198.18.0.101", 2);
    static final ResourceGroupDecl NEW_MINE = group(N1, "198.18.0.104", 3);
    static final ResourceGroupDecl NEW_THEIRS = group(N2, "198.18.0.105", 4);

    final TakeoverMachine m = new TakeoverMachine(N1, N2, List.of(MINE, THEIRS), FailbackPolicy.ON);
    long now;

    private static ResourceGroupDecl group(NodeName pref, String key, int line) {
        return new ResourceGroupDecl(pref, List.of(new ResourceSpec("IPaddr", List.of(key), key)), line);
    }

    private List<Effect> on(TakeoverEvent e) {
        now += 1_000_000;
        return m.on(e, now);
    }

    private static List<Integer> starts(List<Effect> actions) {
        return actions.stream().filter(a -> a instanceof StartGroup).map(a -> ((StartGroup) a).group()).toList();
    }

    /** Comm up; the peer runs its own group ({@code rsc_hold} {@code peerHolds}); node1 starts and runs its own. */
    private void settled(ResourceSet peerHolds) {
        on(new TakeoverEvent.CommUp());
        assertThat(starts(on(new TakeoverEvent.PeerResources(peerHolds, true, true, "")))).containsExactly(0);
        on(new TakeoverEvent.GroupStarted(0, true));
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
        assertThat(m.settled()).isTrue();
    }

    /** The reload: node1's haresources gains {@code added}; returns what the next event starts. */
    private List<Integer> reloadAdding(ResourceGroupDecl added, Map<String, PeerReport> reports) {
        m.reload().regroup(List.of(MINE, THEIRS, added), ResourceSet.LOCAL, k -> reports.getOrDefault(k, PeerReport.NONE));
        return starts(on(new TakeoverEvent.GroupsDisputed(Set.of())));
    }

    @Test
    void aGroupOfOurKindThatThePeerReportsRunningIsNotStartedHere() {
        settled(ResourceSet.LOCAL);
        // our bits (local) cover a group of node1's, but node2 runs it (it had it before our reload)
        assertThat(reloadAdding(NEW_MINE, Map.of(NEW_MINE.key(), new PeerReport.Reported(GroupState.RUNNING))))
                .isEmpty();
        assertThat(m.groupState(2)).isEqualTo(GroupState.STOPPED);
    }

    @Test
    void aGroupOfOursThePeerDoesNotDefineIsStartedHereOneOfThePeersWaitsForIt() {
        settled(ResourceSet.LOCAL);
        assertThat(reloadAdding(NEW_MINE, Map.of(NEW_MINE.key(), PeerReport.UNDEFINED))).containsExactly(2);
    }

    @Test
    void aGroupOfThePeersItDoesNotDefineYetIsLeftForItsOwnReload() {
        settled(ResourceSet.LOCAL);
        assertThat(reloadAdding(NEW_THEIRS, Map.of(NEW_THEIRS.key(), PeerReport.UNDEFINED))).isEmpty();
    }

    @Test
    void aGroupOfOursThePeerReportsStoppedIsStartedHere() {
        settled(ResourceSet.LOCAL);
        assertThat(reloadAdding(NEW_MINE, Map.of(NEW_MINE.key(), new PeerReport.Reported(GroupState.STOPPED))))
                .containsExactly(2);
    }

    @Test
    void aGroupOfThePeersThatItReportsStoppedWhileItHoldsItsOwnIsLeftToThePeer() {
        settled(ResourceSet.LOCAL);
        assertThat(reloadAdding(NEW_THEIRS, Map.of(NEW_THEIRS.key(), new PeerReport.Reported(GroupState.STOPPED))))
                .isEmpty();
    }

    @Test
    void withoutAReportTheBitsOfBothNodesDecide() {
        // a Heartbeat 3.0.6 peer that holds our groups too (rsc_hold=all relative to it): we take none
        on(new TakeoverEvent.CommUp());
        assertThat(starts(on(new TakeoverEvent.PeerResources(ResourceSet.ALL, true, true, "")))).isEmpty();
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
        // a new group of ours: our bits would cover it (regroup is given local), the peer's claim ours
        assertThat(reloadAdding(NEW_MINE, Map.of())).isEmpty();
    }

    @Test
    void withoutAReportAGroupOfOurKindThePeerDoesNotHoldStartsHere() {
        settled(ResourceSet.LOCAL);
        assertThat(reloadAdding(NEW_MINE, Map.of())).containsExactly(2);
    }

    /**
     * node1's own group fails here and is offered; a reload drops it, another adds it back: it stays FAILED here
     * (reported so) and is offered again, for a peer that restarted meanwhile forgot the offer (before: reported
     * stopped and never offered again, it ran nowhere).
     */
    @Test
    void aGroupAddedBackAfterItFailedHereIsReportedFailedAndOfferedAgain() {
        settled(ResourceSet.LOCAL);
        on(new TakeoverEvent.GroupFailedRunning(0, "monitor"));
        on(new TakeoverEvent.GroupStopped(0, true));
        assertThat(m.groupState(0)).isEqualTo(GroupState.FAILED);
        m.reload().regroup(List.of(THEIRS), ResourceSet.LOCAL, k -> PeerReport.NONE);
        List<Effect> out = m.reload().regroup(List.of(MINE, THEIRS), ResourceSet.LOCAL, k -> PeerReport.NONE);
        assertThat(out).containsExactly(new Effect.Announce(new Announcement.GroupFailed(MINE.key(), GroupFailure.START)));
        assertThat(m.groupState(0)).isEqualTo(GroupState.FAILED);
        assertThat(starts(on(new TakeoverEvent.GroupsDisputed(Set.of())))).isEmpty();
    }

    /**
     * A reload removes our running group: the caller stops it, and until that stop ends the group is left here
     * STOPPING (reported so to the peer, which may still define it), then forgotten. Groups may not change
     * meanwhile ({@link GroupReload#removedStopping}), and a shutdown waits for it before its shutdone.
     */
    @Test
    void aRemovedRunningGroupIsLeftHereStoppingUntilTheReloadsStopEnds() {
        settled(ResourceSet.LOCAL);
        m.reload().regroup(List.of(THEIRS), ResourceSet.LOCAL, k -> PeerReport.NONE);
        assertThat(m.reload().removedLeftHere()).containsExactly(Map.entry("198.18.0.100", GroupState.STOPPING));
        assertThat(m.reload().removedStopping()).isTrue();
        assertThat(on(new TakeoverEvent.ShutdownRequested())).as("shutdone waits")
                .noneMatch(e -> e instanceof Effect.Announce a && a.message() instanceof Announcement.ShutDone);
        assertThat(m.reload().removedStopEnded("198.18.0.101", true, now)).as("not being stopped").isEmpty();
        List<Effect> ended = m.reload().removedStopEnded("198.18.0.100", true, now);
        assertThat(ended).anyMatch(e -> e instanceof Effect.Announce a && a.message() instanceof Announcement.ShutDone);
        assertThat(m.reload().removedLeftHere()).isEmpty();
        assertThat(m.reload().removedStopping()).isFalse();
    }

    /** A failed stop leaves it BLOCKED, unmanaged, and the peer is told not to start it. */
    @Test
    void aRemovedGroupWhoseStopFailedIsLeftBlockedAndThePeerToldNotToStartIt() {
        settled(ResourceSet.LOCAL);
        m.reload().regroup(List.of(THEIRS), ResourceSet.LOCAL, k -> PeerReport.NONE);
        assertThat(m.reload().removedStopEnded("198.18.0.100", false, now)).contains(new Effect.Announce(
                new Announcement.GroupFailed("198.18.0.100", GroupFailure.STOP)));
        assertThat(m.reload().removedLeftHere()).containsExactly(Map.entry("198.18.0.100", GroupState.BLOCKED));
        assertThat(m.reload().removedStopping()).isFalse();
        assertThat(m.reload().removedLeftRunning()).containsExactly("198.18.0.100");
    }
}
