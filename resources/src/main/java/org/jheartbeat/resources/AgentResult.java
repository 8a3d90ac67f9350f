package org.jheartbeat.resources;

import java.util.Objects;

/**
 * The result of one agent operation.
 *
 * @param outcome  what the operation concluded
 * @param message  one human-readable line for logs (e.g. the script's stderr, or "already
 *                 running"); never {@code null}
 * @param exitCode the exit status of the program that ran (0..255), or {@link #NO_EXIT_CODE} when
 *                 no program ran or it was killed on timeout
 */
public record AgentResult(AgentOutcome outcome, String message, int exitCode) {
    /** Exit code used when no program ran (built-in decisions, lookups) or it timed out. */
    public static final int NO_EXIT_CODE = -1;

    public AgentResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(message, "message");
    }

    /** @param message log line @return an {@link AgentOutcome#OK} result without exit code */
    public static AgentResult ok(String message) {
        return new AgentResult(AgentOutcome.OK, message, NO_EXIT_CODE);
    }

    /** @param message log line @param exitCode exit status @return a {@link AgentOutcome#FAILED} result */
    public static AgentResult failed(String message, int exitCode) {
        return new AgentResult(AgentOutcome.FAILED, message, exitCode);
    }

    /** @param message log line @return a {@link AgentOutcome#RUNNING} status result */
    public static AgentResult running(String message) {
        return new AgentResult(AgentOutcome.RUNNING, message, NO_EXIT_CODE);
    }

    /** @param message log line @return a {@link AgentOutcome#STOPPED} status result */
    public static AgentResult stopped(String message) {
        return new AgentResult(AgentOutcome.STOPPED, message, NO_EXIT_CODE);
    }

    /** @return {@code true} for {@link AgentOutcome#RUNNING} only */
    public boolean isRunning() {
        return outcome == AgentOutcome.RUNNING;
    }

    /** @return {@code true} for {@link AgentOutcome#OK} only */
    public boolean isOk() {
        return outcome == AgentOutcome.OK;
    }

    @Override
    public String toString() {
        return outcome + (exitCode == NO_EXIT_CODE ? "" : " (rc=" + exitCode + ")")
                + (message.isEmpty() ? "" : ": " + message);
    }
}
