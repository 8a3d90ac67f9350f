package org.jheartbeat.resources.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.resources.fakes.FakeAgents;
import org.jheartbeat.resources.fakes.LogCapture;
import org.junit.jupiter.api.Test;

class StartupProbeTest {
    private final FakeAgents agents = new FakeAgents();
    private final List<Duration> pauses = new ArrayList<>();
    private final StartupProbe probe =
            new StartupProbe(new ResourceGroupRunner(agents, pauses::add, 10, Duration.ofSeconds(1)));

    private static ResourceGroupDecl group(String node, String... tokens) {
        return new ResourceGroupDecl(NodeName.of(node),
                Arrays.stream(tokens).map(t -> new ResourceSpec(t, List.of(), t)).toList(), 1);
    }

    private final List<ResourceGroupDecl> groups = List.of(
            group("node1", "ip1", "web1"), group("node2", "ip2", "db2", "web2"), group("node1", "ip3"));

    @Test
    void idleNodeStopsNothing() {
        try (LogCapture log = new LogCapture(StartupProbe.class)) {
            StartupProbe.Result result = probe.releaseRunningGroups(groups);
            assertThat(result.wasIdle()).isTrue();
            assertThat(agents.calls("stop")).isEmpty();
            assertThat(agents.calls("status")).hasSize(6);
            assertThat(log.lines()).containsExactly(
                    "INFO Start-up check: none of the 3 resource group(s) runs on this node");
        }
    }

    @Test
    void everyGroupFoundFullyOrPartlyRunningIsReleasedRightToLeftWhateverItsPreferredNode() {
        agents.agent("ip1").running(true);
        agents.agent("web1").running(true);
        agents.agent("db2").running(true);
        try (LogCapture log = new LogCapture(StartupProbe.class)) {
            StartupProbe.Result result = probe.releaseRunningGroups(groups);
            assertThat(result.released()).containsExactlyInAnyOrder(0, 1);
            assertThat(result.unreleased()).isEmpty();
            assertThat(agents.calls("stop")).as("the whole group, right to left; the idle group untouched")
                    .containsExactly("stop web1", "stop ip1", "stop web2", "stop db2", "stop ip2");
            assertThat(List.of("ip1", "web1", "db2")).noneMatch(t -> agents.agent(t).isRunning());
            assertThat(log.lines()).containsExactly(
                    "WARN Resource group ip1 found running at start-up (resources: ip1, web1); releasing it before"
                            + " joining the cluster",
                    "INFO Resource group ip1 released at start-up",
                    "WARN Resource group ip2 found running at start-up (resources: db2); releasing it before"
                            + " joining the cluster",
                    "INFO Resource group ip2 released at start-up");
        }
    }

    @Test
    void aGroupThatCannotBeStoppedIsReportedCritAndTheOthersAreStillReleased() {
        agents.agent("ip1").running(true);
        agents.agent("web1").running(true).failStops(100, true);
        agents.agent("ip3").running(true);
        try (LogCapture log = new LogCapture(StartupProbe.class)) {
            StartupProbe.Result result = probe.releaseRunningGroups(groups);
            assertThat(result.unreleased()).containsExactly(0);
            assertThat(result.released()).containsExactly(2);
            assertThat(agents.agent("ip1").isRunning()).as("what web1 depends on stays up with it").isTrue();
            assertThat(agents.agent("ip3").isRunning()).isFalse();
            assertThat(pauses).hasSize(10);
            assertThat(log.lines()).anyMatch(l -> l.startsWith("ERROR CRIT Resource group ip1 found running at"
                    + " start-up could not be released (Resource STOP failure in group ip1: [web1 ("));
        }
    }

    @Test
    void aResourceWhoseScriptIsMissingIsNotRunning() {
        agents.missing("web1");
        StartupProbe.Result result = probe.releaseRunningGroups(groups);
        assertThat(result.wasIdle()).isTrue();
        assertThat(agents.calls("stop")).isEmpty();
    }
}
