package org.jheartbeat.core.takeover;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.junit.jupiter.api.Test;

/**
 * The takeover machine in maintenance: nothing in scope is started or stopped whatever
 * happens, fencing still runs, and leaving maintenance adopts what the probes found (the probe/adopt
 * kernel). node1 with g1 (node1's) and g2 (node2's), as {@link TakeoverTableTest}.
 */
class TakeoverMachineMaintenanceTest {
    static final NodeName N1 = TakeoverTableTest.N1;
    static final long T0 = TakeoverTableTest.T0;
    static final Maintenance CLUSTER_ON = TakeoverTableTest.CLUSTER_ON;
    static final Maintenance CLUSTER_OFF = TakeoverTableTest.CLUSTER_OFF;

    static TakeoverMachine stableInMaintenance(boolean fencing) {
        TakeoverMachine m = new TakeoverMachine(N1, TakeoverTableTest.N2, TakeoverTableTest.GROUPS, FailbackPolicy.ON,
                TakeoverSettings.DEFAULTS.withFencing(fencing));
        m.on(new TakeoverEvent.CommUp(), T0);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.NONE, true, true, ""), T0);
        m.on(new TakeoverEvent.GroupStarted(0, true), T0);
        m.on(new TakeoverEvent.PeerResources(ResourceSet.LOCAL, true, true, ""), T0);
        List<Effect> on = m.on(new TakeoverEvent.MaintenanceSet(CLUSTER_ON), T0);
        assertThat(on).contains(new Effect.WatchGroup(0, false), new Effect.WatchGroup(1, false));
        assertThat(m.maintenancePolicy().covers(0)).isTrue();
        return m;
    }

    static boolean acts(List<Effect> effects) {
        return effects.stream().anyMatch(e -> e instanceof Effect.StartGroup || e instanceof Effect.StopGroup);
    }

    static String log(List<Effect> effects) {
        StringBuilder sb = new StringBuilder();
        effects.stream().filter(e -> e instanceof Effect.LogLine).forEach(e -> sb.append(((Effect.LogLine) e).text())
                .append('\n'));
        return sb.toString();
    }

    @Test
    void aDeadPeerIsNotTakenOverButWhatWouldBeDoneIsLogged() {
        TakeoverMachine m = stableInMaintenance(false);
        List<Effect> out = m.on(new TakeoverEvent.PeerDead(), T0);
        assertThat(acts(out)).isFalse();
        assertThat(log(out)).contains("Maintenance (cluster-wide): resource group g2 would be taken over from node2");
        assertThat(m.groupState(1)).isEqualTo(GroupState.STOPPED);
        assertThat(m.settled()).isTrue();
    }

    @Test
    void stonithStillFencesAPeerThatDiedInMaintenance() {
        TakeoverMachine m = stableInMaintenance(true);
        List<Effect> out = m.on(new TakeoverEvent.PeerDead(), T0);
        assertThat(out).contains(new Effect.FencePeer(TakeoverTableTest.N2));
        assertThat(acts(m.on(new TakeoverEvent.FenceOutcome(true, "OK"), T0))).isFalse();
    }

    @Test
    void aShutdownLeavesGroupsInMaintenanceRunning() {
        TakeoverMachine m = stableInMaintenance(false);
        List<Effect> out = m.on(new TakeoverEvent.ShutdownRequested(), T0);
        assertThat(acts(out)).isFalse();
        assertThat(out).contains(new Effect.ShutdownComplete());
        assertThat(m.groupState(0)).isEqualTo(GroupState.RUNNING);
    }

    @Test
    void handOversOfGroupsInMaintenanceAreRefusedAndMonitorFailuresIgnored() {
        TakeoverMachine m = stableInMaintenance(false);
        m.on(new TakeoverEvent.StandbyRequested(ResourceSet.LOCAL), T0);
        assertThat(m.handovers().outcome()).isEqualTo(TakeoverMachine.Handover.REFUSED);
        assertThat(m.handovers().detail()).contains("resource group g1 is in maintenance (cluster-wide)");
        assertThat(acts(m.on(new TakeoverEvent.GroupFailedRunning(0, "monitor"), T0))).isFalse();
        assertThat(acts(m.on(new TakeoverEvent.PeerAskResources(ResourceSet.LOCAL, StandbyPhase.ME), T0))).isFalse();
        assertThat(m.state()).isEqualTo(TakeoverState.STABLE);
    }

    @Test
    void offAdoptsWhatRunsHereWithoutStartingIt() {
        TakeoverMachine m = stableInMaintenance(false);
        List<Effect> out = m.on(new TakeoverEvent.MaintenanceSet(CLUSTER_OFF, Set.of(0, 1), Set.of(0), Set.of(),
                Set.of(1)), T0);
        assertThat(acts(out)).isFalse();
        assertThat(out).contains(new Effect.WatchGroup(0, true));
        assertThat(m.groupState(0)).isEqualTo(GroupState.RUNNING);
        assertThat(m.maintenancePolicy().covers(0)).isFalse();
        assertThat(log(out)).contains("g1 runs on node1: adopted").contains("g2 runs on node2: left there");
    }

    @Test
    void offStartsAGroupStoppedByHandOnItsPreferredNodeOnly() {
        TakeoverMachine m = stableInMaintenance(false);
        List<Effect> out = m.on(new TakeoverEvent.MaintenanceSet(CLUSTER_OFF, Set.of(0, 1), Set.of(), Set.of(),
                Set.of()), T0);
        assertThat(out).contains(new Effect.StartGroup(0, GroupOpReason.LOCAL_START));
        assertThat(out).noneMatch(e -> e instanceof Effect.StartGroup s && s.group() == 1);
        assertThat(log(out)).contains("g2 runs nowhere: it belongs to node2");
    }

    @Test
    void offCompletesAGroupRunningPartlyHere() {
        TakeoverMachine m = stableInMaintenance(false);
        List<Effect> out = m.on(new TakeoverEvent.MaintenanceSet(CLUSTER_OFF, Set.of(0), Set.of(), Set.of(0),
                Set.of()), T0);
        assertThat(out).contains(new Effect.StartGroup(0, GroupOpReason.LOCAL_START));
    }

    @Test
    void aGroupRunningOnBothNodesStaysAloneHere() {
        TakeoverMachine m = stableInMaintenance(false);
        List<Effect> out = m.on(new TakeoverEvent.MaintenanceSet(CLUSTER_OFF, Set.of(0), Set.of(0), Set.of(),
                Set.of(0)), T0);
        assertThat(acts(out)).isFalse();
        assertThat(m.maintenancePolicy().covers(0)).isTrue();
        assertThat(m.maintenancePolicy().reason(0)).contains("found running on both node1 and node2");
        assertThat(out).anyMatch(e -> e instanceof Effect.LogLine l && l.level() == Effect.Level.CRIT);
    }

    @Test
    void groupMaintenanceLeavesTheOtherGroupsToTheMachine() {
        TakeoverMachine m = stableInMaintenance(false);
        Maintenance g2 = CLUSTER_OFF.with(new Maintenance.Scope(Maintenance.Kind.GROUP, "g2"), true, 3);
        m.on(new TakeoverEvent.MaintenanceSet(g2, Set.of(0), Set.of(0), Set.of(), Set.of()), T0);
        assertThat(m.maintenancePolicy().covers(0)).isFalse();
        assertThat(m.maintenancePolicy().covers(1)).isTrue();
        List<Effect> out = m.on(new TakeoverEvent.PeerDead(), T0);
        assertThat(out).noneMatch(e -> e instanceof Effect.StartGroup);
        assertThat(log(out)).contains("resource group g2 would be taken over");
    }

    @Test
    void aPeerInNodeMaintenanceKeepsItsGroupsAndThisNodeKeepsItsOwn() {
        TakeoverMachine m = stableInMaintenance(false);
        Maintenance node2 = CLUSTER_OFF.with(new Maintenance.Scope(Maintenance.Kind.NODE, "node2"), true, 3);
        assertThat(m.maintenancePolicy().leaving(node2)).containsExactly(0);
        m.on(new TakeoverEvent.MaintenanceSet(node2, Set.of(0), Set.of(0), Set.of(), Set.of(1)), T0);
        assertThat(m.maintenancePolicy().covers(0)).isFalse();
        assertThat(m.maintenancePolicy().covers(1)).isTrue();
        assertThat(m.maintenancePolicy().reason(1)).isEqualTo("node node2");
        assertThat(acts(m.on(new TakeoverEvent.PeerShutdown(), T0))).isFalse();
    }
}
