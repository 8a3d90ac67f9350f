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
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.runtime.CheckFactory;
import org.jheartbeat.director.runtime.ControlSocket;
import org.jheartbeat.director.runtime.DirectorDaemon;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.IpvsadmBackend;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs daemon CONFIG}: the director in the foreground. Owns the choice of table backend
 * (kernel IPVS through ipvsadm, or the user-space director), the single-instance check on the control
 * socket, the pid file, and the SIGHUP (reload) and shutdown (clean stop) wiring of a
 * {@link DirectorDaemon}.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = "Run the director for an ldirectord.cf in the foreground (SIGHUP reloads, SIGTERM stops:"
                + " with cleanstop=yes its services are removed from the table).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped cleanly", "1:could not start (table unreadable, socket in use)",
            "2:invalid configuration", "64:usage error"})
public final class LvsDaemonCommand implements Callable<Integer> {
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

    @Mixin
    StateDirOption stateDir;

    @Mixin
    ConfigDirOption configDir;

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
                        pp.add(new java.net.InetSocketAddress(LvsCommand.numeric(
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
        Path path = LvsCommand.resolveConfig(file);
        PrintWriter err = spec.commandLine().getErr();
        java.util.Optional<LdirectordConfig> loaded = LvsCommand.load(path, err, "the director");
        if (loaded.isEmpty()) {
            return ExitCodes.CONFIG;
        }
        LdirectordConfig cfg = loaded.get();
        // a usage error (an unknown --backend) is refused before anything is logged or written
        org.jheartbeat.director.table.TableBackend table = backend();
        List<org.jheartbeat.core.config.ConfigDiagnostic> topology = DrTopologyProbe.host().warnings(cfg);
        topology.forEach(d -> err.println(d.format()));
        String log = logFile != null ? logFile : cfg.globals().logFile();
        LvsLogging.configure(path, log, debug);
        // the topology warnings in the director's log too, where an admin looks when a real gets no traffic
        topology.forEach(d -> org.slf4j.LoggerFactory.getLogger(org.jheartbeat.director.topology.DrTopology.class)
                .warn(d.format()));
        Path sock = socket != null ? socket : LvsCommand.socketFor(path);
        if (Files.exists(sock)) {
            try {
                ControlSocket.request(sock, "ping", 2_000);
                closeBackend(table);
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
        LvsEvents events = LvsEvents.open(stateDir.path(), path, org.jheartbeat.cli.daemon.Daemon.unameN(),
                org.jheartbeat.core.time.WallClocks.system());
        try {
            d = new DirectorDaemon(cfg, table, CheckFactory.standard(), sock, events.listener());
        } catch (BackendException e) {
            closeBackend(table);
            events.close();
            throw new UserException(ExitCodes.FAILURE, "cannot read the " + table.name() + " table: "
                    + e.getMessage());
        } catch (IOException | RuntimeException e) {
            closeBackend(table);
            events.close();
            throw e;
        }
        // jheartbeat.yaml director: metrics: listen: this node's entry, if any
        java.util.Optional<LvsMetrics> metrics = LvsMetrics.start(configDir.path(),
                org.jheartbeat.cli.daemon.Daemon.unameN(), d.director());
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
            metrics.ifPresent(LvsMetrics::close);
            d.close();
            closeBackend(table);
            events.close();
        } finally {
            if (pidFile != null) {
                Files.deleteIfExists(pidFile);
            }
            LvsLogging.close();
            closed.countDown();
        }
        return ExitCodes.OK;
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
}
