package org.jheartbeat.resources.group;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.ResourceAgents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * Starts and stops a haresources group, as Heartbeat 3.0.6 ResourceManager does (facts E.1, E.4).
 *
 * <p><b>start</b>: left to right; for each resource ask status first and skip it if running;
 * otherwise start it. On the first failure log CRIT {@code Giving up resources due to failure of
 * <token>}, then stop, right to left, the failed resource and those this call started (resources
 * found already running are left alone; Heartbeat stops the whole group here, and does not tell
 * itself about the failure; its 30 s delayed {@code hb_standby} is the caller's business).
 *
 * <p><b>stop</b>: right to left, every resource (stopping a stopped resource is a success). A
 * failing stop is retried up to {@code maxStopAttempts} times (default 10, {@code HA_STOPRETRYMAX}),
 * {@code stopRetryPause} apart (default 1 s), as long as status still says running. A stop that
 * fails while status says not running counts as stopped ("probably not LSB-compliant"). If it is
 * still running at the end, log CRIT {@code Resource STOP failure} and stop there: the resources to
 * its left, which it depends on (its address, its file system), stay up, so the group stays whole on
 * this node, where the takeover machine keeps it blocked (Pacemaker's group ordering; Heartbeat
 * carried on stopping the rest, leaving a running service without its address). Unlike Heartbeat,
 * nothing is rebooted.
 *
 * <p>All methods block for as long as the agents take (bounded by their timeouts and the retry
 * pauses). Not thread-safe per group: the caller serialises operations on one group.
 */
public final class ResourceGroupRunner {
    /** Marker for Heartbeat's CRIT level, attached to ERROR log events. */
    public static final Marker CRIT = MarkerFactory.getMarker("CRIT");
    /** Heartbeat's {@code HA_STOPRETRYMAX}. */
    public static final int DEFAULT_MAX_STOP_ATTEMPTS = 10;
    /** Pause between stop attempts: 1 s. */
    public static final Duration DEFAULT_STOP_RETRY_PAUSE = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(ResourceGroupRunner.class);

    private final ResourceAgents agents;
    private final Sleeper sleeper;
    private final int maxStopAttempts;
    private final Duration stopRetryPause;

    /** @param agents turns tokens into agents; real 1 s pauses, 10 stop attempts */
    public ResourceGroupRunner(ResourceAgents agents) {
        this(agents, Sleeper.system(), DEFAULT_MAX_STOP_ATTEMPTS, DEFAULT_STOP_RETRY_PAUSE);
    }

    /**
     * @param agents          turns tokens into agents
     * @param sleeper         pauses between stop attempts
     * @param maxStopAttempts stop invocations per resource, at least 1
     * @param stopRetryPause  pause between stop attempts
     */
    public ResourceGroupRunner(ResourceAgents agents, Sleeper sleeper, int maxStopAttempts, Duration stopRetryPause) {
        this.agents = Objects.requireNonNull(agents, "agents");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.stopRetryPause = Objects.requireNonNull(stopRetryPause, "stopRetryPause");
        if (maxStopAttempts < 1) {
            throw new IllegalArgumentException("maxStopAttempts must be >= 1: " + maxStopAttempts);
        }
        this.maxStopAttempts = maxStopAttempts;
    }

    private record Bound(ResourceSpec spec, ResourceAgent agent) {
    }

    /**
     * Acquires a group (Heartbeat's {@code takegroup}).
     *
     * @param group the group to start
     * @return success with STARTED/ALREADY_RUNNING outcomes, or failure whose message names the
     *         resource that failed and why, with its rollback outcomes appended
     */
    public GroupResult start(ResourceGroupDecl group) {
        LOG.info("Acquiring resource group: {}", group);
        List<ResourceOutcome> outcomes = new ArrayList<>();
        List<Bound> startedHere = new ArrayList<>();
        for (ResourceSpec spec : group.resources()) {
            ResourceAgent agent;
            try {
                agent = agents.forSpec(spec);
            } catch (ResourceAgentException e) {
                LOG.error("{}", e.getMessage());
                AgentResult failure = AgentResult.failed(e.getMessage(), AgentResult.NO_EXIT_CODE);
                outcomes.add(new ResourceOutcome(spec, ResourceStep.START_FAILED, failure, 0));
                return giveUp(spec, failure, startedHere, outcomes);
            }
            AgentResult status = agent.status();
            if (status.isRunning()) {
                agent.reassert();
                outcomes.add(new ResourceOutcome(spec, ResourceStep.ALREADY_RUNNING, status, 0));
                continue;
            }
            AgentResult started = agent.start();
            if (started.isOk()) {
                outcomes.add(new ResourceOutcome(spec, ResourceStep.STARTED, started, 1));
                startedHere.add(new Bound(spec, agent));
            } else {
                outcomes.add(new ResourceOutcome(spec, ResourceStep.START_FAILED, started, 1));
                startedHere.add(new Bound(spec, agent));
                return giveUp(spec, started, startedHere, outcomes);
            }
        }
        return new GroupResult(true, outcomes, "resource group " + group.key() + " acquired");
    }

    private GroupResult giveUp(ResourceSpec failed, AgentResult why, List<Bound> startedHere,
            List<ResourceOutcome> outcomes) {
        LOG.error(CRIT, "Giving up resources due to failure of {}", failed.token());
        List<String> rollbackFailures = new ArrayList<>();
        for (int i = startedHere.size() - 1; i >= 0; i--) {
            ResourceOutcome stopped = stopWithRetries(startedHere.get(i));
            outcomes.add(stopped);
            if (stopped.step() == ResourceStep.STOP_FAILED) {
                rollbackFailures.add(stopped.resource().token());
            }
        }
        String message = "resource " + failed.token() + " failed to start: " + why.message()
                + (rollbackFailures.isEmpty() ? "" : "; Resource STOP failure during rollback: " + rollbackFailures);
        return new GroupResult(false, outcomes, message);
    }

    /**
     * Releases a group (Heartbeat's {@code givegroup}): every resource, right to left.
     *
     * @param group the group to stop
     * @return success if every resource stopped; otherwise the message lists each resource that
     *         could not be stopped ({@code Resource STOP failure: [...]})
     */
    public GroupResult stop(ResourceGroupDecl group) {
        LOG.info("Releasing resource group: {}", group);
        List<ResourceOutcome> outcomes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<ResourceSpec> resources = group.resources();
        for (int i = resources.size() - 1; i >= 0; i--) {
            ResourceSpec spec = resources.get(i);
            ResourceOutcome outcome;
            try {
                outcome = stopWithRetries(new Bound(spec, agents.forSpec(spec)));
            } catch (ResourceAgentException e) {
                LOG.error(CRIT, "Resource STOP failure: cannot stop {}: {}", spec.token(), e.getMessage());
                outcome = new ResourceOutcome(spec, ResourceStep.STOP_FAILED,
                        AgentResult.failed(e.getMessage(), AgentResult.NO_EXIT_CODE), 0);
            }
            outcomes.add(outcome);
            if (outcome.step() == ResourceStep.STOP_FAILED) {
                failures.add(spec.token() + " (" + outcome.result().message() + ")");
                break;
            }
        }
        return failures.isEmpty()
                ? new GroupResult(true, outcomes, "resource group " + group.key() + " released")
                : new GroupResult(false, outcomes, "Resource STOP failure in group " + group.key() + ": " + failures);
    }

    private ResourceOutcome stopWithRetries(Bound bound) {
        AgentResult last = null;
        int attempt = 0;
        while (attempt < maxStopAttempts) {
            attempt++;
            last = bound.agent().stop();
            if (last.isOk()) {
                return new ResourceOutcome(bound.spec(), ResourceStep.STOPPED, last, attempt);
            }
            AgentResult status = bound.agent().status();
            if (!status.isRunning()) {
                LOG.warn("Resource {} stop failed ({}) but status says it is not running: probably not LSB-compliant",
                        bound.spec().token(), last);
                return new ResourceOutcome(bound.spec(), ResourceStep.STOPPED, last, attempt);
            }
            if (attempt < maxStopAttempts && !pause()) {
                break;
            }
        }
        LOG.error(CRIT, "Resource STOP failure: {} still running after {} stop attempts ({}). "
                + "Not rebooting: manual intervention required!", bound.spec().token(), attempt, last);
        return new ResourceOutcome(bound.spec(), ResourceStep.STOP_FAILED, last, attempt);
    }

    /** @return false if interrupted (flag restored) */
    private boolean pause() {
        try {
            sleeper.pause(stopRetryPause);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * @param spec one resource
     * @return {@code true} if its agent's status says running; {@code false} if not, if the
     *         status cannot be determined, or if no agent exists for it
     */
    public boolean isRunning(ResourceSpec spec) {
        try {
            return agents.forSpec(spec).status().isRunning();
        } catch (ResourceAgentException e) {
            LOG.warn("Cannot query {}: {}", spec.token(), e.getMessage());
            return false;
        }
    }

    /**
     * @param group a group
     * @return per-resource running flags in group order, with a RUNNING/PARTIAL/STOPPED summary
     */
    public GroupStatus status(ResourceGroupDecl group) {
        Map<String, Boolean> running = new LinkedHashMap<>();
        for (ResourceSpec spec : group.resources()) {
            running.put(spec.token(), isRunning(spec));
        }
        return new GroupStatus(group.key(), running);
    }
}
