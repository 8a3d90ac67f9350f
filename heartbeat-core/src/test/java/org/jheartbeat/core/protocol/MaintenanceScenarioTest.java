package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * Maintenance between two engines over the real codec: the setting travels in
 * {@code jhb-maint}, also to a peer that was down when it was set; a daemon restarted in maintenance
 * keeps what runs; the probe exchange of {@code off}; nothing ever runs on both nodes.
 */
class MaintenanceScenarioTest {
    static final String G1 = "198.18.0.100/24/eth0";
    static final String G2 = "198.18.0.101";
    static final Maintenance CLUSTER_ON = Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 1);

    private static TwoNodeHarness bothUp() {
        TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, false);
        h.start(N1);
        h.start(N2);
        h.run(5000);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        return h;
    }

    @Test
    void aSettingMadeWhileThePeerIsDownReachesItWhenItReturnsAndNothingMoves() {
        TwoNodeHarness h = bothUp();
        h.powerOff(N2);
        h.run(15_000); // node1 takes g2 over
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1, G2), "node2", Set.of()));
        h.maintenance(N1, CLUSTER_ON, Set.of(), Set.of());
        assertThat(h.persistedMaintenance(N1)).isEqualTo(CLUSTER_ON);
        h.start(N2); // a fresh node2: no setting of its own, it learns node1's at comm up
        h.run(15_000);
        assertThat(h.engine(N2).machine().maintenancePolicy().setting()).isEqualTo(CLUSTER_ON);
        assertThat(h.persistedMaintenance(N2)).isEqualTo(CLUSTER_ON);
        assertThat(h.placement()).as("no failback, no start on node2\n%s", h.trace())
                .isEqualTo(Map.of("node1", Set.of(G1, G2), "node2", Set.of()));
        assertThat(h.doubleRun()).isNull();
    }

    @Test
    void aDaemonRestartedInMaintenanceKeepsWhatRunsAndOffAdoptsItAfterTheProbeExchange() {
        TwoNodeHarness h = bothUp();
        h.maintenance(N1, CLUSTER_ON, Set.of(), Set.of());
        h.run(1000);
        assertThat(h.engine(N2).machine().maintenancePolicy().setting()).isEqualTo(CLUSTER_ON);
        h.shutdown(N1);
        h.run(3000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 WARN: Maintenance (cluster-wide): resource group " + G1
                + " would be taken over from node1"));
        h.killDaemonKeepServices(N1); // exited; its services run on
        h.startWithState(N1);
        h.run(15_000);
        assertThat(h.placement()).as("%s", h.trace()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));

        h.probePeer(N1, 7);
        h.run(1000);
        assertThat(h.peerProbe(N1, 7)).containsExactly(G2);
        Maintenance off = CLUSTER_ON.with(Maintenance.Scope.CLUSTER, false, 2);
        h.maintenance(N1, off, Set.of(0, 1), h.peerProbe(N1, 7));
        h.run(5000);
        assertThat(h.engine(N1).machine().maintenancePolicy().setting()).isEqualTo(off);
        assertThat(h.engine(N2).machine().maintenancePolicy().setting()).isEqualTo(off);
        assertThat(h.ops()).as("nothing started or stopped since maintenance began").noneMatch(o ->
                o.contains(" stop ") || o.contains(" start ") && !o.contains("LOCAL_START"));
        assertThat(h.count("node1 started " + G1)).isEqualTo(1);
        assertThat(h.placement()).isEqualTo(Map.of("node1", Set.of(G1), "node2", Set.of(G2)));
        assertThat(h.doubleRun()).isNull();
    }
}
