package org.jheartbeat.cli.alert;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.exec.StartedProcess;

/**
 * Runs one alert script to its end or its timeout, on the caller's thread (a rule's worker). The script
 * starts through {@code setsid}, so it leads a process group of its own; past the timeout that whole group
 * is killed with SIGKILL ({@code kill -KILL -- -PGID}), then any descendant that left the group, as
 * Pacemaker kills an alert agent past its timeout. Standard input is {@code /dev/null}, standard output is
 * discarded, the first bytes of standard error are kept for the log.
 */
final class AlertScripts {
    /** How an alert script ended. */
    enum Ending {
        /** exit status 0 */
        OK,
        /** another exit status */
        FAILED,
        /** killed past its timeout */
        TIMED_OUT
    }

    /**
     * @param ending how it ended
     * @param detail the exit status and the start of its standard error, for the log
     */
    record Outcome(Ending ending, String detail) {
    }

    /** Slack between our own kill at the timeout and the runner's last-resort kill of the tree. */
    private static final Duration RUNNER_SLACK = Duration.ofSeconds(10);
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(5);

    private final OsProcessRunner runner;
    private final String setsid;

    /**
     * @param runner starts the script and {@code kill}
     * @param setsid the {@code setsid} program (util-linux), a name on PATH or a path
     */
    AlertScripts(OsProcessRunner runner, String setsid) {
        this.runner = runner;
        this.setsid = setsid;
    }

    /**
     * Runs {@code script} with {@code env} added to the daemon's environment.
     *
     * @throws IOException if it cannot be started (missing, not executable)
     * @throws InterruptedException if the worker is stopped while it runs (the group is killed first)
     */
    Outcome run(Path script, Map<String, String> env, Duration timeout) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(setsid, script.toString()));
        StartedProcess p = runner.start(new ProcessSpec(argv, env, timeout.plus(RUNNER_SLACK)));
        int code;
        try {
            code = p.awaitExit(timeout);
        } catch (InterruptedException e) {
            killGroup(p);
            throw e;
        }
        if (code == ProcessResult.NO_EXIT_CODE && p.isAlive()) {
            killGroup(p);
            return new Outcome(Ending.TIMED_OUT, "still running after " + timeout.toMillis() + " ms; its process"
                    + " group was killed");
        }
        String err = p.stderr();
        String detail = "exit status " + code + (err.isEmpty() ? "" : ": " + oneLine(err));
        return new Outcome(code == 0 ? Ending.OK : Ending.FAILED, detail);
    }

    /** SIGKILL to the script's process group (its pid: setsid made it the leader), then to its tree. */
    private void killGroup(StartedProcess p) {
        try {
            runner.run(ProcessSpec.of(KILL_TIMEOUT, "kill", "-KILL", "--", "-" + p.pid()));
        } catch (IOException e) {
            // the tree kill below still gets the script and what it started
        }
        p.kill();
    }

    private static String oneLine(String s) {
        String t = s.replaceAll("[\\x00-\\x1f\\x7f]+", " ").strip();
        return t.length() > 300 ? t.substring(0, 300) + "..." : t;
    }
}
