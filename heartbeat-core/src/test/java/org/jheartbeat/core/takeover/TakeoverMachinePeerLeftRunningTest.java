package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.Effect.StartGroup;
import org.junit.jupiter.api.Test;

/**
 * A peer whose previous run left a group running (in maintenance, or by its last report) restarts: its
 * new daemon may have kept the group (a maintenance setting on disk), so this node does not acquire it
 * ("restarted and holds nothing") until the peer's own report says where it runs.
 */
class TakeoverMachinePeerLeftRunningTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");

    final TakeoverMachine m = new TakeoverMachine(N1, N2, List.of(group(N1, "198.18.0.100", 1),
            group(N2, "198.18.0.101", 2)), FailbackPolicy.ON);
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

    /** node2 runs both groups (it took node1's over); it stopped leaving node1's group running, and restarts. */
    private void peerRestartsAfterLeavingOurGroupRunning() {
        on(new TakeoverEvent.CommUp());
        assertThat(starts(on(new TakeoverEvent.PeerResources(ResourceSet.ALL, true, true, "")))).isEmpty();
        List<Effect> out = new ArrayList<>();
        m.maintenancePolicy().peerLeftRunning(Set.of(0), out);
        assertThat(out).anyMatch(e -> e instanceof Effect.LogLine l && l.text().contains("stopped or restarted after it last reported it running"));
        assertThat(m.maintenancePolicy().covers(0)).isTrue();
        assertThat(starts(on(new TakeoverEvent.PeerRestarted()))).as("not acquired while node2 may run it").isEmpty();
        assertThat(starts(on(new TakeoverEvent.Tick()))).isEmpty();
    }

    @Test
    void aGroupThePeerReportsRunningStaysThere() {
        peerRestartsAfterLeavingOurGroupRunning();
        assertThat(m.maintenancePolicy().peerReported(0, true, new ArrayList<>())).isTrue();
        assertThat(m.maintenancePolicy().covers(0)).isFalse();
        assertThat(starts(on(new TakeoverEvent.Tick()))).isEmpty();
        assertThat(m.groupState(0)).isEqualTo(GroupState.STOPPED);
    }

    @Test
    void aGroupThePeerReportsStoppedIsAcquiredHere() {
        peerRestartsAfterLeavingOurGroupRunning();
        assertThat(m.maintenancePolicy().peerReported(0, false, new ArrayList<>())).isTrue();
        assertThat(starts(on(new TakeoverEvent.Tick()))).containsExactly(0);
        assertThat(m.maintenancePolicy().peerReported(0, false, new ArrayList<>())).as("only once").isFalse();
    }

    @Test
    void theLivePeersOwnGroupIsLeftToItWhenItsReportEndsTheWait() {
        on(new TakeoverEvent.CommUp());
        assertThat(starts(on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, "")))).containsExactly(0);
        on(new TakeoverEvent.GroupStarted(0, true));
        List<Effect> out = new ArrayList<>();
        m.maintenancePolicy().peerLeftRunning(Set.of(1), out);
        assertThat(m.maintenancePolicy().covers(1)).isTrue();
        on(new TakeoverEvent.PeerRestarted());
        // then frozen past deadtime (no STONITH): its group is taken over, but held here
        assertThat(starts(on(new TakeoverEvent.PeerDead()))).isEmpty();
        on(new TakeoverEvent.PeerReturned());
        on(new TakeoverEvent.PeerStarting());
        assertThat(m.maintenancePolicy().peerReported(1, false, new ArrayList<>())).isTrue();
        assertThat(starts(on(new TakeoverEvent.Tick()))).as("node2 negotiates and takes its own group").isEmpty();
        assertThat(m.groupState(1)).isEqualTo(GroupState.STOPPED);
    }
}
