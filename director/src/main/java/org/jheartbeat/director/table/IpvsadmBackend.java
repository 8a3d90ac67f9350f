package org.jheartbeat.director.table;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jheartbeat.core.exec.BoundedOutput;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessExit;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.director.config.ServiceKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kernel's IPVS table, driven through the {@code ipvsadm} program (1.31 syntax). Several
 * commands go in one {@code ipvsadm -R} run; one command runs as {@code ipvsadm ARGS}, as
 * ldirectord runs it. When a run fails, the table is read back ({@code ipvsadm -S -n}) and only
 * the difference between it and the wanted table is applied again, for the services the commands
 * touched (never {@code -C}, never another service), up to {@code attempts} times; what still
 * differs is thrown as a {@link BackendException}.
 */
public final class IpvsadmBackend implements TableBackend {
    private static final Logger LOG = LoggerFactory.getLogger(IpvsadmBackend.class);

    /** Runs a program with some stdin and returns what it did. */
    @FunctionalInterface
    public interface Runner {
        /**
         * @throws IOException if it cannot be started or is killed at its timeout
         */
        Result run(List<String> argv, String stdin, Duration timeout) throws IOException;
    }

    /** An exit code with output. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    private final String program;
    /** The one process runner; its {@code stream} feeds stdin, which ipvsadm -R reads. */
    private static final OsProcessRunner OS = new OsProcessRunner();

    private final Runner runner;
    private final int attempts;
    private final Duration retryDelay;
    private final Duration timeout;

    /** ipvsadm from PATH, 3 attempts 200 ms apart, 10 s per run. */
    public IpvsadmBackend() {
        this("ipvsadm", IpvsadmBackend::runProcess, 3, Duration.ofMillis(200), Duration.ofSeconds(10));
    }

