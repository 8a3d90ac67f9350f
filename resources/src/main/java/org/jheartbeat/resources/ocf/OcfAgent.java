package org.jheartbeat.resources.ocf;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.ResourceClass;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OCF resource agent (OCF resource-agent API 1.0, as Pacemaker's {@code ocf} class runs it):
 * {@code <agent> start|stop|monitor|validate-all} with the {@link OcfEnvironment}. Outcomes:
 * <ul>
 *   <li>start, stop: {@link OcfExitCode#SUCCESS} is OK, anything else (or a timeout) FAILED; the
 *       API requires start of a running and stop of a stopped resource to succeed;</li>
 *   <li>{@link #status()} runs {@code monitor}: SUCCESS or RUNNING_MASTER is RUNNING,
 *       NOT_RUNNING is STOPPED, every other code (or a timeout) is FAILED: the resource is in an
 *       unknown, failed state, never taken for stopped after a failed stop.</li>
 * </ul>
 * Timeouts: the haresources {@code op_*timeout} if written, else the agent's meta-data, else 20 s
 * (Pacemaker's default operation timeout). Blocking; call off the loop thread.
 */
public final class OcfAgent implements ResourceAgent {
    /** Timeout when neither haresources nor meta-data gives one: 20 s, Pacemaker's default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);
    private static final Logger LOG = LoggerFactory.getLogger(OcfAgent.class);

    private final AgentRef.Ocf ref;
    private final String token;
    private final Path executable;
    private final Path ocfRoot;
    private final OcfMetadata metadata;
    private final ProcessRunner runner;

    /**
     * @param ref        the typed resource
     * @param token      the haresources token (its instance name is derived from it)
     * @param executable the agent's path
     * @param ocfRoot    {@code OCF_ROOT}
     * @param metadata   the agent's meta-data (action timeouts)
     * @param runner     runs the agent
     */
    public OcfAgent(AgentRef.Ocf ref, String token, Path executable, Path ocfRoot, OcfMetadata metadata,
            ProcessRunner runner) {
        this.ref = Objects.requireNonNull(ref, "ref");
        this.token = Objects.requireNonNull(token, "token");
        this.executable = Objects.requireNonNull(executable, "executable");
        this.ocfRoot = Objects.requireNonNull(ocfRoot, "ocfRoot");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /**
     * @param action an OCF action name
     * @return the timeout this agent uses for it: haresources, else meta-data, else {@link #DEFAULT_TIMEOUT}
     */
    public Duration timeout(String action) {
        Duration fromMetadata = metadata.timeout(action).orElse(DEFAULT_TIMEOUT);
        return switch (action) {
            case "start" -> ref.timeouts().forOperation(OperationTimeouts.Operation.START, fromMetadata);
            case "stop" -> ref.timeouts().forOperation(OperationTimeouts.Operation.STOP, fromMetadata);
            case "monitor", "status" -> ref.timeouts().forOperation(OperationTimeouts.Operation.MONITOR, fromMetadata);
            default -> ref.timeouts().all().orElse(fromMetadata);
        };
    }

    /**
     * @param action the OCF action
     * @return what this agent runs for it: argv, environment and timeout
     */
    public ProcessSpec spec(String action) {
        Duration timeout = timeout(action);
        return new ProcessSpec(List.of(executable.toString(), action),
                OcfEnvironment.of(ocfRoot, ref, OcfEnvironment.instanceName(token), timeout), timeout);
    }

    /**
     * Runs one action.
     *
     * @param action e.g. {@code validate-all}
     * @return the agent's exit code, or {@link AgentResult#NO_EXIT_CODE} with a message when it could
     *         not run or timed out; outcome OK for {@link OcfExitCode#SUCCESS}, else FAILED
     */
    public AgentResult run(String action) {
        ProcessSpec spec = spec(action);
        boolean quiet = action.equals("monitor");
        if (!quiet) {
            LOG.info("Running {} {} ({})", executable, action, token);
        }
        ProcessResult r;
        try {
            r = runner.run(spec);
        } catch (IOException e) {
            LOG.error("Cannot run {} {}: {}", executable, action, e.getMessage());
            return AgentResult.failed(action + " could not run: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (!r.stdout().isBlank() || !r.stderr().isBlank()) {
            LOG.debug("{} {} output: {} {}", executable, action, r.stdout().strip(), r.stderr().strip());
        }
        if (r.timedOut()) {
            LOG.error("{} {} ({}) timed out after {} ms", executable, action, token, spec.timeout().toMillis());
            return AgentResult.failed(action + " timed out after " + spec.timeout().toMillis() + " ms",
                    AgentResult.NO_EXIT_CODE);
        }
        if (r.exitCode() == OcfExitCode.SUCCESS.code()) {
            return new AgentResult(AgentOutcome.OK, "", 0);
        }
        String why = r.stderr().strip().lines().reduce((a, b) -> b)
                .orElse(r.stdout().strip().lines().reduce((a, b) -> b).orElse(""));
        String message = action + " " + OcfExitCode.describe(r.exitCode()) + (why.isEmpty() ? "" : ": " + why);
        if (!quiet) {
            LOG.error("{} {} ({}): {}", executable, action, token, message);
        }
        return AgentResult.failed(message, r.exitCode());
    }

    @Override
    public AgentResult start() {
        return run("start");
    }

    @Override
    public AgentResult stop() {
        return run("stop");
    }

    /** Runs {@code monitor}; see the class comment for the mapping. */
    @Override
    public AgentResult status() {
        AgentResult r = run("monitor");
        if (r.isOk() || r.exitCode() == OcfExitCode.RUNNING_MASTER.code()) {
            return new AgentResult(AgentOutcome.RUNNING, "monitor " + OcfExitCode.describe(Math.max(0, r.exitCode())),
                    Math.max(0, r.exitCode()));
        }
        if (r.exitCode() == OcfExitCode.NOT_RUNNING.code()) {
            return new AgentResult(AgentOutcome.STOPPED, "monitor " + OcfExitCode.describe(r.exitCode()), r.exitCode());
        }
        return r;
    }

    @Override
    public ResourceClass resourceClass() {
        return ResourceClass.OCF;
    }

    @Override
    public String toString() {
        return "OcfAgent[" + ref.qualifiedName() + " " + token + "]";
    }
}
