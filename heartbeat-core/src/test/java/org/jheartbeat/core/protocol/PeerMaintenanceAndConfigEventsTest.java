package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N1;
import static org.jheartbeat.core.testkit.TwoNodeHarness.N2;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * What the peer does is journalled on this node too: its maintenance setting applied here (each scope turned on or
 * off, by {@code peer NODE}), and the "Configuration differs" WARN as one {@code config-dispute} naming the files.
 */
class PeerMaintenanceAndConfigEventsTest {
    final TwoNodeHarness h = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.ON, 200, false);

    @Test
    void maintenanceSetOnThePeerIsJournalledHereWithThePeerAsWhoAsked() {
        List<ClusterEvent> here = new CopyOnWriteArrayList<>();
        List<ClusterEvent> there = new CopyOnWriteArrayList<>();
        h.start(N1);
        h.engine(N1).recordEventsTo(there::add);
        h.start(N2);
        h.engine(N2).recordEventsTo(here::add);
        h.run(5000);
        Maintenance on = Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 1);
        h.maintenance(N1, on, Set.of(), Set.of());
        h.run(1000);
        Maintenance next = on.with(new Maintenance.Scope(Maintenance.Kind.GROUP, MaintenanceScenarioTest.G2), true, 2)
                .with(Maintenance.Scope.CLUSTER, false, 3);
        h.maintenance(N1, next, Set.of(), Set.of());
        h.run(1000);
        assertThat(h.engine(N2).machine().maintenancePolicy().setting()).isEqualTo(next);
        assertThat(here.stream().filter(e -> e.kind() == EventKind.MAINTENANCE_ON || e.kind() == EventKind.MAINTENANCE_OFF))
                .extracting(ClusterEvent::kind, ClusterEvent::subject, ClusterEvent::by, ClusterEvent::node)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(EventKind.MAINTENANCE_ON, "cluster", "peer node1", "node2"),
                        org.assertj.core.groups.Tuple.tuple(EventKind.MAINTENANCE_OFF, "cluster", "peer node1", "node2"),
                        org.assertj.core.groups.Tuple.tuple(EventKind.MAINTENANCE_ON, "group " + MaintenanceScenarioTest.G2,
                                "peer node1", "node2"));
        // the node where the operator asked journals it once, from the control request (DaemonEvents), not here
        assertThat(there).noneMatch(e -> e.kind() == EventKind.MAINTENANCE_ON || e.kind() == EventKind.MAINTENANCE_OFF);
    }

    @Test
    void configurationFilesThatDifferAreOneDisputeEventPerWarning() {
        h.configFor(N2, differentHaresources("labdb"));
        List<ClusterEvent> one = new CopyOnWriteArrayList<>();
        List<ClusterEvent> two = new CopyOnWriteArrayList<>();
        h.start(N1);
        h.engine(N1).recordEventsTo(one::add);
        h.start(N2);
        h.engine(N2).recordEventsTo(two::add);
        h.run(10_000);
        assertThat(files(one)).singleElement().satisfies(e -> {
            assertThat(e.node()).isEqualTo("node1");
            assertThat(e.cause()).isEqualTo("differs from node2; make these files the same on both nodes and reload"
                    + " both (hb config diff compares them)");
        });
        assertThat(files(two)).singleElement().satisfies(e -> assertThat(e.cause()).startsWith("differs from node1"));
        // node2's files change and still differ: it warns again "(after reload)", and journals it again
        h.reload(N2, differentHaresources("labdb2"));
        h.run(3000);
        assertThat(h.logs()).anyMatch(l -> l.contains("node2 WARN: Configuration differs from node1: haresources"
                + " (after reload)."));
        assertThat(files(two)).hasSize(2);
        assertThat(files(one)).hasSize(1);
    }

    private static List<ClusterEvent> files(List<ClusterEvent> events) {
        return events.stream().filter(e -> e.kind() == EventKind.CONFIG_DISPUTE && e.subject().equals("haresources"))
                .toList();
    }

    /** node2's group given one more resource: a different haresources. */
    private ClusterConfig differentHaresources(String extra) {
        ClusterConfig c = h.config();
        List<ResourceGroupDecl> groups = List.of(c.resourceGroups().get(0), new ResourceGroupDecl(N2, List.of(
                new ResourceSpec("IPaddr", List.of("198.18.0.101"), "198.18.0.101"),
                new ResourceSpec("labweb2", List.of(), "labweb2"), new ResourceSpec(extra, List.of(), extra)), 2));
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), groups, c.stonith());
    }
}
