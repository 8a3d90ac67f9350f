package org.jheartbeat.core.exec;

import java.util.Objects;

/**
 * How a program ended and what it printed.
 *
 * @param exitCode the exit status (0..255), or {@link #NO_EXIT_CODE} when the program was killed
 *                 on timeout and no status is meaningful
 * @param stdout   captured standard output, decoded as UTF-8, possibly truncated to the runner's
 *                 limit (64 KiB for {@link OsProcessRunner}); never {@code null}
 * @param stderr   captured standard error, same rules as stdout
 * @param timedOut {@code true} when the runner killed the program because its
 *                 {@link ProcessSpec#timeout()} expired
 */
public record ProcessResult(int exitCode, String stdout, String stderr, boolean timedOut) {
    /** Exit code reported for a program that was killed on timeout. */
    public static final int NO_EXIT_CODE = -1;

    public ProcessResult {
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
    }

    /**
     * A clean exit with the given status and output, for fakes and tests.
     *
     * @param exitCode exit status 0..255
     * @param stdout   standard output
     * @return the result, with empty stderr and {@code timedOut == false}
     */
    public static ProcessResult exited(int exitCode, String stdout) {
        return new ProcessResult(exitCode, stdout, "", false);
    }

    /** @return {@code true} when the program exited by itself with status 0 */
    public boolean succeeded() {
        return exitCode == 0 && !timedOut;
    }
}
