package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.GroupPlacement.Facts;
import org.jheartbeat.core.takeover.GroupPlacement.PeerReport;
import org.jheartbeat.core.takeover.GroupPlacement.Placement;
import org.junit.jupiter.api.Test;

/** Where {@code hb status} says a group runs: node1's view, node2 its peer. */
class GroupPlacementTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");

    private static Placement of(GroupState here, boolean peerAlive, PeerReport report, ResourceSet peerHolds,
                                boolean preferredByPeer, boolean peerFailed, boolean disputed) {
        return GroupPlacement.decide(new Facts(N1, N2, here, peerAlive, report, peerHolds, preferredByPeer, peerFailed,
                disputed));
    }

    private static Placement reported(GroupState there) {
        return of(GroupState.STOPPED, true, new PeerReport.Reported(there), ResourceSet.LOCAL, true, false, false);
    }

    private static Placement unreported(ResourceSet peerHolds, boolean preferredByPeer) {
        return of(GroupState.STOPPED, true, PeerReport.NONE, peerHolds, preferredByPeer, false, false);
    }

    @Test
    void aGroupThisNodeHoldsIsHereWhateverThePeerSays() {
        for (GroupState here : List.of(GroupState.RUNNING, GroupState.STARTING, GroupState.STOPPING, GroupState.BLOCKED)) {
            assertThat(of(here, true, PeerReport.NONE, ResourceSet.ALL, true, false, false))
                    .isEqualTo(new Placement("node1", null, null));
        }
        assertThat(of(GroupState.RUNNING, true, new PeerReport.Reported(GroupState.RUNNING), ResourceSet.LOCAL, true,
                false, false)).isEqualTo(new Placement("node1", null, "node2 reports it running there too"));
        assertThat(of(GroupState.RUNNING, false, new PeerReport.Reported(GroupState.RUNNING), ResourceSet.LOCAL, true,
                false, false)).as("a dead peer's last word").isEqualTo(new Placement("node1", null, null));
    }

    @Test
    void thePeersOwnReportDecidesWhetherItIsThere() {
        assertThat(reported(GroupState.RUNNING)).isEqualTo(new Placement("node2", null, null));
        assertThat(reported(GroupState.STARTING)).isEqualTo(new Placement("node2", null, "starting on node2"));
        assertThat(reported(GroupState.STOPPING)).isEqualTo(new Placement("node2", null, "stopping on node2"));
        assertThat(reported(GroupState.BLOCKED)).isEqualTo(new Placement("node2", null,
                "its stop failed on node2: it may still run there"));
        assertThat(reported(GroupState.FAILED)).isEqualTo(new Placement("-", null, "failed on node2"));
        assertThat(reported(GroupState.STOPPED)).isEqualTo(new Placement("-", null, null));
        assertThat(of(GroupState.STOPPED, true, PeerReport.UNDEFINED, ResourceSet.LOCAL, true, false, false))
                .isEqualTo(new Placement("-", null, "node2 does not define it (not in its haresources)"));
    }

    @Test
    void withoutAReportRscHoldNamesThePeerUnconfirmedOnly() {
        assertThat(unreported(ResourceSet.LOCAL, true)).isEqualTo(new Placement("-", "node2",
                "not confirmed: node2 reports holding its own groups (rsc_hold local), not which of them run"));
        assertThat(unreported(ResourceSet.ALL, false)).isEqualTo(new Placement("-", "node2",
                "not confirmed: node2 reports holding node1's groups (rsc_hold all), not which of them run"));
        assertThat(unreported(ResourceSet.LOCAL, false)).as("node1's group, node2 holds its own only")
                .isEqualTo(new Placement("-", null, null));
        assertThat(unreported(ResourceSet.NONE, true)).isEqualTo(new Placement("-", null, null));
        assertThat(of(GroupState.STOPPED, true, PeerReport.NONE, ResourceSet.LOCAL, true, false, true))
                .as("disputed: started by neither node").isEqualTo(new Placement("-", null, null));
        assertThat(of(GroupState.FAILED, true, PeerReport.NONE, ResourceSet.LOCAL, true, true, false))
                .isEqualTo(new Placement("-", null, "unknown on node2: it reported a failure of this group and sends"
                        + " no per-group state"));
    }

    @Test
    void aPeerThatIsNotAliveHoldsNothingShown() {
        assertThat(of(GroupState.STOPPED, false, new PeerReport.Reported(GroupState.RUNNING), ResourceSet.ALL, true,
                false, false)).isEqualTo(new Placement("-", null, null));
        assertThat(of(GroupState.STOPPED, false, PeerReport.NONE, ResourceSet.ALL, true, false, false))
                .isEqualTo(new Placement("-", null, null));
    }

    /**
     * Every combination of the inputs: a node is named (confirmed) only when it holds the group by its own
     * account, and unconfirmed only without a report from the peer.
     */
    @Test
    void noCombinationNamesANodeThatDoesNotSayItHoldsTheGroup() {
        List<PeerReport> reports = new ArrayList<>(List.of(PeerReport.NONE, PeerReport.UNDEFINED));
        for (GroupState s : GroupState.values()) {
            reports.add(new PeerReport.Reported(s));
        }
        List<GroupState> holding = List.of(GroupState.RUNNING, GroupState.STARTING, GroupState.STOPPING,
                GroupState.BLOCKED);
        int cases = 0;
        for (GroupState here : GroupState.values()) {
            for (boolean alive : new boolean[] {false, true}) {
                for (PeerReport report : reports) {
                    for (ResourceSet holds : ResourceSet.values()) {
                        for (int bits = 0; bits < 8; bits++) {
                            Placement p = of(here, alive, report, holds, (bits & 1) != 0, (bits & 2) != 0,
                                    (bits & 4) != 0);
                            String c = here + " " + alive + " " + report + " " + holds + " " + bits + " -> " + p;
                            boolean peerSays = alive && report instanceof PeerReport.Reported r
                                    && holding.contains(r.state());
                            assertThat(p.runningOn()).as(c).isEqualTo(holding.contains(here) ? "node1"
                                    : peerSays ? "node2" : "-");
                            if (p.unconfirmed() != null) {
                                assertThat(report).as(c).isEqualTo(PeerReport.NONE);
                                assertThat(alive && !holding.contains(here)).as(c).isTrue();
                            }
                            cases++;
                        }
                    }
                }
            }
        }
        assertThat(cases).isEqualTo(6 * 2 * 8 * 4 * 8);
    }

    @Test
    void aPlaceIsConfirmedOrUnconfirmedNeverBoth() {
        assertThatThrownBy(() -> new Placement("node1", "node2", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node1, node2");
    }
}