    /**
     * @param program    the ipvsadm program (a path, or a name on PATH)
     * @param runner     how programs are run
     * @param attempts   how many times a failing apply is tried in all (at least 1)
     * @param retryDelay the pause between attempts
     * @param timeout    the bound of one ipvsadm run
     */
    public IpvsadmBackend(String program, Runner runner, int attempts, Duration retryDelay, Duration timeout) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts < 1");
        }
        this.program = program;
        this.runner = runner;
        this.attempts = attempts;
        this.retryDelay = retryDelay;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "ipvs";
    }

    @Override
    public TableSnapshot read() throws BackendException {
        Result r = run(List.of("-S", "-n"), "");
        try {
            return IpvsadmText.readSave(r.stdout());
        } catch (IpvsadmText.FormatException e) {
            throw new BackendException(e.getMessage(), List.of());
        }
    }

    @Override
    public TableSnapshot status(ListView view, boolean connections) throws BackendException {
        try {
            TableSnapshot t = IpvsadmText.readList(run(List.of("-L", "-n"), "").stdout());
            if (view != ListView.DEFAULT) {
                String option = view == ListView.STATS ? "--stats" : "--rate";
                t = IpvsadmText.withFigures(t, run(List.of("-L", "-n", option), "").stdout(), view);
            }
            if (connections) {
                t = new TableSnapshot(t.services(),
                        IpvsadmText.readConnections(run(List.of("-L", "-n", "-c"), "").stdout()));
            }
            return t;
        } catch (IpvsadmText.FormatException e) {
            throw new BackendException(e.getMessage(), List.of());
        }
    }

    private Result run(List<String> args, String stdin) throws BackendException {
        List<String> argv = new ArrayList<>();
        argv.add(program);
        argv.addAll(args);
        Result r;
        try {
            r = runner.run(argv, stdin, timeout);
        } catch (IOException e) {
            throw new BackendException(program + " " + String.join(" ", args) + ": " + e.getMessage(), List.of());
        }
        if (r.exitCode() != 0) {
            throw new BackendException(program + " " + String.join(" ", args) + " failed (exit " + r.exitCode()
                    + "): " + r.stderr().strip(), List.of());
        }
        return r;
    }

    @Override
    public void syncActive(org.jheartbeat.director.config.SyncSettings sync) throws BackendException {
        runSync(SyncDaemonCommands.active(sync));
        LOG.info("Connection sync: master daemon on {}", sync.iface());
    }

    @Override
    public void syncStandby(org.jheartbeat.director.config.SyncSettings sync) throws BackendException {
        runSync(SyncDaemonCommands.standby(sync));
        LOG.info("Connection sync: backup daemon on {}", sync.iface());
    }

    /**
     * A node of the pair at boot ({@code hb lvs syncd}): starts the backup daemon unless a sync daemon runs
     * here already (a master: this node's director runs; a backup: nothing to do).
     *
     * @return whether the backup daemon was started
     */
    public boolean syncBoot(org.jheartbeat.director.config.SyncSettings sync) throws BackendException {
        if (run(List.of("-L", "--daemon"), "").stdout().contains("sync daemon")) {
            return false;
        }
        run(SyncDaemonCommands.boot(sync), "");
        LOG.info("Connection sync: backup daemon on {}", sync.iface());
        return true;
    }

    /** Runs each command; a stop of a daemon that is not running is expected, any other failure is thrown. */
    private void runSync(List<List<String>> commands) throws BackendException {
        for (List<String> args : commands) {
            try {
                run(args, "");
            } catch (BackendException e) {
                if (!(args.get(0).equals("--stop-daemon") && e.getMessage().contains(SyncDaemonCommands.NOT_RUNNING))) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void apply(List<TableCommand> commands) throws BackendException {
        if (commands.isEmpty()) {
            return;
        }
        String failure;
        try {
            runBatch(commands);
            return;
        } catch (BackendException e) {
            failure = e.getMessage();
        }
        // the wanted table: what was there before this batch with the batch applied
        Set<ServiceKey> scope = new LinkedHashSet<>();
        commands.forEach(c -> scope.add(c.service()));
        List<TableCommand> remaining = commands;
        IpvsTable wanted = null;
        for (int attempt = 2; attempt <= attempts + 1; attempt++) {
            IpvsTable current;
            try {
                current = IpvsTable.of(read());
            } catch (BackendException e) {
                failure = failure + "; reading the table back: " + e.getMessage();
                sleep();
                continue;
            }
            if (wanted == null) {
                wanted = wantedFrom(current, commands);
            }
            remaining = TableDiff.between(current, wanted, scope);
            if (remaining.isEmpty()) {
                return;
            }
            if (attempt > attempts) {
                break;
            }
            LOG.warn("ipvsadm failed ({}); retrying {} command(s), attempt {} of {}", failure, remaining.size(),
                    attempt, attempts);
            sleep();
            try {
                runBatch(remaining);
            } catch (BackendException e) {
                failure = e.getMessage();
            }
        }
        throw new BackendException("after " + attempts + " attempts the table still lacks " + remaining.size()
                + " change(s) (" + failure + "): " + remaining.stream().map(TableCommand::commandLine).toList(),
                remaining);
    }

    /**
     * The table the batch means: the commands applied in order to the current table, skipping
     * those already in effect (a batch interrupted half-way has applied its first part).
     */
    private static IpvsTable wantedFrom(IpvsTable current, List<TableCommand> commands) {
        IpvsTable w = IpvsTable.of(current.snapshot());
        for (TableCommand c : commands) {
            w.apply(c);
        }
        return w;
    }

    private void runBatch(List<TableCommand> commands) throws BackendException {
        if (commands.size() == 1) {
            run(commands.get(0).args(), "");
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (TableCommand c : commands) {
            sb.append(String.join(" ", c.args())).append('\n');
        }
        run(List.of("-R"), sb.toString());
    }

    private void sleep() {
        try {
            Thread.sleep(retryDelay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A runner that starts real processes with these extra environment variables (tests point a
     * recording ipvsadm at its table file this way).
     */
    public static Runner processes(java.util.Map<String, String> env) {
        java.util.Map<String, String> copy = java.util.Map.copyOf(env);
        return (argv, stdin, timeout) -> runProcess(argv, stdin, timeout, copy);
    }

    static Result runProcess(List<String> argv, String stdin, Duration timeout) throws IOException {
        return runProcess(argv, stdin, timeout, java.util.Map.of());
    }

    /**
     * Runs a program through the one process runner ({@link OsProcessRunner#stream}), feeding it
     * {@code stdin}, keeping up to 4 MiB of each output stream, killing its tree at the timeout.
     *
     * @throws IOException if it cannot be started, or it was killed at the timeout
     */
    static Result runProcess(List<String> argv, String stdin, Duration timeout, java.util.Map<String, String> env)
            throws IOException {
        // ipvsadm's connection listing can be long
        BoundedOutput out = new BoundedOutput(4 << 20);
        BoundedOutput err = new BoundedOutput(4 << 20);
        ProcessExit exit = OS.stream(new ProcessSpec(argv, env, timeout),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out, err);
        if (exit.timedOut()) {
            throw new IOException(argv.get(0) + " did not finish within " + timeout.toMillis() + " ms");
        }
        return new Result(exit.exitCode(), out.text(), err.text());
    }
}
