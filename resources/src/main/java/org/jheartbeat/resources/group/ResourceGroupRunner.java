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
import org.jheartbeat.resources.AgentOutcome;
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
 * otherwise start it ({@link ResourceAgent#startKnownStopped()}: that one status is the only one asked
 * before the start, so a takeover does not pay for a second). On the first failure log CRIT {@code Giving up resources due to failure of
 * <token>}, then stop, right to left, the failed resource and those this call started (resources
 * found already running are left alone; Heartbeat stops the whole group here, and does not tell
 * itself about the failure; its 30 s delayed {@code hb_standby} is the caller's business). A rollback
 * stop that fails, like any stop, is retried and then logged CRIT {@code Resource STOP failure}; the
 * result then names what is left running ({@link GroupResult#leftRunningByFailedStart()}, which also
 * counts the resources found running), so the takeover machine keeps the group blocked here instead
 * of offering it to the peer.
 *
 * <p><b>stop</b>: right to left, every resource (stopping a stopped resource is a success). Each
 * resource's stop follows Heartbeat 3.0.6's {@code giveupresourcegroup} loop: a failed stop is
 * retried, {@code stopRetryPause} after the previous attempt (1 s), logging INFO {@code Retrying
 * failed stop operation [<token>]}, until it succeeds or {@code maxStopRetries} retries
 * ({@code HA_STOPRETRYMAX}, 10: at most 11 attempts) have failed; nothing is asked between the
 * attempts. Only then is status asked once: still running (or, for a class other than Heartbeat's,
 * a status that failed: {@link ResourceAgent#failedStatusMeansStopped()}) → CRIT {@code Resource
 * STOP failure},
 * the resource counts as not stopped, and the runner stops there: the resources to its left, which
 * it depends on (its address, its file system), stay up, so the group stays whole on this node,
 * where the takeover machine keeps it blocked (Pacemaker's group ordering; Heartbeat carried on
 * stopping the rest, leaving a running service without its address). Unlike Heartbeat, nothing is
 * rebooted. Not running → the resource counts as stopped, and for a script (not a built-in agent)
 * Heartbeat's warning is logged: {@code Resource script for <token> probably not LSB-compliant.}
 *
 * <p>All methods block for as long as the agents take (bounded by their timeouts and the retry
 * pauses). Not thread-safe per group: the caller serialises operations on one group.
 */
public final class ResourceGroupRunner {
    /** Marker for Heartbeat's CRIT level, attached to ERROR log events. */
    public static final Marker CRIT = MarkerFactory.getMarker("CRIT");
    /** Retries of a failed stop: Heartbeat 3.0.6 ResourceManager's {@code HA_STOPRETRYMAX} default. */
    public static final int DEFAULT_STOP_RETRY_MAX = 10;
    /** Pause before each stop retry: 1 s ({@code sleep 1} in Heartbeat 3.0.6 ResourceManager). */
    public static final Duration DEFAULT_STOP_RETRY_PAUSE = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(ResourceGroupRunner.class);

    private final ResourceAgents agents;
    private final Sleeper sleeper;
    private final int maxStopRetries;
    private final Duration stopRetryPause;

    /** @param agents turns tokens into agents; real 1 s pauses, up to 10 stop retries */
    public ResourceGroupRunner(ResourceAgents agents) {
        this(agents, Sleeper.system(), DEFAULT_STOP_RETRY_MAX, DEFAULT_STOP_RETRY_PAUSE);
    }

    /**
     * @param agents         turns tokens into agents
     * @param sleeper        pauses before stop retries
     * @param maxStopRetries retries after a failed stop ({@code HA_STOPRETRYMAX}); 0 or less retries
     *                       until the stop succeeds or the thread is interrupted, as Heartbeat 3.0.6 does
     * @param stopRetryPause pause before each retry
     */
    public ResourceGroupRunner(ResourceAgents agents, Sleeper sleeper, int maxStopRetries, Duration stopRetryPause) {
        this.agents = Objects.requireNonNull(agents, "agents");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.stopRetryPause = Objects.requireNonNull(stopRetryPause, "stopRetryPause");
        this.maxStopRetries = maxStopRetries;
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
            AgentResult started = agent.startKnownStopped();
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
        List<String> foundRunning = outcomes.stream().filter(o -> o.step() == ResourceStep.ALREADY_RUNNING)
                .map(o -> o.resource().token()).toList();
        String message = "resource " + failed.token() + " failed to start: " + why.message()
                + (rollbackFailures.isEmpty() ? "" : "; Resource STOP failure during rollback: " + rollbackFailures)
                + (foundRunning.isEmpty() ? "" : "; left running as found before the start: " + foundRunning);
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
        return stop(group, () -> { });
    }

    /**
     * As {@link #stop(ResourceGroupDecl)}, and runs {@code beforeStorageStop} once, just before the
     * group's first file system resource (right to left: the last one listed, built-in
     * {@code Filesystem::} or {@code ocf:heartbeat:Filesystem}) is stopped, when every resource
     * listed after it has stopped: the data on it is at rest and still mounted (jheartbeat's
     * hand-over sync runs there; Heartbeat had no such point). Not run when the group has no file
     * system resource or a stop before it failed.
     *
     * @param group             the group to stop
     * @param beforeStorageStop run on this thread; must not throw
     * @return as {@link #stop(ResourceGroupDecl)}
     */
    public GroupResult stop(ResourceGroupDecl group, Runnable beforeStorageStop) {
        LOG.info("Releasing resource group: {}", group);
        List<ResourceOutcome> outcomes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<ResourceSpec> resources = group.resources();
        boolean storageReached = false;
        for (int i = resources.size() - 1; i >= 0; i--) {
            ResourceSpec spec = resources.get(i);
            if (!storageReached && isFileSystem(spec)) {
                storageReached = true;
                beforeStorageStop.run();
            }
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

    /**
     * One resource's stop, as Heartbeat 3.0.6's {@code giveupresourcegroup} loop: stop; while it
     * failed and retries are left, pause, log {@code Retrying failed stop operation}, stop again.
     * Status is asked only after the last failed attempt.
     */
    private ResourceOutcome stopWithRetries(Bound bound) {
        String token = bound.spec().token();
        int attempts = 1;
        AgentResult last = bound.agent().stop();
        int retries = 0;
        while (!last.isOk() && (maxStopRetries <= 0 || retries < maxStopRetries)) {
            if (!pause()) {
                break;
            }
            retries++;
            LOG.info("Retrying failed stop operation [{}]", token);
            last = bound.agent().stop();
            attempts++;
        }
        if (last.isOk()) {
            return new ResourceOutcome(bound.spec(), ResourceStep.STOPPED, last, attempts);
        }
        AgentResult status = bound.agent().status();
        if (status.isRunning() || status.outcome() == AgentOutcome.FAILED && !bound.agent().failedStatusMeansStopped()) {
            LOG.error(CRIT, "Resource STOP failure: {} still {} after {} stop attempts ({}). "
                    + "Not rebooting: manual intervention required!", token,
                    status.isRunning() ? "running" : "in an unknown state (" + status + ")", attempts, last);
            return new ResourceOutcome(bound.spec(), ResourceStep.STOP_FAILED, last, attempts);
        }
        if (bound.agent().isScript()) {
            LOG.error("Resource script for {} probably not LSB-compliant.", token);
            LOG.warn("it ({}) MUST succeed on a stop when already stopped", token);
        } else {
            LOG.warn("Resource {}: stop failed {} time(s) ({}) but its status says it is not held here ({});"
                    + " counted as stopped", token, attempts, last, status);
        }
        return new ResourceOutcome(bound.spec(), ResourceStep.STOPPED, last, attempts);
    }

    /**
     * Whether {@code spec} mounts a file system: the built-in {@code Filesystem::DEVICE::DIR…} (or a
     * {@code resource.d/Filesystem} script taking the same arguments) or {@code ocf:heartbeat:Filesystem}.
     */
    public static boolean isFileSystem(ResourceSpec spec) {
        org.jheartbeat.core.config.AgentRef ref = spec.agentRef();
        if (ref instanceof org.jheartbeat.core.config.AgentRef.Ocf o) {
            return o.provider().equals("heartbeat") && o.type().equals("Filesystem");
        }
        return ref instanceof org.jheartbeat.core.config.AgentRef.Heartbeat h && h.name().equals("Filesystem");
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
