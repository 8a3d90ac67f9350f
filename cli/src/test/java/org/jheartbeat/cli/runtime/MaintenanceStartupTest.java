package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.junit.jupiter.api.Test;

/**
 * The daemon's start-up with the groups it may have run before (the state directory's {@code groups}):
 * a group haresources dropped while the daemon was down is released, left as it is in maintenance, or
 * reported BLOCKED when it cannot be stopped; the groups of haresources are handled as always.
 */
class MaintenanceStartupTest {
    static final NodeName N1 = NodeName.of("node1");
    static final String NOW = "node1 198.18.0.100 labweb\n";
    static final String BEFORE = NOW + "node2 198.18.0.101 labweb2\n";

    /** Agents by token: what runs, which stops fail, and every call. */
    final Set<String> running = new HashSet<>();
    final Set<String> stopFails = new HashSet<>();
    final List<String> calls = new ArrayList<>();
    final ResourceGroupRunner runner = new ResourceGroupRunner(spec -> new ResourceAgent() {
        @Override
        public AgentResult start() {
            calls.add("start " + spec.token());
            running.add(spec.token());
            return AgentResult.ok("started");
        }

        @Override
        public AgentResult stop() {
            calls.add("stop " + spec.token());
            if (stopFails.contains(spec.token())) {
                return AgentResult.failed("cannot stop " + spec.token(), 1);
            }
            running.remove(spec.token());
            return AgentResult.ok("stopped");
        }

        @Override
        public AgentResult status() {
            return running.contains(spec.token()) ? AgentResult.running("running") : AgentResult.stopped("stopped");
        }
    }, d -> { }, 1, Duration.ZERO);

    private static ClusterConfig config(String haresources) {
        ClusterConfig c = new TwoNodeHarness(List.of(), FailbackPolicy.ON, 200).config();
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, c.nodes());
        assertThat(parsed.hasErrors()).isFalse();
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), parsed.groups(), c.stonith());
    }

    private Map<ResourceGroupDecl, String> start(Maintenance m) {
        ClusterConfig now = config(NOW);
        TakeoverMachine machine = new TakeoverMachine(N1, NodeName.of("node2"), now.resourceGroups(),
                FailbackPolicy.ON);
        machine.maintenancePolicy().atStartup(m);
        return MaintenanceStartup.probeOrRelease(now, N1, machine, runner, config(BEFORE).resourceGroups());
    }

    @Test
    void aGroupDroppedFromHaresourcesWhileTheDaemonWasDownIsReleased() {
        running.addAll(Set.of("198.18.0.101", "labweb2"));
        assertThat(start(Maintenance.NONE)).isEmpty();
        assertThat(running).isEmpty();
        assertThat(calls).containsExactly("stop labweb2", "stop 198.18.0.101");
    }

    @Test
    void oneThatCannotBeStoppedIsReportedBlockedAndKept() {
        running.addAll(Set.of("198.18.0.101", "labweb2"));
        stopFails.add("labweb2");
        Map<ResourceGroupDecl, String> left = start(Maintenance.NONE);
        assertThat(left.keySet()).extracting(ResourceGroupDecl::key).containsExactly("198.18.0.101");
        assertThat(left.values()).singleElement().asString().startsWith("BLOCKED: no longer in haresources");
        assertThat(running).contains("labweb2");
    }

    @Test
    void inMaintenanceItIsLeftRunningAndKept() {
        running.addAll(Set.of("198.18.0.101", "labweb2", "198.18.0.100"));
        Map<ResourceGroupDecl, String> left = start(Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 1));
        assertThat(left.keySet()).extracting(ResourceGroupDecl::key).containsExactly("198.18.0.101");
        assertThat(left.values()).singleElement().asString().contains("in maintenance: left as it is");
        assertThat(calls).noneMatch(c -> c.startsWith("stop"));
        assertThat(running).contains("labweb2", "198.18.0.100");
    }

    @Test
    void aStoppedFormerGroupAndTheGroupsOfHaresourcesAreHandledAsAlways() {
        running.add("198.18.0.100"); // a group of haresources, not in maintenance: released as always
        assertThat(start(Maintenance.NONE)).isEmpty();
        assertThat(calls).containsExactly("stop labweb", "stop 198.18.0.100");
        assertThat(running).isEmpty();
    }

    @Test
    void theMachineKnowsOnlyTheGroupsOfHaresources() {
        running.add("198.18.0.100");
        ClusterConfig now = config(NOW);
        TakeoverMachine machine = new TakeoverMachine(N1, NodeName.of("node2"), now.resourceGroups(),
                FailbackPolicy.ON);
        machine.maintenancePolicy().atStartup(Maintenance.NONE.with(Maintenance.Scope.CLUSTER, true, 1));
        MaintenanceStartup.probeOrRelease(now, N1, machine, runner, config(BEFORE).resourceGroups());
        assertThat(machine.groupState(0)).isEqualTo(GroupState.RUNNING);
    }
}
