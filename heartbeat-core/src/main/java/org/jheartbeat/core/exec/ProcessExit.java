package org.jheartbeat.core.exec;

/**
 * How a program run with {@link OsProcessRunner#stream} ended; its output went to the caller's
 * streams.
 *
 * @param exitCode the exit status (0..255), or {@link ProcessResult#NO_EXIT_CODE} when the program
 *                 was killed on timeout
 * @param timedOut {@code true} when the runner killed the program tree because its
 *                 {@link ProcessSpec#timeout()} expired
 */
public record ProcessExit(int exitCode, boolean timedOut) {
}
