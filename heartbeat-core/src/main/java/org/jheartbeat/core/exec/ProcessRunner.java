package org.jheartbeat.core.exec;

import java.io.IOException;

/**
 * Port for running an external program to completion. Implementations block the calling thread
 * until the program exits or its {@link ProcessSpec#timeout()} expires, whichever comes first;
 * callers that must not block (the cluster loop) run this on a worker thread. The real adapter is
 * {@link OsProcessRunner}; tests use the testkit's {@code RecordingProcessRunner}.
 */
@FunctionalInterface
public interface ProcessRunner {
    /**
     * Runs the program and waits for it.
     *
     * @param spec what to run, with its environment and timeout
     * @return exit code, captured output, and whether the program had to be killed on timeout;
     *         a non-zero exit is a normal result, not an exception
     * @throws IOException if the program cannot be started at all (missing, not executable) or
     *                     its output cannot be captured
     * @throws java.io.InterruptedIOException if the calling thread is interrupted while waiting;
     *                     the program tree is killed first and the interrupt flag is restored
     */
    ProcessResult run(ProcessSpec spec) throws IOException;
}
