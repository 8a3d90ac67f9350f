package org.jheartbeat.resources.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.loop.GroupExecutor.StartResult;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.StartOutcome;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link ResourceGroupExecutor#start} reports to the takeover machine for the group
 * {@code first second}: started; failed and rolled back cleanly; failed with a rollback that left
 * {@code first} running (its stop keeps failing), which the machine must keep blocked here. In-memory
 * agents; one stop retry, no pause.
 */
class ResourceGroupExecutorStartTest {
    private static final long HANG_GUARD_S = 30;

    private final Map<String, Boolean> running = new ConcurrentHashMap<>();
    private final Set<String> failingStarts = ConcurrentHashMap.newKeySet();
    private final Set<String> failingStops = ConcurrentHashMap.newKeySet();
    private ResourceGroupExecutor executor;

    /** A resource that runs while {@link #running} says so; starts and stops fail while listed. */
    private final class Agent implements ResourceAgent {
        private final String token;

        Agent(String token) {
            this.token = token;
        }

        @Override
        public AgentResult start() {
            if (failingStarts.contains(token)) {
                return AgentResult.failed(token + ": start failed", 1);
            }
            running.put(token, true);
            return AgentResult.ok("started");
        }

        @Override
        public AgentResult stop() {
            if (failingStops.contains(token)) {
                return AgentResult.failed(token + ": cannot stop", 1);
            }
            running.put(token, false);
            return AgentResult.ok("stopped");
        }

        @Override
        public AgentResult status() {
            return running.getOrDefault(token, false) ? AgentResult.running("running") : AgentResult.stopped("stopped");
        }
    }

    private ResourceGroupExecutor executor(ResourceGroupExecutor.Lifecycle lifecycle) {
        ResourceAgents agents = spec -> new Agent(spec.token());
        ResourceGroupDecl group = new ResourceGroupDecl(NodeName.of("node1"), List.of(
                new ResourceSpec("first", List.of(), "first"), new ResourceSpec("second", List.of(), "second")), 1);
        executor = new ResourceGroupExecutor(List.of(group), agents, lifecycle, null, null, MonotonicClock.system(),
                new ResourceGroupRunner(agents, d -> { }, 1, Duration.ZERO));
        return executor;
    }

    private StartResult start() throws Exception {
        return executor.start(0, GroupOpReason.LOCAL_START).get(HANG_GUARD_S, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() {
        if (executor != null) {
            executor.close();
        }
    }

    @Test
    void aStartOfTheWholeGroupIsStarted() throws Exception {
        executor(ResourceGroupExecutor.Lifecycle.NONE);
        assertThat(start()).isEqualTo(new StartResult(StartOutcome.STARTED, ""));
        assertThat(running).containsEntry("first", true).containsEntry("second", true);
    }

    @Test
    void aFailedStartRolledBackCleanlyIsFailedStopped() throws Exception {
        executor(ResourceGroupExecutor.Lifecycle.NONE);
        failingStarts.add("second");
        assertThat(start()).isEqualTo(new StartResult(StartOutcome.FAILED_STOPPED,
                "resource second failed to start: second: start failed"));
        assertThat(running).containsEntry("first", false);
    }

    @Test
    void aFailedStartWhoseRollbackCannotStopTheFirstResourceIsFailedStillRunning() throws Exception {
        executor(ResourceGroupExecutor.Lifecycle.NONE);
        failingStarts.add("second");
        failingStops.add("first");
        assertThat(start()).isEqualTo(new StartResult(StartOutcome.FAILED_STILL_RUNNING,
                "resource second failed to start: second: start failed; Resource STOP failure during rollback: [first]"));
        assertThat(running).containsEntry("first", true);
    }

    @Test
    void aHookThatFailsBeforeAnyResourceStartedCompletesExceptionally() {
        executor(new ResourceGroupExecutor.Lifecycle() {
            @Override
            public void beforeStart(ResourceGroupDecl group, GroupOpReason reason) {
                throw new ResourceAgentException("pre-start sync failed");
            }
        });
        assertThatThrownBy(this::start).isInstanceOf(ExecutionException.class).hasMessageContaining("pre-start sync failed");
        assertThat(running).isEmpty();
    }
}
