package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
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
            LvsCommand.Reload.class, LvsCommand.RealServer.class})
public final class LvsCommand extends CommandGroup {
    /** Where the control sockets of running directors live. */
    static final Path RUN_DIR = Path.of("/run/jheartbeat");

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

        @Option(names = "--backend", paramLabel = "auto|ipvs|userspace", defaultValue = "${env:HB_LVS_BACKEND:-auto}",
                description = "Where the virtual-service table lives: the kernel's IPVS (through ipvsadm), the"
                        + " user-space director (a TCP/UDP proxy), or auto: IPVS when this kernel has it, else user"
                        + " space (default: $HB_LVS_BACKEND, else ${DEFAULT-VALUE}).")
        String backend;

        @Option(names = "--proxy-protocol", paramLabel = "RIP:PORT",
                description = "User space: send this real server a PROXY protocol v1 header so it sees the client's"
                        + " address (repeatable).")
        List<String> proxyProtocol = new ArrayList<>();

        /** The backend asked for, or chosen by the kernel's features. */
        org.jheartbeat.director.table.TableBackend backend() throws UserException {
            String b = backend == null ? "auto" : backend.strip();
            if (b.equals("auto")) {
                b = org.jheartbeat.director.userspace.KernelIpvs.present() ? "ipvs" : "userspace";
            }
            switch (b) {
                case "ipvs":
                    return new IpvsadmBackend(ipvsadm, IpvsadmBackendRunner.OS, 3, java.time.Duration.ofMillis(200),
                            java.time.Duration.ofSeconds(10));
                case "userspace": {
                    java.util.Set<java.net.InetSocketAddress> pp = new java.util.HashSet<>();
                    for (String rp : proxyProtocol) {
                        int colon = rp.lastIndexOf(':');
                        try {
                            pp.add(new java.net.InetSocketAddress(numeric(
                                    rp.substring(0, colon).replace("[", "").replace("]", "")),
                                    Integer.parseInt(rp.substring(colon + 1))));
                        } catch (RuntimeException e) {
                            throw new UserException(ExitCodes.USAGE, "--proxy-protocol " + rp + ": not a numeric"
                                    + " RIP:PORT; give the real server as ldirectord.cf's real= line names it");
                        }
                    }
                    org.jheartbeat.director.userspace.SchedulingFactory f =
                            org.jheartbeat.director.userspace.SchedulingFactory.installed().orElseThrow(() ->
                                    new UserException(ExitCodes.FAILURE, "this build has no user-space scheduler"
                                            + " (org.jheartbeat.director.userspace.SchedulingFactory); use --backend"
                                            + " ipvs on a kernel with IPVS"));
                    return new org.jheartbeat.director.userspace.UserspaceBackend(f,
                            org.jheartbeat.director.userspace.UserspaceOptions.defaults().withProxyProtocol(pp));
                }
                default:
                    throw new UserException(ExitCodes.USAGE, "--backend " + b + ": unknown; use auto, ipvs or"
                            + " userspace");
            }
        }

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
            org.jheartbeat.director.table.TableBackend table = backend();
            try {
                d = new DirectorDaemon(cfg, table, CheckFactory.standard(), sock, a -> { });
            } catch (BackendException e) {
                closeBackend(table);
                throw new UserException(ExitCodes.FAILURE, "cannot read the " + table.name() + " table: "
                        + e.getMessage());
            } catch (IOException | RuntimeException e) {
                closeBackend(table);
                throw e;
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
                closeBackend(table);
            } finally {
                if (pidFile != null) {
                    Files.deleteIfExists(pidFile);
                }
                LvsLogging.close();
                closed.countDown();
            }
            return ExitCodes.OK;
        }
    }

    /** {@code hb lvs realserver VIP [--undo] [--dnat]}. */
    @Command(name = "realserver", mixinStandardHelpOptions = true,
            description = "Make this host an LVS-DR real server for VIP: VIP/32 on lo with arp_ignore=1 and"
                    + " arp_announce=2 (the kernel uses the larger of conf/all and conf/IFACE), or with --dnat an"
                    + " iptables nat REDIRECT rule for VIP instead. Idempotent; prints what it changed.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:in place (or undone)", "1:a change failed", "64:usage error"})
    public static final class RealServer implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "VIP", description = "The virtual IPv4 address.")
        String vip;

        @Option(names = "--undo", description = "Remove the VIP from lo (or the rule) and restore the ARP"
                + " sysctls this command changed.")
        boolean undo;

        @Option(names = "--dnat", description = "An iptables nat PREROUTING -d VIP/32 -j REDIRECT rule instead of"
                + " the VIP on lo.")
        boolean dnat;

        @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
                description = "Where the replaced sysctl values are kept for --undo (default: ${DEFAULT-VALUE}).")
        Path stateDir;

        @Override
        public Integer call() throws Exception {
            java.net.InetAddress a;
            try {
                a = numeric(vip);
            } catch (IllegalArgumentException e) {
                a = null;
            }
            if (!(a instanceof java.net.Inet4Address)) {
                throw new UserException(ExitCodes.USAGE, "VIP '" + vip + "' is not a numeric IPv4 address;"
                        + " give the virtual address of ldirectord.cf's virtual= line");
            }
            PrintWriter out = spec.commandLine().getOut();
            Path state = stateFile(vip, stateDir, undo);
            java.util.Map<String, Integer> recorded = readState(vip, state);
            List<String> changes;
            try {
                if (undo) {
                    changes = org.jheartbeat.director.realserver.RealServerSetup.undo(OS_HOST, vip, dnat, recorded);
                    Files.deleteIfExists(state);
                } else {
                    org.jheartbeat.director.realserver.RealServerSetup.Outcome o =
                            org.jheartbeat.director.realserver.RealServerSetup.setUp(OS_HOST, vip, dnat);
                    changes = o.changes();
                    o.replaced().forEach(recorded::putIfAbsent);
                    if (!recorded.isEmpty()) {
                        Files.createDirectories(stateDir);
                        StringBuilder sb = new StringBuilder();
                        recorded.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
                        Files.writeString(state, sb.toString());
                    }
                    o.notes().forEach(n -> out.println("  " + n));
                }
            } catch (IOException e) {
                throw new UserException(ExitCodes.FAILURE, "realserver " + vip + ": " + e.getMessage());
            }
            if (changes.isEmpty()) {
                out.println(undo ? "nothing to undo for " + vip : "already in place for " + vip + ": nothing changed");
            }
            changes.forEach(c -> out.println("changed: " + c));
            out.flush();
            return ExitCodes.OK;
        }
    }

    /**
     * The state file of {@code hb lvs realserver VIP}, checked before anything is changed: {@code stateDir}
     * must be given and, unless undoing, able to keep the values the command replaces (created if missing).
     *
     * @return {@code stateDir/lvs-realserver-VIP.state}
     * @throws UserException exit 64 for an empty {@code --state-dir}; exit 1 naming the directory and why,
     *                       "Nothing changed"
     */
    public static Path stateFile(String vip, Path stateDir, boolean undo) throws UserException {
        if (stateDir.toString().isEmpty()) {
            throw new UserException(ExitCodes.USAGE, "--state-dir is empty; give the directory that keeps the"
                    + " values for --undo (default /var/lib/jheartbeat)");
        }
        if (!undo) {
            checkStateDir(vip, stateDir);
        }
        return stateDir.resolve("lvs-realserver-" + vip + ".state");
    }

    private static void checkStateDir(String vip, Path stateDir) throws UserException {
        String why = null;
        try {
            Files.createDirectories(stateDir);
            if (!Files.isWritable(stateDir)) {
                why = "not writable";
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            why = "it exists and is not a directory";
        } catch (IOException e) {
            why = e.getMessage();
        }
        if (why != null) {
            throw new UserException(ExitCodes.FAILURE, "realserver " + vip + ": cannot keep the values it"
                    + " replaces (for --undo) in --state-dir " + stateDir + ": " + why + "; give a writable"
                    + " directory. Nothing changed");
        }
    }

    /**
     * The values a previous {@code hb lvs realserver} replaced ({@code SYSCTL=NUMBER} lines); empty when
     * the file does not exist.
     *
     * @throws UserException exit 1, {@code FILE:LINE: ...}, for a line that is not {@code SYSCTL=NUMBER}
     */
    public static java.util.Map<String, Integer> readState(String vip, Path state) throws UserException {
        java.util.Map<String, Integer> recorded = new java.util.LinkedHashMap<>();
        if (!Files.exists(state)) {
            return recorded;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(state, java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "realserver " + vip + ": cannot read " + state + " ("
                    + e.getMessage() + "); nothing changed");
        }
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int eq = l.indexOf('=');
            try {
                if (eq > 0) {
                    recorded.put(l.substring(0, eq), Integer.parseInt(l.substring(eq + 1).strip()));
                    continue;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            if (!l.isBlank()) {
                throw new UserException(ExitCodes.FAILURE, state + ":" + (i + 1) + ": not SYSCTL=NUMBER as this"
                        + " command writes it; correct or delete the file (then set the ARP sysctls by hand)."
                        + " Nothing changed");
            }
        }
        return recorded;
    }

    /** The real host: /proc/sys and the ip/iptables programs. */
    static final org.jheartbeat.director.realserver.RealServerSetup.Host OS_HOST =
            new org.jheartbeat.director.realserver.RealServerSetup.Host() {
                private final Path conf = Path.of("/proc/sys/net/ipv4/conf");

                @Override
                public List<String> interfaces() throws IOException {
                    try (java.util.stream.Stream<Path> s = Files.list(conf)) {
                        return s.map(p -> p.getFileName().toString())
                                .filter(n -> !n.equals("all") && !n.equals("default")).sorted().toList();
                    }
                }

                @Override
                public int sysctl(String iface, String name) throws IOException {
                    return Integer.parseInt(Files.readString(conf.resolve(iface).resolve(name)).strip());
                }

                @Override
                public void setSysctl(String iface, String name, int value) throws IOException {
                    Files.writeString(conf.resolve(iface).resolve(name), value + "\n");
                }

                @Override
                public boolean loopbackHas(String vip) throws IOException {
                    return exec(List.of("ip", "-4", "-o", "addr", "show", "dev", "lo")).out()
                            .contains(" " + vip + "/32 ");
                }

                @Override
                public void run(List<String> argv) throws IOException {
                    Exec r = exec(argv);
                    if (r.code() != 0) {
                        throw new IOException(String.join(" ", argv) + " failed (exit " + r.code() + "): "
                                + r.out().strip());
                    }
                }

                @Override
                public boolean succeeds(List<String> argv) throws IOException {
                    return exec(argv).code() == 0;
                }

                private Exec exec(List<String> argv) throws IOException {
                    ProcessResult r = new OsProcessRunner().run(new ProcessSpec(argv, java.util.Map.of(),
                            java.time.Duration.ofSeconds(30)));
                    if (r.timedOut()) {
                        throw new IOException(argv.get(0) + " did not finish within 30 s");
                    }
                    return new Exec(r.exitCode(), r.stdout() + r.stderr());
                }
            };

    private record Exec(int code, String out) {
    }

    /** A numeric address literal (IPv4 dotted quad or IPv6), never looked up in DNS. */
    static java.net.InetAddress numeric(String s) {
        if (!s.matches("\\d{1,3}(\\.\\d{1,3}){3}") && !s.matches("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException("not a numeric address: " + s);
        }
        try {
            return java.net.InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("not a numeric address: " + s);
        }
    }

    private static void closeBackend(org.jheartbeat.director.table.TableBackend b) {
        if (b instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                // stopping anyway
            }
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
            exitCodeList = {"0:printed", "1:the table could not be read",
                "3:no director runs and ipvsadm is not installed", "64:usage error"})
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
            if (answer == null && !onPath(ipvsadm)) {
                throw new UserException(ExitCodes.NOT_RUNNING, "no director answers on " + sock + " and " + ipvsadm
                        + " is not installed, so there is no table to show: start the director (hb lvs daemon CONFIG),"
                        + " name its config or --socket, or install ipvsadm for the kernel's table");
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

    /** Whether {@code program} (a path, or a name looked up in {@code $PATH}) is an executable file. */
    static boolean onPath(String program) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program));
        }
        String path = System.getenv("PATH");
        for (String d : (path == null ? "/usr/sbin:/usr/bin:/sbin:/bin" : path).split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
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
                if (!Files.exists(sock)) {
                    // connecting to a missing Unix socket fails with a bare "No such file or directory"
                    throw new java.nio.file.NoSuchFileException(sock.toString());
                }
                answer = ControlSocket.request(sock, "reload", 60_000);
            } catch (java.net.ConnectException | java.nio.file.NoSuchFileException e) {
                throw new UserException(ExitCodes.NOT_RUNNING, "no director runs for this config (no socket " + sock
                        + "); start it with hb lvs daemon CONFIG, or give a running director's --socket");
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
