package org.jheartbeat.resources.script;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A resource managed by an LSB-ish script, run as {@code <script> <args...> start|stop|status},
 * as Heartbeat 3.0.6 ResourceManager's {@code doscript} and {@code we_own_resource} do.
 *
 * <ul>
 *   <li>{@code status}: stdout text decides, exit code ignored ({@link StatusText}); a status run
 *       that cannot start or times out gives {@link org.jheartbeat.resources.AgentOutcome#FAILED}
 *       (treated as not running).</li>
 *   <li>{@code start}: skipped (OK) if status already says running; otherwise exit 0 is OK and
 *       any other exit, a timeout or a failure to launch is FAILED.</li>
 *   <li>{@code stop}: exit 0 is OK, anything else FAILED. Retrying is the group runner's job.</li>
 * </ul>
 * Logs {@code Running <path> <args> <op>} (info) and {@code Return code N from <path>} (error),
 * Heartbeat's phrases; script output goes to the debug log, where Heartbeat appends it to
 * {@code HA_DEBUGLOG}.
 */
public final class ScriptAgent implements ResourceAgent {
    /** Default limit for {@code start} and {@code stop}: 60 s. */
    public static final Duration DEFAULT_START_STOP_TIMEOUT = Duration.ofSeconds(60);
    /** Default limit for {@code status}: 20 s. */
    public static final Duration DEFAULT_STATUS_TIMEOUT = Duration.ofSeconds(20);
    private static final Logger LOG = LoggerFactory.getLogger(ScriptAgent.class);

    private final Path script;
    private final List<String> args;
    private final ProcessRunner runner;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    private final Duration statusTimeout;

    /**
     * An agent with the default timeouts (start/stop 60 s, status 20 s).
     *
     * @param script the resolved script path (see {@code lookup.ScriptLocator})
     * @param args   the resource's {@code ::} arguments, placed before the operation
     * @param runner how to run programs
     */
    public ScriptAgent(Path script, List<String> args, ProcessRunner runner) {
        this(script, args, runner, DEFAULT_START_STOP_TIMEOUT, DEFAULT_STATUS_TIMEOUT);
    }

    /**
     * @param script           the resolved script path
     * @param args             the resource's arguments, placed before the operation
     * @param runner           how to run programs
     * @param startStopTimeout limit for start and stop, positive
     * @param statusTimeout    limit for status, positive
     */
    public ScriptAgent(Path script, List<String> args, ProcessRunner runner,
            Duration startStopTimeout, Duration statusTimeout) {
        this(script, args, runner, startStopTimeout, startStopTimeout, statusTimeout);
    }

    /**
     * An agent with the haresources {@code op_} timeouts of its token, over the defaults (start/stop 60 s,
     * status 20 s).
     *
     * @param timeouts the token's options ({@code op_timeout}, {@code op_start_timeout}, {@code op_stop_timeout},
     *                 {@code op_monitor_timeout} for status)
     */
    public ScriptAgent(Path script, List<String> args, ProcessRunner runner, OperationTimeouts timeouts) {
        this(script, args, runner, timeouts.forOperation(OperationTimeouts.Operation.START, DEFAULT_START_STOP_TIMEOUT),
                timeouts.forOperation(OperationTimeouts.Operation.STOP, DEFAULT_START_STOP_TIMEOUT),
                timeouts.forOperation(OperationTimeouts.Operation.MONITOR, DEFAULT_STATUS_TIMEOUT));
    }

    private ScriptAgent(Path script, List<String> args, ProcessRunner runner, Duration startTimeout,
            Duration stopTimeout, Duration statusTimeout) {
        this.script = Objects.requireNonNull(script, "script");
        this.args = List.copyOf(args);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
        this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
        this.statusTimeout = Objects.requireNonNull(statusTimeout, "statusTimeout");
    }

    /** @return the script this agent runs */
    public Path script() {
        return script;
    }

    /** @return the resource's arguments, placed before the operation */
    public List<String> args() {
        return args;
    }

    /** @param op {@code start}, {@code stop} or {@code status} @return the argv for one operation: script, args, then {@code op} */
    public List<String> argv(String op) {
        List<String> argv = new ArrayList<>(args.size() + 2);
        argv.add(script.toString());
        argv.addAll(args);
        argv.add(op);
        return List.copyOf(argv);
    }

    @Override
    public AgentResult start() {
        AgentResult status = status();
        if (status.isRunning()) {
            LOG.info("Resource {} is already running", describe());
            return AgentResult.ok("already running");
        }
        return doscript("start");
    }

    /** Runs {@code <script> start} at once: the caller's status just said not running. */
    @Override
    public AgentResult startKnownStopped() {
        return doscript("start");
    }

    @Override
    public AgentResult stop() {
        return doscript("stop");
    }

    @Override
    public AgentResult status() {
        ProcessSpec spec = ProcessSpec.of(statusTimeout, argv("status"));
        ProcessResult result;
        try {
            result = runner.run(spec);
        } catch (IOException e) {
            LOG.error("Cannot run {}: {}", spec.commandLine(), e.getMessage());
            return AgentResult.failed("status could not run: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        LOG.debug("{} status output: {}", script, result.stdout().strip());
        if (result.timedOut()) {
            return AgentResult.failed("status timed out after " + statusTimeout.toMillis() + " ms",
                    AgentResult.NO_EXIT_CODE);
        }
        String firstLine = result.stdout().strip().lines().findFirst().orElse("");
        return StatusText.saysRunning(result.stdout())
                ? new AgentResult(AgentOutcome.RUNNING, firstLine, result.exitCode())
                : new AgentResult(AgentOutcome.STOPPED, firstLine, result.exitCode());
    }

    private AgentResult doscript(String op) {
        ProcessSpec spec = ProcessSpec.of(op.equals("stop") ? stopTimeout : startTimeout, argv(op));
        LOG.info("Running {}", spec.commandLine());
        ProcessResult result;
        try {
            result = runner.run(spec);
        } catch (IOException e) {
            LOG.error("Cannot run {}: {}", spec.commandLine(), e.getMessage());
            return AgentResult.failed("cannot run " + script + ": " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (!result.stdout().isBlank() || !result.stderr().isBlank()) {
            LOG.debug("{} {} output: {} {}", script, op, result.stdout().strip(), result.stderr().strip());
        }
        if (result.timedOut()) {
            LOG.error("{} {} timed out after {} ms", script, op, spec.timeout().toMillis());
            return AgentResult.failed(op + " timed out after " + spec.timeout().toMillis() + " ms",
                    AgentResult.NO_EXIT_CODE);
        }
        if (result.exitCode() != 0) {
            LOG.error("Return code {} from {}", result.exitCode(), script);
            String why = result.stderr().strip().lines().findFirst()
                    .orElse(result.stdout().strip().lines().findFirst().orElse(""));
            return AgentResult.failed(op + " returned " + result.exitCode() + (why.isEmpty() ? "" : ": " + why),
                    result.exitCode());
        }
        return new AgentResult(AgentOutcome.OK, "", 0);
    }

    private String describe() {
        return String.join(" ", argv("").subList(0, args.size() + 1));
    }

    /** @return {@code true}: the LSB rules for init scripts apply */
    @Override
    public boolean isScript() {
        return true;
    }

    @Override
    public String toString() {
        return "ScriptAgent[" + describe() + "]";
    }
}
