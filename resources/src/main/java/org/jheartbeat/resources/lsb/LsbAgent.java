package org.jheartbeat.resources.lsb;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
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
 * An LSB init script ({@code lsb:NAME}: {@code /etc/init.d/NAME start|stop|status}) read by its
 * exit codes, as Pacemaker's {@code lsb} class does, not by Heartbeat 1's status text:
 * <ul>
 *   <li>start, stop: exit 0 is OK, anything else FAILED ({@link LsbExitCode}); a compliant script
 *       exits 0 for the start of a running and the stop of a stopped service;</li>
 *   <li>status: {@link LsbStatus} (0 running; 1, 2, 3 not running; 4 and others FAILED).</li>
 * </ul>
 * Timeouts: the haresources {@code op_*timeout} if written, else 60 s for start/stop and 20 s for
 * status (the {@code ScriptAgent} defaults). Blocking; call off the loop thread.
 */
public final class LsbAgent implements ResourceAgent {
    /** Default start/stop limit: 60 s. */
    public static final Duration DEFAULT_START_STOP_TIMEOUT = Duration.ofSeconds(60);
    /** Default status limit: 20 s. */
    public static final Duration DEFAULT_STATUS_TIMEOUT = Duration.ofSeconds(20);
    private static final Logger LOG = LoggerFactory.getLogger(LsbAgent.class);

    private final Path script;
    private final OperationTimeouts timeouts;
    private final ProcessRunner runner;

    /**
     * @param script   the init script's path
     * @param ref      the typed resource (its timeouts)
     * @param runner   runs the script
     */
    public LsbAgent(Path script, AgentRef.Lsb ref, ProcessRunner runner) {
        this.script = Objects.requireNonNull(script, "script");
        this.timeouts = ref.timeouts();
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /** @param action start, stop or status @return what runs for it */
    public ProcessSpec spec(String action) {
        Duration timeout = switch (action) {
            case "start" -> timeouts.forOperation(OperationTimeouts.Operation.START, DEFAULT_START_STOP_TIMEOUT);
            case "stop" -> timeouts.forOperation(OperationTimeouts.Operation.STOP, DEFAULT_START_STOP_TIMEOUT);
            default -> timeouts.forOperation(OperationTimeouts.Operation.MONITOR, DEFAULT_STATUS_TIMEOUT);
        };
        return ProcessSpec.of(timeout, script.toString(), action);
    }

    private ProcessResult run(String action) throws IOException {
        return runner.run(spec(action));
    }

    private AgentResult change(String action) {
        LOG.info("Running {} {}", script, action);
        ProcessResult r;
        try {
            r = run(action);
        } catch (IOException e) {
            LOG.error("Cannot run {} {}: {}", script, action, e.getMessage());
            return AgentResult.failed(action + " could not run: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (r.timedOut()) {
            LOG.error("{} {} timed out after {} ms", script, action, spec(action).timeout().toMillis());
            return AgentResult.failed(action + " timed out after " + spec(action).timeout().toMillis() + " ms",
                    AgentResult.NO_EXIT_CODE);
        }
        if (r.exitCode() == 0) {
            return new AgentResult(AgentOutcome.OK, "", 0);
        }
        String why = r.stderr().strip().lines().findFirst().orElse(r.stdout().strip().lines().findFirst().orElse(""));
        String message = action + " " + LsbExitCode.describe(r.exitCode()) + (why.isEmpty() ? "" : ": " + why);
        LOG.error("{} {}: {}", script, action, message);
        return AgentResult.failed(message, r.exitCode());
    }

    @Override
    public AgentResult start() {
        return change("start");
    }

    @Override
    public AgentResult stop() {
        return change("stop");
    }

    @Override
    public AgentResult status() {
        ProcessResult r;
        try {
            r = run("status");
        } catch (IOException e) {
            return AgentResult.failed("status could not run: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (r.timedOut()) {
            return AgentResult.failed("status timed out after " + spec("status").timeout().toMillis() + " ms",
                    AgentResult.NO_EXIT_CODE);
        }
        LsbStatus s = LsbStatus.of(r.exitCode());
        return new AgentResult(s.outcome(), "status rc=" + r.exitCode() + " (" + s.meaning() + ")", r.exitCode());
    }

    /** @return {@code true}: Heartbeat's "stop must succeed when already stopped" warning applies */
    @Override
    public boolean isScript() {
        return true;
    }

    @Override
    public ResourceClass resourceClass() {
        return ResourceClass.LSB;
    }

    @Override
    public String toString() {
        return "LsbAgent[" + script + "]";
    }
}
