package org.jheartbeat.resources.drbd;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in {@code drbddisk[::RESOURCE]} (Heartbeat's DRBD wrapper from drbd-utils, {@code
 * /etc/ha.d/resource.d/drbddisk}, same commands and meaning; RESOURCE defaults to {@code all}):
 * <ul>
 *   <li>start: {@code drbdadm primary RES}; a refusal (the peer may still be primary while it
 *       demotes) is tried again after 1 s, at most {@link #PROMOTE_ATTEMPTS} times in all;</li>
 *   <li>stop: {@code drbdadm secondary RES}; the group runner's stop retries apply on failure;</li>
 *   <li>status: {@code drbdadm role RES}: the local role is the first word (DRBD 8 prints {@code
 *       Primary/Secondary}, DRBD 9 {@code Primary}): {@code Primary} is RUNNING, {@code Secondary}
 *       STOPPED, anything else (drbdadm failed, {@code Unknown}) FAILED, which never counts as
 *       stopped after a failed stop ({@link #failedStatusMeansStopped()}).</li>
 * </ul>
 * Blocking; call off the loop thread.
 */
public final class DrbdDiskAgent implements ResourceAgent {
    /** The agent name in haresources. */
    public static final String NAME = "drbddisk";
    /** Attempts of {@code drbdadm primary}: 6 (one per second). */
    public static final int PROMOTE_ATTEMPTS = 6;
    /** Limit of one drbdadm run: 30 s. */
    public static final Duration DRBDADM_TIMEOUT = Duration.ofSeconds(30);
    private static final Logger LOG = LoggerFactory.getLogger(DrbdDiskAgent.class);

    private final String resource;
    private final ProcessRunner runner;
    private final Sleeper sleeper;
    private final String drbdadm;

    /**
     * @param args    the haresources arguments: none ({@code all}) or one DRBD resource name
     * @param runner  runs drbdadm
     * @param sleeper pauses between promotion attempts
     * @param drbdadm the program, normally {@code drbdadm} on PATH
     * @throws org.jheartbeat.resources.ResourceAgentException if more than one argument is given
     */
    public DrbdDiskAgent(List<String> args, ProcessRunner runner, Sleeper sleeper, String drbdadm) {
        if (args.size() > 1) {
            throw new org.jheartbeat.resources.ResourceAgentException("drbddisk takes one DRBD resource name, got "
                    + args);
        }
        this.resource = args.isEmpty() || args.get(0).isEmpty() ? "all" : args.get(0);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        this.drbdadm = Objects.requireNonNull(drbdadm, "drbdadm");
    }

    /** @param verb primary, secondary or role @return the command line */
    public ProcessSpec spec(String verb) {
        return ProcessSpec.of(DRBDADM_TIMEOUT, drbdadm, verb, resource);
    }

    private AgentResult run(String verb) {
        ProcessSpec spec = spec(verb);
        LOG.info("Running {}", spec.commandLine());
        try {
            ProcessResult r = runner.run(spec);
            if (r.succeeded()) {
                return new AgentResult(AgentOutcome.OK, "", 0);
            }
            String why = r.timedOut() ? "timed out" : "returned " + r.exitCode() + ": " + r.stderr().strip();
            LOG.error("{} {}", spec.commandLine(), why);
            return AgentResult.failed(spec.commandLine() + " " + why, r.exitCode());
        } catch (IOException e) {
            return AgentResult.failed("cannot run " + spec.commandLine() + ": " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
    }

    @Override
    public AgentResult start() {
        AgentResult last = run("primary");
        for (int attempt = 2; !last.isOk() && attempt <= PROMOTE_ATTEMPTS; attempt++) {
            try {
                sleeper.pause(Duration.ofSeconds(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
            last = run("primary");
        }
        return last;
    }

    @Override
    public AgentResult stop() {
        return run("secondary");
    }

    @Override
    public AgentResult status() {
        ProcessResult r;
        try {
            r = runner.run(spec("role"));
        } catch (IOException e) {
            return AgentResult.failed("cannot run drbdadm role: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (!r.succeeded()) {
            return AgentResult.failed("drbdadm role " + resource + (r.timedOut() ? " timed out" : " returned "
                    + r.exitCode() + ": " + r.stderr().strip()), r.exitCode());
        }
        String role = r.stdout().strip().split("[/\\s]", 2)[0];
        return switch (role) {
            case "Primary" -> new AgentResult(AgentOutcome.RUNNING, "role Primary", 0);
            case "Secondary" -> new AgentResult(AgentOutcome.STOPPED, "role Secondary", 0);
            default -> AgentResult.failed("role " + (role.isEmpty() ? "not printed" : role), 0);
        };
    }

    /** @return {@code false}: a DRBD device whose role is unknown may still be primary */
    @Override
    public boolean failedStatusMeansStopped() {
        return false;
    }

    @Override
    public String toString() {
        return "DrbdDiskAgent[" + resource + "]";
    }
}
