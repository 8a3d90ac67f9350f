package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverState;
import org.junit.jupiter.api.Test;

/** Which run of the peer a message speaks for and what it leaves ({@link PeerRuns}); groups by key ({@link GroupKeys}). */
class PeerRunsTest {
    static final NodeName PEER = NodeName.of("node2");

    @Test
    void onlyAFirstContactWhileFencingForSilenceAtStartUpIsARunNeverSeen() {
        assertThat(PeerRuns.unseenRun(PEER, true, false, TakeoverState.FENCING)).hasValueSatisfying(l -> {
            assertThat(l.level()).isEqualTo(Effect.Level.INFO);
            assertThat(l.text()).startsWith("node2 is heard for the first time while being fenced");
        });
        assertThat(PeerRuns.unseenRun(PEER, false, false, TakeoverState.FENCING)).as("heard before").isEmpty();
        assertThat(PeerRuns.unseenRun(PEER, true, true, TakeoverState.FENCING)).as("a restart already").isEmpty();
        assertThat(PeerRuns.unseenRun(PEER, true, false, TakeoverState.AWAITING_COMM)).as("not fencing").isEmpty();
    }

    @Test
    void aShutdownLeavesWhatRunsInMaintenanceAndWhatItsReportHolds() {
        assertThat(PeerRuns.leftAtShutdown(Set.of(3, 1), Set.of(1, 0))).containsExactly(0, 1, 3);
        assertThat(PeerRuns.leftAtShutdown(Set.of(), Set.of())).isEmpty();
    }

    @Test
    void whatThePeerReportsRunningIsLetGoOfOnlyWithTheForeignShareNoGapAndNoExchangeUnderWay() {
        Set<Integer> runs = Set.of(2);
        assertThat(PeerRuns.runningOnBoth(ResourceSet.ALL, true, TakeoverState.STABLE, () -> runs)).isEqualTo(runs);
        assertThat(PeerRuns.runningOnBoth(ResourceSet.FOREIGN, true, TakeoverState.STANDBY_GIVING, () -> runs))
                .isEqualTo(runs);
        assertThat(PeerRuns.runningOnBoth(ResourceSet.LOCAL, true, TakeoverState.STABLE, () -> runs))
                .as("none of the peer's share here").isEmpty();
        assertThat(PeerRuns.runningOnBoth(ResourceSet.ALL, false, TakeoverState.STABLE, () -> runs))
                .as("a frame missing: the report may be old").isEmpty();
        assertThat(PeerRuns.runningOnBoth(ResourceSet.ALL, true, TakeoverState.STANDBY_TAKING, () -> runs))
                .as("taking: acted on once the exchange ends").isEmpty();
    }

    @Test
    void groupsAreFoundByKeyAndWhatRunsHereIsListedInOrderThenWhatWasRemoved() {
        List<ResourceGroupDecl> groups = List.of(group("a"), group("b"), group("c"));
        assertThat(GroupKeys.index(groups, "b")).isEqualTo(1);
        assertThat(GroupKeys.index(groups, "z")).isEqualTo(-1);
        GroupState[] states = {GroupState.RUNNING, GroupState.STARTING, GroupState.RUNNING};
        assertThat(GroupKeys.running(groups, i -> states[i], Set.of("old"))).containsExactly("a", "c", "old");
    }

    private static ResourceGroupDecl group(String key) {
        return new ResourceGroupDecl(PEER, List.of(new ResourceSpec("IPaddr", List.of(key), key)), 1);
    }
}
