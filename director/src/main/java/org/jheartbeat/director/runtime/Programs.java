package org.jheartbeat.director.runtime;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.exec.StartedProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The programs ldirectord.cf names to run beside the director: {@code fallbackcommand} and {@code callback}. */
final class Programs {
    private static final Logger LOG = LoggerFactory.getLogger(Director.class);

    private Programs() {
    }

    /**
     * Longest a fallbackcommand or callback may run before it and its children are killed. ldirectord
     * waits for them ({@code system()}), blocking itself; here they run beside the director, so a hung one
     * must still end.
     */
    static final Duration PROGRAM_LIMIT = Duration.ofMinutes(10);
    private static final OsProcessRunner PROGRAMS = new OsProcessRunner();

    /** Starts a program (fallbackcommand, callback) without waiting; its end is logged. */
    /** {@code fallbackcommand}'s argv: its words, then {@code start|stop VIP:PORT PROTO}, as ldirectord runs it. */
    static List<String> fallbackArgv(String cmd, String verb, org.jheartbeat.director.config.ServiceKey k) {
        List<String> a = new java.util.ArrayList<>(List.of(cmd.trim().split("\\s+")));
        a.add(verb);
        a.add(k.address());
        a.add(k.protocol().configName());
        return a;
    }

    static void start(List<String> argv) {
        start(PROGRAMS, argv, PROGRAM_LIMIT);
    }

    /**
     * Starts a program through the project's process runner without waiting; a failure to start, a
     * non-zero exit (with the start of its stderr) is logged.
     *
     * @return its exit code when it ends, or {@link ProcessResult#NO_EXIT_CODE} if it could not start
     */
    static CompletableFuture<Integer> start(OsProcessRunner runner, List<String> argv, Duration limit) {
        ProcessSpec spec = ProcessSpec.of(limit, argv);
        try {
            StartedProcess p = runner.start(spec);
            return p.onExit().thenApply(code -> {
                if (code != 0) {
                    LOG.warn("{} exited with status {}{}", spec.commandLine(), code,
                            p.stderr().isEmpty() ? "" : ": " + p.stderr().lines().findFirst().orElse(""));
                }
                return code;
            });
        } catch (IOException e) {
            LOG.error("Cannot run {}: {}", spec.commandLine(), e.getMessage());
            return CompletableFuture.completedFuture(ProcessResult.NO_EXIT_CODE);
        }
    }
}
