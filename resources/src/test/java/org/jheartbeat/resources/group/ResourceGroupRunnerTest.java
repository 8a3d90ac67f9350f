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
import org.junit.jupiter.api.Test;

class ResourceGroupRunnerTest {
    private final FakeAgents agents = new FakeAgents();
    private final List<Duration> pauses = new ArrayList<>();
    private final ResourceGroupRunner runner =
            new ResourceGroupRunner(agents, pauses::add, 10, Duration.ofSeconds(1));

    private static ResourceGroupDecl group(String... tokens) {
        return new ResourceGroupDecl(NodeName.of("rnode1"),
                Arrays.stream(tokens).map(t -> new ResourceSpec(t, List.of(), t)).toList(), 1);
    }

    @Test
    void startsLeftToRightCheckingStatusFirst() {
        GroupResult result = runner.start(group("a", "b", "c"));
        assertThat(result.success()).isTrue();
        assertThat(agents.journal()).containsExactly(
                "status a", "start a", "status b", "start b", "status c", "start c");
        assertThat(result.tokens(ResourceStep.STARTED)).containsExactly("a", "b", "c");
    }

    @Test
    void skipsResourcesAlreadyRunning() {
        agents.agent("b").running(true);
        GroupResult result = runner.start(group("a", "b", "c"));
        assertThat(result.success()).isTrue();
        assertThat(agents.calls("start")).containsExactly("start a", "start c");
        assertThat(result.tokens(ResourceStep.ALREADY_RUNNING)).containsExactly("b");
        assertThat(agents.calls("reassert")).as("a running resource is re-asserted, not restarted")
                .containsExactly("reassert b");
    }

    @Test
    void firstFailureRollsBackWhatThisCallStartedRightToLeft() {
        agents.agent("b").running(true);
        agents.agent("d").failStarts(1);
        GroupResult result = runner.start(group("a", "b", "c", "d", "e"));

        assertThat(result.success()).isFalse();
        assertThat(result.message()).startsWith("resource d failed to start: scripted start failure of d");
        assertThat(agents.calls("start")).containsExactly("start a", "start c", "start d");
        assertThat(agents.calls("stop")).as("failed one first, then c, a; b was already running")
                .containsExactly("stop d", "stop c", "stop a");
        assertThat(agents.agent("b").isRunning()).isTrue();
        assertThat(agents.agent("e").isRunning()).isFalse();
        assertThat(result.tokens(ResourceStep.START_FAILED)).containsExactly("d");
        assertThat(result.tokens(ResourceStep.STOPPED)).containsExactly("d", "c", "a");
    }

    @Test
    void missingAgentIsAStartFailureNamingTheResource() {
        agents.missing("labweb");
        GroupResult result = runner.start(group("a", "labweb"));
        assertThat(result.success()).isFalse();
        assertThat(result.message()).contains("labweb", "/etc/ha.d/resource.d/labweb", "/etc/init.d/labweb");
        assertThat(agents.calls("stop")).containsExactly("stop a");
    }

    @Test
    void stopsRightToLeft() {
        runner.start(group("a", "b", "c"));
        agents.journal().clear();
        GroupResult result = runner.stop(group("a", "b", "c"));
        assertThat(result.success()).isTrue();
        assertThat(agents.journal()).containsExactly("stop c", "stop b", "stop a");
        assertThat(pauses).isEmpty();
    }

    @Test
    void stopIsRetriedWhileStatusSaysRunning() {
        runner.start(group("a", "b"));
        agents.agent("b").failStops(3, true);
        GroupResult result = runner.stop(group("a", "b"));
        assertThat(result.success()).isTrue();
        assertThat(agents.calls("stop")).containsExactly("stop b", "stop b", "stop b", "stop b", "stop a");
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1));
        assertThat(result.outcomes().get(0).attempts()).isEqualTo(4);
    }

    @Test
    void stopGivesUpAfterTenAttemptsAndLeavesTheRestOfTheGroupUp() {
        runner.start(group("a", "b"));
        agents.agent("b").failStops(100, true);
        GroupResult result = runner.stop(group("a", "b"));
        assertThat(result.success()).isFalse();
        assertThat(result.message()).startsWith("Resource STOP failure in group a: [b (");
        assertThat(agents.calls("stop")).hasSize(10).doesNotContain("stop a");
        assertThat(pauses).hasSize(9);
        assertThat(result.tokens(ResourceStep.STOP_FAILED)).containsExactly("b");
        assertThat(agents.agent("a").isRunning()).as("what b depends on stays up").isTrue();
    }

    @Test
    void failedStopOfAResourceThatIsNotRunningCountsAsStopped() {
        runner.start(group("a"));
        agents.agent("a").failStops(1, false);
        GroupResult result = runner.stop(group("a"));
        assertThat(result.success()).isTrue();
        assertThat(agents.calls("stop")).containsExactly("stop a");
        assertThat(pauses).isEmpty();
    }

    @Test
    void statusSummary() {
        assertThat(runner.status(group("a", "b")).summary()).isEqualTo(GroupStatus.GroupState.STOPPED);
        agents.agent("a").running(true);
        assertThat(runner.status(group("a", "b")).summary()).isEqualTo(GroupStatus.GroupState.PARTIAL);
        assertThat(runner.isRunning(new ResourceSpec("a", List.of(), "a"))).isTrue();
        agents.agent("b").running(true);
        GroupStatus status = runner.status(group("a", "b"));
        assertThat(status.summary()).isEqualTo(GroupStatus.GroupState.RUNNING);
        assertThat(status.key()).isEqualTo("a");
        agents.missing("c");
        assertThat(runner.isRunning(new ResourceSpec("c", List.of(), "c"))).isFalse();
    }
}
