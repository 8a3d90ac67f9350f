package org.jheartbeat.resources.systemd;

import java.io.IOException;
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
 * A systemd unit ({@code systemd:UNIT}) for machines where systemd is PID 1:
 * <ul>
 *   <li>start: {@code systemctl start UNIT}, which waits for the start job to finish (systemctl's
 *       default, no {@code --no-block}); then {@code systemctl is-active UNIT} must say {@code active}
 *       (a unit whose start job succeeded may already have died), else FAILED;</li>
 *   <li>stop: {@code systemctl stop UNIT} (waits for the stop job); then {@code is-active} must not
 *       say the unit is still up, else FAILED;</li>
 *   <li>status: {@code systemctl is-active UNIT}: {@link UnitState}.</li>
 * </ul>
 * This follows Pacemaker's {@code systemd} class, which starts and stops units through the same
 * jobs (over D-Bus) and reads {@code ActiveState}. Timeouts: haresources {@code op_*timeout}, else
 * 100 s for start/stop (Pacemaker's systemd default) and 20 s for status. Blocking.
 */
public final class SystemdAgent implements ResourceAgent {
    /** Default start/stop limit: 100 s. */
    public static final Duration DEFAULT_START_STOP_TIMEOUT = Duration.ofSeconds(100);
    /** Default is-active limit: 20 s. */
    public static final Duration DEFAULT_STATUS_TIMEOUT = Duration.ofSeconds(20);
    private static final Logger LOG = LoggerFactory.getLogger(SystemdAgent.class);

    /**
     * What {@code systemctl is-active} printed, and what it means here: {@code active}, {@code
     * reloading}, {@code activating}, {@code deactivating} are RUNNING (processes may still be
     * there); {@code inactive} and {@code failed} are STOPPED; anything else FAILED.
     */
    public enum UnitState {
        ACTIVE(AgentOutcome.RUNNING), RELOADING(AgentOutcome.RUNNING), ACTIVATING(AgentOutcome.RUNNING),
        DEACTIVATING(AgentOutcome.RUNNING), INACTIVE(AgentOutcome.STOPPED), FAILED(AgentOutcome.STOPPED),
        UNKNOWN(AgentOutcome.FAILED);

        private final AgentOutcome outcome;

        UnitState(AgentOutcome outcome) {
            this.outcome = outcome;
        }

        /** @return RUNNING, STOPPED or FAILED */
        public AgentOutcome outcome() {
            return outcome;
        }

        /** @param stdout the output of {@code systemctl is-active} @return the state of its first line */
        public static UnitState parse(String stdout) {
            String word = stdout.strip().lines().findFirst().orElse("").strip();
            for (UnitState s : values()) {
                if (s != UNKNOWN && s.name().toLowerCase(java.util.Locale.ROOT).equals(word)) {
                    return s;
                }
            }
            return UNKNOWN;
        }
    }

    private final String unit;
    private final OperationTimeouts timeouts;
    private final ProcessRunner runner;
    private final String systemctl;

    /**
     * @param ref       the typed resource
     * @param runner    runs {@code systemctl}
     * @param systemctl the program, normally {@code systemctl} (looked up on PATH)
     */
    public SystemdAgent(AgentRef.Systemd ref, ProcessRunner runner, String systemctl) {
        this.unit = ref.unit();
        this.timeouts = ref.timeouts();
        this.runner = Objects.requireNonNull(runner, "runner");
        this.systemctl = Objects.requireNonNull(systemctl, "systemctl");
    }

    /** @param verb start, stop or is-active @return the command line for it */
    public ProcessSpec spec(String verb) {
        Duration timeout = switch (verb) {
            case "start" -> timeouts.forOperation(OperationTimeouts.Operation.START, DEFAULT_START_STOP_TIMEOUT);
            case "stop" -> timeouts.forOperation(OperationTimeouts.Operation.STOP, DEFAULT_START_STOP_TIMEOUT);
            default -> timeouts.forOperation(OperationTimeouts.Operation.MONITOR, DEFAULT_STATUS_TIMEOUT);
        };
        return new ProcessSpec(List.of(systemctl, verb, unit), java.util.Map.of(), timeout);
    }

    private AgentResult job(String verb) {
        ProcessSpec spec = spec(verb);
        LOG.info("Running {}", spec.commandLine());
        ProcessResult r;
        try {
            r = runner.run(spec);
        } catch (IOException e) {
            return AgentResult.failed(verb + " could not run: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (r.timedOut()) {
            return AgentResult.failed(spec.commandLine() + " timed out after " + spec.timeout().toMillis() + " ms",
                    AgentResult.NO_EXIT_CODE);
        }
        if (r.exitCode() != 0) {
            String why = r.stderr().strip().lines().findFirst().orElse("");
            LOG.error("{} returned {}: {}", spec.commandLine(), r.exitCode(), why);
            return AgentResult.failed(spec.commandLine() + " returned " + r.exitCode()
                    + (why.isEmpty() ? "" : ": " + why), r.exitCode());
        }
        AgentResult after = status();
        boolean wanted = verb.equals("start") ? after.isRunning() : after.outcome() == AgentOutcome.STOPPED;
        if (!wanted) {
            LOG.error("{} succeeded but {} is {}", spec.commandLine(), unit, after.message());
            return AgentResult.failed(verb + " job finished but the unit is " + after.message(), after.exitCode());
        }
        return new AgentResult(AgentOutcome.OK, "", 0);
    }

    @Override
    public AgentResult start() {
        return job("start");
    }

    @Override
    public AgentResult stop() {
        return job("stop");
    }

    @Override
    public AgentResult status() {
        ProcessResult r;
        try {
            r = runner.run(spec("is-active"));
        } catch (IOException e) {
            return AgentResult.failed("is-active could not run: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (r.timedOut()) {
            return AgentResult.failed("is-active timed out", AgentResult.NO_EXIT_CODE);
        }
        UnitState s = UnitState.parse(r.stdout());
        String word = s == UnitState.UNKNOWN ? "unknown (" + r.stdout().strip() + r.stderr().strip() + ")"
                : s.name().toLowerCase(java.util.Locale.ROOT);
        return new AgentResult(s.outcome(), word, r.exitCode());
    }

    @Override
    public ResourceClass resourceClass() {
        return ResourceClass.SYSTEMD;
    }

    @Override
    public String toString() {
        return "SystemdAgent[" + unit + "]";
    }
}
