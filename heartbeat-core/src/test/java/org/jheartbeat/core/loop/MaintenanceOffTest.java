package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.takeover.Maintenance;
import org.junit.jupiter.api.Test;

class MaintenanceOffTest {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");
    static final List<ResourceGroupDecl> GROUPS = List.of(group(N1, "198.18.0.100", 1), group(N2, "198.18.0.101", 2),
            group(N1, "198.18.0.102", 3));

    private static ResourceGroupDecl group(NodeName pref, String key, int line) {
        return new ResourceGroupDecl(pref, List.of(new ResourceSpec("IPaddr", List.of(key), key)), line);
    }

    @Test
    void theProbeAnswersKeysAreMappedToTheGroupsDefinedHere() {
        assertThat(MaintenanceOff.indicesOf(GROUPS, Set.of("198.18.0.102", "198.18.0.100", "198.18.0.9")))
                .containsExactly(0, 2);
    }

    @Test
    void aGroupRunningEvenPartlyHereAndThereRefusesTheRequest() {
        Set<Integer> leaving = new java.util.TreeSet<>(Set.of(0, 1, 2));
        assertThat(MaintenanceOff.runOnBoth(GROUPS, leaving, Set.of(0), Set.of(2), Set.of(1))).isEmpty();
        assertThat(MaintenanceOff.runOnBoth(GROUPS, leaving, Set.of(0), Set.of(2), Set.of(0, 2)))
                .containsExactly("198.18.0.100 (preferred node node1)", "198.18.0.102 (preferred node node1)");
        assertThat(MaintenanceOff.runOnBoth(GROUPS, Set.of(1), Set.of(0), Set.of(), Set.of(0)))
                .as("only groups leaving maintenance count").isEmpty();
    }

    @Test
    void aSettingChangedDuringTheProbesIsTurnedOffForTheScopeOnTopOfTheNewerOne() {
        Maintenance cur = Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 3);
        Maintenance next = cur.with(Maintenance.Scope.CLUSTER, false, 4);
        assertThat(MaintenanceOff.settingToApply(cur, next, Maintenance.Scope.CLUSTER)).isEqualTo(next);
        Maintenance newer = cur.with(new Maintenance.Scope(Maintenance.Kind.NODE, "node2"), true, 4);
        Maintenance applied = MaintenanceOff.settingToApply(newer, next, Maintenance.Scope.CLUSTER);
        assertThat(applied.version()).isEqualTo(5);
        assertThat(applied.cluster()).isFalse();
        assertThat(applied.has(new Maintenance.Scope(Maintenance.Kind.NODE, "node2"))).isTrue();
    }

    @Test
    void eachGroupLeavingMaintenanceSaysWhereItRunsAndWhatWasDone() {
        assertThat(MaintenanceOff.outcome(GROUPS, new java.util.TreeSet<>(Set.of(0, 1, 2)), Set.of(0), Set.of(),
                Set.of(1), true, N1, N2)).containsExactly("198.18.0.100: runs on node1, adopted",
                "198.18.0.101: runs on node2, left there", "198.18.0.102: ran nowhere, started where it belongs");
        assertThat(MaintenanceOff.outcome(GROUPS, Set.of(1), Set.of(), Set.of(), Set.of(1), false, N1, N2))
                .containsExactly("198.18.0.101: last reported running on node2, which cannot be probed: left there,"
                        + " not started here");
    }
}
