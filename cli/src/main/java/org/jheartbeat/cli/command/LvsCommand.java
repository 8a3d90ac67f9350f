package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jheartbeat.cli.ExitCodes;
import org.jheartbeat.cli.UserException;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.runtime.CheckFactory;
import org.jheartbeat.director.runtime.ControlSocket;
import org.jheartbeat.director.runtime.DirectorDaemon;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.IpvsadmBackend;
import org.jheartbeat.director.table.ListView;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs ...}: the load-balancing director (ldirectord.cf, health checks, the IPVS table).
 * The commands are thin: the work is in the {@code director} module.
 */
@Command(name = "lvs", mixinStandardHelpOptions = true,
        description = "The load-balancing director: ldirectord.cf, health checks and the IPVS table.",
        subcommands = {LvsCommand.Check.class, LvsCommand.Daemon.class, LvsCommand.Status.class,
            LvsCommand.Reload.class})
public final class LvsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Where the control sockets of running directors live. */
    static final Path RUN_DIR = Path.of("/run/jheartbeat");

    @Override
    public Integer call() {
        return org.jheartbeat.cli.CommandGroups.missingCommand(spec);
    }

    /**
     * The config file for a name as ldirectord 4.x finds it: a bare name is looked up as
     * {@code /etc/ha.d/NAME}, then {@code /etc/ha.d/conf/NAME}, then as given; default
     * {@code ldirectord.cf}.
     */
    static Path resolveConfig(String name) {
        String n = name == null ? "ldirectord.cf" : name;
        if (!n.contains("/")) {
            for (Path p : List.of(Path.of("/etc/ha.d", n), Path.of("/etc/ha.d/conf", n))) {
                if (Files.isRegularFile(p)) {
                    return p;
                }
            }
        }
        return Path.of(n);
    }

    /** The control socket of the director of a config: {@code /run/jheartbeat/lvs-NAME.sock}. */
    static Path socketFor(Path config) {
        return RUN_DIR.resolve("lvs-" + config.getFileName() + ".sock");
    }

    /**
     * Reads a config and checks that every check it asks for exists in this build; the problems
     * sorted by line.
     */
    static LdirectordParser.Result read(Path file, CheckFactory checks) {
        LdirectordParser.Result r = new LdirectordParser().parse(file);
        if (r.config().isEmpty()) {
            return r;
        }
        List<ConfigDiagnostic> all = new ArrayList<>(r.diagnostics());
        for (VirtualService v : r.config().get().virtuals()) {
            if (v.checkType().equals("on") || v.checkType().equals("off")) {
                continue;
            }
            try {
                checks.create(v);
            } catch (IllegalArgumentException e) {
                all.add(ConfigDiagnostic.error(file, v.line(), "virtual " + v.key().address() + ": " + e.getMessage()
                        + "; choose another checktype or service"));
            }
        }
        all.sort(java.util.Comparator.comparingInt(ConfigDiagnostic::line));
        boolean errors = all.stream().anyMatch(ConfigDiagnostic::isError);
        return new LdirectordParser.Result(errors ? java.util.Optional.empty() : r.config(), all);
    }

    /** {@code hb lvs check FILE}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Check an ldirectord.cf; print every problem as file:line: message.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:valid (warnings may be printed)", "2:at least one error", "64:usage error"})
    public static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
                description = "The config (a bare name is looked up in /etc/ha.d and /etc/ha.d/conf;"
                        + " default ldirectord.cf).")
        String file;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Path path = resolveConfig(file);
            long t0 = System.nanoTime();
            LdirectordParser.Result r = read(path, CheckFactory.standard());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            for (ConfigDiagnostic d : r.diagnostics()) {
                (d.isError() ? err : out).println(d.format());
            }
            long n = r.diagnostics().stream().filter(ConfigDiagnostic::isError).count();
            if (n > 0) {
                err.println(n + " error(s) in " + path + "; fix them before starting the director.");
                return ExitCodes.CONFIG;
            }
            LdirectordConfig c = r.config().orElseThrow();
            out.println(path + ": configuration OK (" + c.virtuals().size() + " virtual service(s), "
                    + c.virtuals().stream().mapToInt(v -> v.reals().size()).sum() + " real server(s), read in " + ms
                    + " ms)");
            return ExitCodes.OK;
        }
    }

    /** {@code hb lvs daemon CONFIG}: the director in the foreground. */
    @Command(name = "daemon", mixinStandardHelpOptions = true,
            description = "Run the director for an ldirectord.cf in the foreground (SIGHUP reloads, SIGTERM stops:"
                    + " with cleanstop=yes its services are removed from the table).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:stopped cleanly", "1:could not start (table unreadable, socket in use)",
                "2:invalid configuration", "64:usage error"})
    public static final class Daemon implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG", description = "The ldirectord.cf.")
        String file;

        @Option(names = "--socket", paramLabel = "PATH",
                description = "Control socket (default /run/jheartbeat/lvs-CONFIGNAME.sock).")
        Path socket;

        @Option(names = "--ipvsadm", paramLabel = "PROGRAM", defaultValue = "ipvsadm",
                description = "The ipvsadm program (default: ${DEFAULT-VALUE} from PATH).")
        String ipvsadm;

        @Option(names = "--pid-file", paramLabel = "PATH", description = "Write the daemon's PID here.")
        Path pidFile;

        @Option(names = "--log-file", paramLabel = "PATH",
                description = "Log here instead of the config's logfile (a path; 'none' for standard error only).")
        String logFile;

        @Option(names = {"-d", "--debug"}, description = "Also print debug lines.")
        boolean debug;

        @Override
        public Integer call() throws Exception {
            Path path = resolveConfig(file);
            LdirectordParser.Result r = read(path, CheckFactory.standard());
            PrintWriter err = spec.commandLine().getErr();
            r.diagnostics().forEach(d -> err.println(d.format()));
            if (r.config().isEmpty()) {
                err.println("hb: " + path + " has errors; the director was not started");
                return ExitCodes.CONFIG;
            }
            LdirectordConfig cfg = r.config().get();
            String log = logFile != null ? logFile : cfg.globals().logFile();
            LvsLogging.configure(path, log, debug);
            Path sock = socket != null ? socket : socketFor(path);
            if (Files.exists(sock)) {
                try {
                    ControlSocket.request(sock, "ping", 2_000);
                    throw new UserException(ExitCodes.FAILURE, "a director already runs for " + path + " (socket "
                            + sock + "); stop it first");
                } catch (IOException e) {
                    // a stale socket: replaced below
                }
            }
            if (pidFile != null) {
                Files.createDirectories(pidFile.toAbsolutePath().getParent());
                Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
            }
            DirectorDaemon d;
            try {
                d = new DirectorDaemon(cfg, new IpvsadmBackend(ipvsadm, IpvsadmBackendRunner.OS, 3,
                        java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(10)), CheckFactory.standard(),
                        sock, a -> { });
            } catch (BackendException e) {
                throw new UserException(ExitCodes.FAILURE, "cannot read the IPVS table: " + e.getMessage());
            }
            CountDownLatch stopped = new CountDownLatch(1);
            CountDownLatch closed = new CountDownLatch(1);
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> {
                Thread t = new Thread(() -> {
                    try {
                        d.reload();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "lvs-sighup");
                t.setDaemon(true);
                t.start();
            });
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stopped.countDown();
                try {
                    closed.await(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "lvs-shutdown"));
            stopped.await();
            try {
                d.close();
            } finally {
                if (pidFile != null) {
                    Files.deleteIfExists(pidFile);
                }
                closed.countDown();
            }
            return ExitCodes.OK;
        }
    }

    /** The view options of {@code hb lvs status}, as ipvsadm's. */
    static final class ViewOptions {
        @Option(names = "--stats", description = "Totals: connections, packets and bytes in and out.")
        boolean stats;

        @Option(names = "--rate", description = "Rates: connections, packets and bytes per second.")
        boolean rate;

        @Option(names = {"-c", "--connection"}, description = "The connection entries.")
        boolean connections;
    }

    /** {@code hb lvs status [CONFIG]}. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Print the virtual-service table as 'ipvsadm -L -n' prints it, from the running director"
                    + " (or from the table itself when none runs).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:printed", "1:the table could not be read", "64:usage error"})
    public static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG",
                description = "The director's config (to find its socket); default ldirectord.cf.")
        String file;

        @Option(names = "--socket", paramLabel = "PATH", description = "The director's control socket.")
        Path socket;

        @Option(names = "--ipvsadm", paramLabel = "PROGRAM", defaultValue = "ipvsadm",
                description = "ipvsadm, when no director runs (default: ${DEFAULT-VALUE}).")
        String ipvsadm;

        @ArgGroup(exclusive = true)
        ViewOptions view = new ViewOptions();

        @Option(names = "--json", description = "JSON instead of ipvsadm's layout.")
        boolean json;

        @Override
        public Integer call() throws Exception {
            ListView v = view.stats ? ListView.STATS : view.rate ? ListView.RATE : ListView.DEFAULT;
            Path sock = socket != null ? socket : socketFor(resolveConfig(file));
            String answer = null;
            if (Files.exists(sock)) {
                try {
                    answer = ControlSocket.request(sock, "status " + v.name() + " " + (view.connections ? 1 : 0) + " "
                            + (json ? "json" : "text"), 30_000);
                } catch (java.net.ConnectException | java.nio.file.NoSuchFileException e) {
                    answer = null; // a stale socket: read the table itself
                }
            }
            if (answer == null) {
                try {
                    answer = "OK\n" + DirectorDaemon.render(new IpvsadmBackend(ipvsadm, IpvsadmBackendRunner.OS, 1,
                            java.time.Duration.ofMillis(1), java.time.Duration.ofSeconds(10))
                            .status(v, view.connections), v, view.connections, json);
                } catch (BackendException e) {
                    throw new UserException(ExitCodes.FAILURE, "cannot read the table: " + e.getMessage());
                }
            }
            if (!answer.startsWith("OK\n")) {
                throw new UserException(ExitCodes.FAILURE, answer.startsWith("ERR ") ? answer.substring(4).strip()
                        : "unexpected answer from the director: " + answer.strip());
            }
            PrintWriter out = spec.commandLine().getOut();
            out.print(answer.substring(3));
            out.flush();
            return ExitCodes.OK;
        }
    }

    /** {@code hb lvs reload [CONFIG]}. */
    @Command(name = "reload", mixinStandardHelpOptions = true,
            description = "Make the running director re-read its ldirectord.cf and apply only what changed.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:applied", "2:the file has errors (the running config is kept)",
                "3:no director runs for this config", "64:usage error"})
    public static final class Reload implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG", description = "The director's config.")
        String file;

        @Option(names = "--socket", paramLabel = "PATH", description = "The director's control socket.")
        Path socket;

        @Override
        public Integer call() throws Exception {
            Path sock = socket != null ? socket : socketFor(resolveConfig(file));
            String answer;
            try {
                answer = ControlSocket.request(sock, "reload", 60_000);
            } catch (java.net.ConnectException | java.nio.file.NoSuchFileException e) {
                throw new UserException(ExitCodes.NOT_RUNNING, "no director runs for this config (no socket " + sock
                        + ")");
            }
            String body = answer.substring(answer.indexOf('\n') + 1);
            spec.commandLine().getErr().print(body);
            spec.commandLine().getErr().flush();
            if (answer.startsWith("OK\n")) {
                return ExitCodes.OK;
            }
            spec.commandLine().getErr().println("hb: " + answer.lines().findFirst().orElse("").replaceFirst("^ERR ", ""));
            return ExitCodes.CONFIG;
        }
    }
}
