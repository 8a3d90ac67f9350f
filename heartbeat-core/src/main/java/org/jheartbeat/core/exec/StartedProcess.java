package org.jheartbeat.core.exec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A program started by {@link OsProcessRunner#start} that the caller watches while it runs (e.g.
 * {@code arping}, whose first probe is confirmed from {@code /proc/PID} before it exits) or leaves to
 * run on its own (a director's callback). Standard input is {@code /dev/null}, standard output is
 * discarded, standard error goes to a file of which the first bytes are kept, as {@link OsProcessRunner#run}
 * does. The program tree is killed with SIGKILL when the spec's timeout passes.
 */
public final class StartedProcess {
    private final Process process;
    private final Path stderrFile;
    private final int maxStderrBytes;
    private String stderr;

    StartedProcess(Process process, Path stderrFile, int maxStderrBytes) {
        this.process = process;
        this.stderrFile = stderrFile;
        this.maxStderrBytes = maxStderrBytes;
        process.onExit().thenRun(this::readStderr);
    }

    /** @return the operating system's process id of the program */
    public long pid() {
        return process.pid();
    }

    /** @return whether the program still runs */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** @return its exit code, once it has exited (completed on a JDK thread; never on timeout) */
    public CompletableFuture<Integer> onExit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /**
     * Waits for the program to end.
     *
     * @param timeout longest wait, positive
     * @return its exit code, or {@link ProcessResult#NO_EXIT_CODE} if it still runs after {@code timeout}
     *         (it is left running)
     * @throws InterruptedException if interrupted while waiting (the program tree is killed first)
     */
    public int awaitExit(Duration timeout) throws InterruptedException {
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                return ProcessResult.NO_EXIT_CODE;
            }
        } catch (InterruptedException e) {
            kill();
            throw e;
        }
        return process.exitValue();
    }

    /**
     * @return the first bytes of its standard error (UTF-8, stripped) once it has exited; empty before
     */
    public synchronized String stderr() {
        if (stderr == null && !process.isAlive()) {
            readStderr();
        }
        return stderr == null ? "" : stderr;
    }

    /** Kills the program and every descendant alive now, with SIGKILL. Idempotent. */
    public void kill() {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    private synchronized void readStderr() {
        if (stderr != null) {
            return;
        }
        try (InputStream in = Files.newInputStream(stderrFile)) {
            stderr = new String(in.readNBytes(maxStderrBytes), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            stderr = "";
        } finally {
            try {
                LeftoverCaptures.shared().adopt(stderrFile); // its background children may still write to it
            } catch (IOException e) {
                // a temporary file left behind; the program's result stands
            }
        }
    }
}
