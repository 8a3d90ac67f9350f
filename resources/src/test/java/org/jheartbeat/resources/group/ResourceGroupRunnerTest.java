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
    void aRollbackThatCannotStopTheFirstResourceReportsItLeftRunning() {
        agents.agent("second").failStarts(1);
        agents.agent("first").failStops(100, true);
        try (LogCapture log = new LogCapture(ResourceGroupRunner.class)) {
            GroupResult result = runner.start(group("first", "second"));

            assertThat(result.success()).isFalse();
            assertThat(result.message()).isEqualTo("resource second failed to start: scripted start failure of second;"
                    + " Resource STOP failure during rollback: [first]");
            assertThat(result.leftRunningByFailedStart()).containsExactly("first");
            assertThat(result.tokens(ResourceStep.STOP_FAILED)).containsExactly("first");
            assertThat(agents.calls("stop")).as("second once, then first: 1 attempt + 10 retries")
                    .hasSize(12).startsWith("stop second", "stop first");
            assertThat(agents.agent("first").isRunning()).isTrue();
            assertThat(log.lines()).anyMatch(l -> l.equals("ERROR CRIT Giving up resources due to failure of second"))
                    .anyMatch(l -> l.startsWith("ERROR CRIT Resource STOP failure: first still running after 11 stop attempts"));
        }
    }

    @Test
    void aFailedStartLeavesWhatRanBeforeItRunningAndSaysSo() {
        agents.agent("a").running(true);
        agents.agent("b").failStarts(1);
        GroupResult result = runner.start(group("a", "b"));
        assertThat(result.leftRunningByFailedStart()).containsExactly("a");
        assertThat(result.message()).endsWith("; left running as found before the start: [a]");
    }

    @Test
    void aCleanRollbackOrASuccessOrAStopLeavesNothingRunningByAFailedStart() {
        agents.agent("b").failStarts(1);
        GroupResult rolledBack = runner.start(group("a", "b"));
        assertThat(rolledBack.success()).isFalse();
        assertThat(rolledBack.leftRunningByFailedStart()).isEmpty();
        assertThat(rolledBack.message()).doesNotContain("STOP failure").doesNotContain("left running");
        assertThat(runner.start(group("a", "b")).leftRunningByFailedStart()).isEmpty();
        agents.agent("b").failStops(100, true);
        GroupResult stop = runner.stop(group("a", "b"));
        assertThat(stop.success()).isFalse();
        assertThat(stop.leftRunningByFailedStart()).as("a stop's failure is not a start's").isEmpty();
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
    void theDataAtRestHookRunsOnceBeforeTheLastFileSystemListedIsUnmounted() {
        ResourceSpec ip = new ResourceSpec("IPaddr", List.of("198.18.0.100"), "198.18.0.100");
        ResourceSpec fs1 = new ResourceSpec("Filesystem", List.of("/dev/loop1", "/srv/a"), "Filesystem::/dev/loop1::/srv/a");
        ResourceSpec fs2 = new ResourceSpec("ocf:heartbeat:Filesystem",
                List.of("device=/dev/loop2", "directory=/srv/b", "fstype=ext4"),
                "ocf:heartbeat:Filesystem::device=/dev/loop2::directory=/srv/b::fstype=ext4");
        ResourceSpec db = new ResourceSpec("db", List.of(), "db");
        ResourceSpec web = new ResourceSpec("web", List.of(), "web");
        ResourceGroupDecl g = new ResourceGroupDecl(NodeName.of("rnode1"), List.of(ip, fs1, db, fs2, web), 1);
        assertThat(ResourceGroupRunner.isFileSystem(fs1)).isTrue();
        assertThat(ResourceGroupRunner.isFileSystem(fs2)).isTrue();
        assertThat(ResourceGroupRunner.isFileSystem(web)).isFalse();
        runner.start(g);
        agents.journal().clear();
        GroupResult result = runner.stop(g, () -> agents.journal().add("data at rest"));
        assertThat(result.success()).isTrue();
        assertThat(agents.journal()).containsExactly("stop web", "data at rest", "stop " + fs2.token(), "stop db",
                "stop " + fs1.token(), "stop 198.18.0.100");

        // no file system: never called (the executor then calls its hook after the whole stop)
        runner.start(group("a", "b"));
        agents.journal().clear();
        runner.stop(group("a", "b"), () -> agents.journal().add("data at rest"));
        assertThat(agents.journal()).containsExactly("stop b", "stop a");

        // a stop before the file system fails: not called
        runner.start(g);
        agents.agent("web").failStops(100, true);
        agents.journal().clear();
        assertThat(runner.stop(g, () -> agents.journal().add("data at rest")).success()).isFalse();
        assertThat(agents.journal()).doesNotContain("data at rest");
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
    void failedStopIsRetriedOneSecondApartWithoutAskingStatusInBetween() {
        runner.start(group("a", "b"));
        agents.agent("b").failStops(3, true);
        agents.journal().clear();
        try (LogCapture log = new LogCapture(ResourceGroupRunner.class)) {
            GroupResult result = runner.stop(group("a", "b"));
            assertThat(result.success()).isTrue();
            assertThat(agents.journal()).as("Heartbeat's loop asks nothing between attempts")
                    .containsExactly("stop b", "stop b", "stop b", "stop b", "stop a");
            assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(1));
            assertThat(result.outcomes().get(0).attempts()).isEqualTo(4);
            assertThat(log.lines()).filteredOn(l -> l.contains("Retrying")).containsExactly(
                    "INFO Retrying failed stop operation [b]", "INFO Retrying failed stop operation [b]",
                    "INFO Retrying failed stop operation [b]");
        }
    }

    @Test
    void stopGivesUpAfterTenRetriesAsksStatusOnceAndLeavesTheRestOfTheGroupUp() {
        runner.start(group("a", "b"));
        agents.agent("b").failStops(100, true);
        agents.journal().clear();
        try (LogCapture log = new LogCapture(ResourceGroupRunner.class)) {
            GroupResult result = runner.stop(group("a", "b"));
            assertThat(result.success()).isFalse();
            assertThat(result.message()).startsWith("Resource STOP failure in group a: [b (");
            assertThat(agents.calls("stop")).as("1 attempt + HA_STOPRETRYMAX (10) retries, and not a").hasSize(11)
                    .doesNotContain("stop a");
            assertThat(agents.journal().subList(0, 11)).as("status only after the last attempt")
                    .containsOnly("stop b");
            assertThat(agents.journal().get(11)).isEqualTo("status b");
            assertThat(pauses).hasSize(10);
            assertThat(result.tokens(ResourceStep.STOP_FAILED)).containsExactly("b");
            assertThat(result.outcomes().get(0).attempts()).isEqualTo(11);
            assertThat(agents.agent("a").isRunning()).as("what b depends on stays up").isTrue();
            assertThat(log.lines()).anyMatch(l -> l.startsWith("ERROR CRIT Resource STOP failure: b still running"))
                    .noneMatch(l -> l.contains("LSB"));
        }
    }

    @Test
    void scriptWhoseStopKeepsFailingWhileStoppedIsRetriedThenCountsAsStoppedWithHeartbeatsWarning() {
        runner.start(group("a"));
        agents.agent("a").failStops(100, false);
        agents.journal().clear();
        try (LogCapture log = new LogCapture(ResourceGroupRunner.class)) {
            GroupResult result = runner.stop(group("a"));
            assertThat(result.success()).isTrue();
            assertThat(agents.calls("stop")).as("retried even though it is not running: Heartbeat does")
                    .hasSize(11);
            assertThat(agents.journal()).endsWith("stop a", "status a");
            assertThat(pauses).hasSize(10);
            assertThat(result.tokens(ResourceStep.STOPPED)).containsExactly("a");
            assertThat(log.lines()).contains("ERROR Resource script for a probably not LSB-compliant.",
                    "WARN it (a) MUST succeed on a stop when already stopped");
        }
    }

    @Test
    void stopThatSucceedsOnARetryNeedsNoStatus() {
        runner.start(group("a"));
        agents.agent("a").failStops(1, false);
        agents.journal().clear();
        GroupResult result = runner.stop(group("a"));
        assertThat(result.success()).isTrue();
        assertThat(agents.journal()).containsExactly("stop a", "stop a");
        assertThat(pauses).containsExactly(Duration.ofSeconds(1));
    }

    @Test
    void builtInAgentGetsNoLsbWarning() {
        agents.agent("ip").script(false);
        agents.agent("ip").failStarts(1);
        agents.agent("ip").failStops(100, false);
        try (LogCapture log = new LogCapture(ResourceGroupRunner.class)) {
            GroupResult result = runner.start(group("ip", "a"));
            assertThat(result.success()).isFalse();
            assertThat(result.tokens(ResourceStep.STOPPED)).as("rolled back: not held, counted as stopped")
                    .containsExactly("ip");
            assertThat(log.lines()).noneMatch(l -> l.contains("LSB"))
                    .anyMatch(l -> l.startsWith("WARN Resource ip: stop failed 11 time(s)")
                            && l.contains("its status says it is not held here"));
        }
    }

    @Test
    void noRetryLimitRetriesUntilTheStopSucceeds() {
        ResourceGroupRunner unlimited = new ResourceGroupRunner(agents, pauses::add, 0, Duration.ofSeconds(1));
        unlimited.start(group("a"));
        agents.agent("a").failStops(25, true);
        GroupResult result = unlimited.stop(group("a"));
        assertThat(result.success()).isTrue();
        assertThat(agents.calls("stop")).hasSize(26);
        assertThat(pauses).hasSize(25);
    }

    @Test
    void interruptedPauseEndsTheRetriesAndRestoresTheFlag() {
        ResourceGroupRunner interrupted = new ResourceGroupRunner(agents, p -> {
            throw new InterruptedException();
        }, 10, Duration.ofSeconds(1));
        interrupted.start(group("a"));
        agents.agent("a").failStops(100, true);
        try {
            GroupResult result = interrupted.stop(group("a"));
            assertThat(result.success()).isFalse();
            assertThat(agents.calls("stop")).hasSize(1);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
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
