package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.Effect.Announce;
import org.jheartbeat.core.takeover.Effect.StartGroup;
import org.jheartbeat.core.takeover.Effect.StopGroup;
import org.jheartbeat.core.takeover.TakeoverEvent.GroupsDisputed;
import org.junit.jupiter.api.Test;

/** The machine never starts a disputed group and stops one that runs. */
class TakeoverMachineDisputedTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");

    private static ResourceGroupDecl group(NodeName pref, String key, int line) {
        return new ResourceGroupDecl(pref, List.of(new ResourceSpec("IPaddr", List.of(key), key)), line);
    }

    /** node1 prefers groups 0 and 1; node2 prefers group 2. */
    final TakeoverMachine m = new TakeoverMachine(N1, N2, List.of(group(N1, "198.18.0.100", 1),
            group(N1, "198.18.0.102", 2), group(N2, "198.18.0.101", 3)), FailbackPolicy.ON);
    long now;

    private List<Effect> on(TakeoverEvent e) {
        now += 1_000_000;
        return m.on(e, now);
    }

    private static List<Integer> starts(List<Effect> actions) {
        return actions.stream().filter(a -> a instanceof StartGroup).map(a -> ((StartGroup) a).group()).toList();
    }

    private static List<StopGroup> stops(List<Effect> actions) {
        return actions.stream().filter(a -> a instanceof StopGroup).map(a -> (StopGroup) a).toList();
    }

    private static List<Announcement.Resources> announced(List<Effect> actions) {
        return actions.stream().filter(a -> a instanceof Announce an && an.message() instanceof Announcement.Resources)
                .map(a -> (Announcement.Resources) ((Announce) a).message()).toList();
    }

    /** Comm up, the peer holds nothing and is stable: node1 takes its own groups. */
    private List<Effect> negotiate() {
        on(new TakeoverEvent.CommUp());
        return on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""));
    }

    @Test
    void aGroupDisputedBeforeNegotiationIsNeverStartedAndTheRestSettles() {
        on(new GroupsDisputed(Set.of(0)));
        List<Effect> a = negotiate();
        assertThat(starts(a)).containsExactly(1);
        assertThat(m.disputed(0)).isTrue();
        assertThat(m.disputed(1)).isFalse();
        a = on(new TakeoverEvent.GroupStarted(1, true));
        assertThat(m.settled()).isTrue();
        assertThat(announced(a)).containsExactly(new Announcement.Resources(ResourceSet.LOCAL, true, "req_our_resources()"));
        assertThat(m.groupState(0)).isEqualTo(GroupState.STOPPED);
        // ticks, the peer's reports: still never started
        for (int i = 0; i < 5; i++) {
            assertThat(starts(on(new TakeoverEvent.Tick()))).isEmpty();
            assertThat(starts(on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, "")))).isEmpty();
        }
    }

    @Test
    void aRunningGroupThatBecomesDisputedIsStoppedAndStartsAgainOnceCleared() {
        negotiate();
        on(new TakeoverEvent.GroupStarted(0, true));
        on(new TakeoverEvent.GroupStarted(1, true));
        assertThat(m.settled()).isTrue();

        List<Effect> a = on(new GroupsDisputed(Set.of(1)));
        assertThat(stops(a)).containsExactly(new StopGroup(1, GroupOpReason.DISPUTED));
        assertThat(m.settled()).isFalse();
        a = on(new TakeoverEvent.GroupStopped(1, true));
        assertThat(m.settled()).isTrue();
        assertThat(announced(a)).containsExactly(new Announcement.Resources(ResourceSet.LOCAL, true, "config"));

        a = on(new GroupsDisputed(Set.of()));
        assertThat(starts(a)).containsExactly(1);
        a = on(new TakeoverEvent.GroupStarted(1, true));
        assertThat(announced(a)).containsExactly(new Announcement.Resources(ResourceSet.LOCAL, true, "config"));
        assertThat(m.disputed(1)).isFalse();
    }

    @Test
    void aGroupDisputedWhileStartingIsStoppedOnceItHasStarted() {
        assertThat(starts(negotiate())).containsExactly(0, 1);
        assertThat(stops(on(new GroupsDisputed(Set.of(0))))).isEmpty();
        assertThat(stops(on(new TakeoverEvent.GroupStarted(0, true)))).containsExactly(new StopGroup(0, GroupOpReason.DISPUTED));
    }

    @Test
    void aDeadPeersDisputedGroupsAreNotTakenOver() {
        on(new GroupsDisputed(Set.of(0, 2)));
        negotiate();
        on(new TakeoverEvent.GroupStarted(1, true));
        List<Effect> a = on(new TakeoverEvent.PeerDead());
        assertThat(starts(a)).isEmpty(); // group 2 is node2's and disputed, group 0 disputed, group 1 runs
        assertThat(m.settled()).isTrue();
    }

    @Test
    void shutdownStopsWhatRunsAndIsNotHeldUpByDisputedGroups() {
        negotiate();
        on(new TakeoverEvent.GroupStarted(0, true));
        on(new TakeoverEvent.GroupStarted(1, true));
        on(new GroupsDisputed(Set.of(0)));
        List<Effect> a = on(new TakeoverEvent.ShutdownRequested());
        assertThat(stops(a)).extracting(StopGroup::group).containsExactly(1);
        on(new TakeoverEvent.GroupStopped(0, true));
        a = on(new TakeoverEvent.GroupStopped(1, true));
        assertThat(a).contains(new Effect.ShutdownComplete());
    }

    @Test
    void aRepeatedSetChangesNothing() {
        on(new GroupsDisputed(Set.of(0)));
        negotiate();
        on(new TakeoverEvent.GroupStarted(1, true));
        assertThat(on(new GroupsDisputed(Set.of(0)))).isEmpty();
    }
}
