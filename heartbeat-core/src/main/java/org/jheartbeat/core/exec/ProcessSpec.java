package org.jheartbeat.core.exec;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to run: a program and its arguments (no shell is involved), extra environment variables
 * and a wall-clock limit.
 *
 * @param argv    program followed by its arguments, at least one element, none {@code null};
 *                {@code argv.get(0)} is an absolute path or a name looked up on {@code PATH}
 * @param env     variables added to (or overriding) the inherited environment; may be empty
 * @param timeout how long the program may run before it and its descendants are killed; must be
 *                positive (a resolution of 1 ms is used)
 * @throws IllegalArgumentException if argv is empty or timeout is not positive
 */
public record ProcessSpec(List<String> argv, Map<String, String> env, Duration timeout) {
    public ProcessSpec {
        argv = List.copyOf(argv);
        env = Map.copyOf(env);
        Objects.requireNonNull(timeout, "timeout");
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv must name a program");
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    /**
     * A spec with no extra environment.
     *
     * @param timeout limit for the run, positive
     * @param argv    program and arguments
     * @return the spec
     */
    public static ProcessSpec of(Duration timeout, String... argv) {
        return new ProcessSpec(List.of(argv), Map.of(), timeout);
    }

    /**
     * A spec with no extra environment.
     *
     * @param timeout limit for the run, positive
     * @param argv    program and arguments
     * @return the spec
     */
    public static ProcessSpec of(Duration timeout, List<String> argv) {
        return new ProcessSpec(argv, Map.of(), timeout);
    }

    /** @return argv joined by single blanks, for log lines (no quoting) */
    public String commandLine() {
        return String.join(" ", argv);
    }
}
