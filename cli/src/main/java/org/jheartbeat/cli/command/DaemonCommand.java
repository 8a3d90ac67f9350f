package org.jheartbeat.cli.command;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jheartbeat.cli.ExitCodes;
import org.jheartbeat.cli.UserException;
import org.jheartbeat.cli.logging.DaemonLog;
import org.jheartbeat.cli.logging.LogSetup;
import org.jheartbeat.cli.runtime.HostChecks;
import org.jheartbeat.cli.stonith.DeviceFencer;
import org.jheartbeat.cli.stonith.StonithSetup;
import org.jheartbeat.core.loop.Fencer;
import org.jheartbeat.cli.runtime.ResourceGroupExecutor;
import org.jheartbeat.cli.runtime.SyncConfigFile;
import org.jheartbeat.cli.runtime.SyncRuntime;
import org.jheartbeat.sync.config.SyncConfig;
import java.util.concurrent.atomic.AtomicReference;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.media.serial.SerialMedium;
import org.jheartbeat.core.media.udp.UdpMedium;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.WallClock;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.group.StartupProbe;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hb daemon}: runs a cluster node in the foreground until SIGTERM/SIGINT, then releases its
 * resource groups, tells the peer ({@code shutdone}) and exits. Assembles the daemon: config,
 * logging, state directory, start-up release of groups found running here ({@link StartupProbe}), media,
 * resource runner, cluster loop and control socket. A missing resource script fails only its group.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = "Run this cluster node in the foreground (stop it with SIGTERM).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped cleanly", "1:could not start (medium, state directory, already running)",
            "2:invalid configuration", "64:usage error"})
public final class DaemonCommand implements java.util.concurrent.Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** How long an orderly shutdown may take to release every group, in s. */
    private static final long SHUTDOWN_TIMEOUT_S = 600;

    @Spec
    CommandSpec spec;

    @Option(names = "--config-dir", paramLabel = "DIR", defaultValue = "/etc/ha.d",
            description = "Configuration directory with ha.cf, authkeys, haresources (default: ${DEFAULT-VALUE}).")
    Path configDir;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
            description = "Run-time state: control socket, generation, pid file (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--node-name", paramLabel = "NAME",
            description = "This node's name (default: uname -n, lowercased).")
    String nodeName;

    @Option(names = "--debug", description = "Also print debug lines on standard error.")
    boolean debug;

    @Option(names = "--self-fence-command", paramLabel = "CMD",
            description = {"Reset this node by running CMD (sh -c) when a resource cannot be stopped (Heartbeat's"
                    + " reboot after a failed stop), e.g. 'systemctl reboot --force --force'. The peer then starts the"
                    + " group once this node is gone. Default: no self-fencing; the group stays blocked here and the"
                    + " peer fences this node if it has a STONITH device (docs/design/takeover.md, \"Failures\")."})
    String selfFenceCommand;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        StateDirectory state = new StateDirectory(stateDir);
        // first of all: a second daemon on this state directory must not touch the config, the
        // STONITH device (its lock), the media or the state files of the running one
        refuseIfRunning(state);
        NodeName me = NodeName.of(nodeName != null ? nodeName : unameN());
        ConfigLoadResult loaded = ConfigLoader.load(configDir, Optional.of(me));
        List<ConfigDiagnostic> problems = new ArrayList<>(loaded.diagnostics());
        loaded.config().ifPresent(c -> problems.addAll(new HostChecks(Path.of("/etc/init.d")).check(c)));
        // a missing resource script fails only its own group (logged CRIT in run), not the whole daemon
        List<HostChecks.MissingScript> missingScripts = loaded.config().map(c -> new HostChecks(Path.of("/etc/init.d"))
                .missingScripts(c.configDir(), c.resourceGroups())).orElse(List.of());
        problems.removeAll(missingScripts.stream().map(HostChecks.MissingScript::diagnostic).toList());
        missingScripts.forEach(m -> err.println(m.diagnostic().format() + " (resource group " + m.key()
                + " will fail to start; the daemon starts anyway)"));
        for (ConfigDiagnostic d : problems) {
            err.println(d.format());
        }
        err.flush();
        StonithSetup.Outcome stonith = loaded.config().isPresent() && problems.stream().noneMatch(ConfigDiagnostic::isError)
                ? StonithSetup.open(loaded.config().get(), me, true) : null;
        if (stonith != null) {
            stonith.problems().forEach(d -> err.println(d.format()));
            err.flush();
        }
        if (problems.stream().anyMatch(ConfigDiagnostic::isError) || loaded.config().isEmpty()
                || stonith != null && stonith.failed()) {
            throw new UserException(ExitCodes.CONFIG, "configuration errors in " + configDir + "; not starting");
        }
        ClusterConfig config = loaded.config().get();
        if (config.peerOf(me).isEmpty()) {
            throw new UserException(ExitCodes.CONFIG, configDir.resolve("ha.cf") + ":0: two nodes are needed, "
                    + "this node and its peer; add a 'node' line for the peer");
        }
        SyncConfig sync = SyncConfigFile.load(configDir, Optional.of(config));
        try {
            state.create();
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "cannot use state directory " + stateDir + ": "
                    + (e instanceof java.nio.file.FileAlreadyExistsException ? "it exists and is not a directory" : e));
        }
        DaemonLog log = LogSetup.configureDaemon(config.logging(), me.value(), debug);
        try {
            Fencer fencer = stonith.device().<Fencer>map(DeviceFencer::new).orElse(Fencer.NONE);
            if (selfFenceCommand != null) {
                fencer = new org.jheartbeat.cli.stonith.SelfFencingFencer(fencer, selfFenceCommand,
                        new OsProcessRunner());
            }
            return run(config, sync, me, state, fencer,
                    log, missingScripts);
        } catch (UserException | IOException | RuntimeException e) {
            LOG.error("cannot start: {}", e.getMessage());
            throw e;
        } finally {
            log.close(); // the last lines ("Heartbeat shutdown complete.") reach the log files
        }
    }

    private int run(ClusterConfig config, SyncConfig sync, NodeName me, StateDirectory state, Fencer fencer,
                    DaemonLog log, List<HostChecks.MissingScript> missingScripts) throws UserException, IOException {
        config.logging().logfacility().ifPresent(f ->
                LOG.warn("logfacility {} is not wired to syslog yet; logging to files and stderr only", f));

        MonotonicClock clock = MonotonicClock.system();
        WallClock wall = WallClock.system();
        long generation = state.bumpGeneration(wall.currentTimeMillis() / 1000);
        byte[] uuid = state.nodeUuid();
        LOG.info("Configuration validated. Starting jheartbeat 0.1.0 (Heartbeat 3.0.6 protocol) as node {}", me);
        LOG.info("Heartbeat generation: {}", generation);
        for (HostChecks.MissingScript m : missingScripts) {
            LOG.error(ClusterLoop.CRIT, "Resource group {} cannot start on this node: {} ({}:{}); the other groups run",
                    m.key(), m.diagnostic().message(), m.diagnostic().file(), m.diagnostic().line());
        }
        // before the first heartbeat: join holding nothing (issue 11 point 7; docs/design/resources.md)
        StartupProbe.Result startup = new StartupProbe(new ResourceGroupRunner(StandardResourceAgents.forHost(
                config.configDir(), Path.of("/etc/init.d"), new OsProcessRunner())))
                .releaseRunningGroups(config.resourceGroups());

        OutboundStamper stamper = new OutboundStamper(me, uuid, generation,
                new MessageAuthenticator(config.authKeys()), DaemonCommand::loadAverage);
        NodeEngine engine = new NodeEngine(config, me, stamper, ThreadLocalRandom.current().nextInt(10), clock.nanoTime());
        EventLoopGroup netty = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        List<Medium> media = new ArrayList<>();
        for (MediumDecl d : config.media()) {
            if (HostChecks.pointsAtThisMachine(d)) {
                LOG.info("ucast line {} names this machine: not used on this node", d.line());
                continue;
            }
            media.add(d instanceof MediumDecl.Serial s
                    ? new SerialMedium(Path.of(s.device()), s.baud(), s.device())
                    : new UdpMedium(d, netty));
        }
        AtomicReference<ClusterLoop> loopRef = new AtomicReference<>();
        SyncRuntime syncRuntime = new SyncRuntime(sync, me.value(),
                SyncRuntime.fromFuture(() -> loopRef.get().snapshot()), java.time.Clock.systemUTC());
        engine.machine().selfFenceOnStopFailure(selfFenceCommand != null);
        // a group that could not be released stays BLOCKED here, and the peer is told at comm up
        startup.unreleased().forEach(i -> engine.machine().blockedAtStartup(i,
                "found running at start-up and could not be stopped"));
        ClusterLoop loop = new ClusterLoop(config, engine, media, new ResourceGroupExecutor(config, syncRuntime),
                fencer, clock, wall);
        loopRef.set(loop);
        config.stonithFor(me).ifPresentOrElse(
                d -> LOG.info("STONITH device: {} (ha.cf line {})", d.type(), d.line()),
                () -> LOG.warn("No STONITH device configured: a peer that only looks dead is not fenced"));
        try {
            loop.start();
        } catch (IOException e) {
            netty.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new UserException(ExitCodes.FAILURE, "cannot start heartbeat media: " + e.getMessage());
        }
        AtomicReference<ControlServer> controlRef = new AtomicReference<>();
        ControlServer control = new ControlServer(state.controlSocket(), req -> handle(req, loop, config, syncRuntime,
                log::droppedLines, () -> controlRef.get().stats()));
        controlRef.set(control);
        control.start();
        syncRuntime.start();
        Files.writeString(state.pidFile(), ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);

        installSignalHandlers(loop, control, netty, state);
        loop.exited().join();
        syncRuntime.close();
        finish(loop, control, netty, state);
        return ExitCodes.OK;
    }

    /**
     * SIGTERM and SIGINT start an orderly shutdown (release every group, {@code shutdone}, exit 0);
     * SIGHUP is logged and ignored: it must never cause a failover. (Heartbeat 3.0.6 re-reads
     * authkeys on SIGHUP; jheartbeat does not reload yet, so restart the daemon to apply changes.)
     */
    private static void installSignalHandlers(ClusterLoop loop, ControlServer control, EventLoopGroup netty,
                                              StateDirectory state) {
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        for (String name : List.of("TERM", "INT")) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
                if (!stopping.compareAndSet(false, true)) {
                    LOG.info("Received SIG{} again: shutdown already in progress.", name);
                    return;
                }
                LOG.info("Received SIG{}: Heartbeat shutdown in progress.", name);
                Thread t = new Thread(() -> {
                    try {
                        loop.shutdown().get(SHUTDOWN_TIMEOUT_S, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        LOG.error("orderly shutdown did not finish: {}", e.toString());
                    }
                }, "hb-shutdown");
                t.setDaemon(true);
                t.start();
            });
        }
        sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> LOG.warn(
                "Received SIGHUP: configuration reload is not implemented yet; ignored (restart the daemon to apply"
                + " changes)"));
    }

    private static void finish(ClusterLoop loop, ControlServer control, EventLoopGroup netty, StateDirectory state) {
        LOG.info("Heartbeat shutdown complete.");
        control.close();
        loop.close();
        netty.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        try {
            Files.deleteIfExists(state.pidFile());
        } catch (IOException e) {
            LOG.debug("removing pid file: {}", e.getMessage());
        }
    }

    /**
     * Answers one control request ({@link ControlRequest}): status (text or JSON), cl_status, the
     * config digests ({@link org.jheartbeat.core.control.ConfigDigestReport}), the groups running here
     * (what {@code hb sync run} checks), or an operator hand-over, which waits for the exchange to end,
     * at most its timeout. Runs on a control-server worker thread; only a hand-over waits long.
     * {@code status} ends with {@code Log lines dropped: N} and {@code Control clients: ...}, and
     * {@code status-json} carries {@code "log_dropped":N} and {@code "control_clients":{...}}: lines the
     * daemon's log outputs dropped rather than block ({@code logDropped}, see {@link LogSetup}), and the
     * control-socket clients that were refused or dropped ({@link ControlServer.Stats}).
     */
    static ControlResponse handle(ControlRequest request, ClusterLoop loop, ClusterConfig config, SyncRuntime sync,
                                  LongSupplier logDropped, Supplier<ControlServer.Stats> controlStats) {
        if (request instanceof ControlRequest.Handover h) {
            return handover(h, loop, sync);
        }
        if (request instanceof ControlRequest.Cleanup c) {
            return cleanup(c, loop, config);
        }
        if (request instanceof ControlRequest.StonithStatus) {
            try {
                org.jheartbeat.core.loop.Fencer.Result r = loop.stonithStatus().get(120, TimeUnit.SECONDS);
                return r.fenced() ? ControlResponse.ok(r.detail() + "\n") : ControlResponse.error(r.detail());
            } catch (Exception e) {
                return ControlResponse.error("STONITH status not available: " + e);
            }
        }
        StatusSnapshot snap;
        try {
            if (request instanceof ControlRequest.ConfigDigest) {
                return ControlResponse.ok(loop.configDigests().get(5, TimeUnit.SECONDS).toText());
            }
            snap = loop.snapshot().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            return ControlResponse.error("status not available: " + e);
        }
        if (request instanceof ControlRequest.Status st) {
            ControlServer.Stats c = controlStats.get();
            return ControlResponse.ok(st.json()
                    ? SyncRuntime.appendMembers(SyncRuntime.appendMembers(snap.toJson(), sync.statusJson()),
                            "\"running\":true,\"log_dropped\":" + logDropped.getAsLong()
                            + ",\"control_clients\":{\"bad_requests\":"
                            + c.malformed() + ",\"silent_dropped\":" + c.silent() + ",\"turned_away\":" + c.busy()
                            + ",\"slow_readers\":" + c.slowReaders() + "}") + "\n"
                    : snap.render() + sync.renderStatus() + "Log lines dropped: " + logDropped.getAsLong() + "\n"
                            + "Control clients: " + c.malformed() + " bad requests, " + c.silent()
                            + " dropped for sending nothing, " + c.busy() + " turned away (busy), " + c.slowReaders()
                            + " did not read the answer\n");
        }
        if (request instanceof ControlRequest.ClStatus cl) {
            var a = org.jheartbeat.cli.runtime.ClStatus.answer(cl.args(), snap, config);
            return ControlResponse.ok(a.exitCode() + "\n" + a.output());
        }
        if (request instanceof ControlRequest.GroupsRunning) {
            return ControlResponse.ok(SyncRuntime.runningHere(snap).stream().sorted().map(k -> k + "\n")
                    .collect(java.util.stream.Collectors.joining()));
        }
        throw new IllegalStateException("unhandled control request " + request.toWire());
    }

    /**
     * {@code hb cleanup [GROUP]}: clears failures (here and, through the peer, there); answers with the
     * resource groups as they stand afterwards. An unknown group is refused.
     */
    private static ControlResponse cleanup(ControlRequest.Cleanup c, ClusterLoop loop, ClusterConfig config) {
        int index = -1;
        if (c.group().isPresent()) {
            String g = c.group().get();
            var groups = config.resourceGroups();
            for (int i = 0; i < groups.size() && index < 0; i++) {
                if (groups.get(i).key().equals(g) || g.equals(Integer.toString(i + 1))) {
                    index = i;
                }
            }
            if (index < 0) {
                return ControlResponse.refused("no resource group " + g + " in haresources (name it by its key, the"
                        + " first resource of its line, or its number; see hb resources list)");
            }
        }
        try {
            loop.cleanup(index).get(5, TimeUnit.SECONDS);
            return ControlResponse.ok("cleared " + c.group().map(g -> "resource group " + g).orElse("every resource group")
                    + "\n" + groupsOnly(loop.snapshot().get(5, TimeUnit.SECONDS).render()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlResponse.error("cleanup: the daemon is shutting down");
        } catch (Exception e) {
            return ControlResponse.error("cleanup failed: " + e);
        }
    }

    /** An operator standby or takeover: done (OK), refused at once (REFUSED), or failed/timed out (ERR). */
    private static ControlResponse handover(ControlRequest.Handover h, ClusterLoop loop, SyncRuntime sync) {
        String what = h.kind().wireName() + " " + h.set();
        try {
            java.time.Instant asked = java.time.Instant.now();
            ClusterLoop.HandoverResult r = loop.handover(h.kind() == ControlRequest.HandoverKind.TAKEOVER, h.set())
                    .get(h.timeoutSeconds(), TimeUnit.SECONDS);
            if (r.outcome() == org.jheartbeat.core.takeover.TakeoverMachine.Handover.REFUSED) {
                return ControlResponse.refused(r.detail());
            }
            StringBuilder where = new StringBuilder(groupsOnly(loop.snapshot().get(5, TimeUnit.SECONDS).render()));
            for (String w : sync.failedHandoverSyncs(asked)) {
                where.append(w).append('\n');
            }
            return r.done() ? ControlResponse.ok(r.detail() + "\n" + where)
                    : new ControlResponse(ControlResponse.Kind.ERROR, r.detail(), where.toString());
        } catch (java.util.concurrent.TimeoutException e) {
            return ControlResponse.error(what + " did not finish within " + h.timeoutSeconds()
                    + " s; it may still complete (see hb status)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ControlResponse.error(what + ": the daemon is shutting down");
        } catch (Exception e) {
            return ControlResponse.error(what + " failed: " + e);
        }
    }

    /** The "Resource groups:" block of a rendered status: what a hand-over changed. */
    static String groupsOnly(String rendered) {
        int from = rendered.indexOf("Resource groups:");
        if (from < 0) {
            return rendered;
        }
        int to = rendered.indexOf("\nConfig:", from);
        if (to < 0) {
            to = rendered.indexOf("\nFencing:", from);
        }
        return to < 0 ? rendered.substring(from) : rendered.substring(from, to + 1);
    }

    /**
     * Exit 1 ("already running") when a daemon answers on this state directory's control socket, or
     * when something listens there without answering properly; a missing or stale socket is fine (it
     * is replaced at bind).
     */
    private static void refuseIfRunning(StateDirectory state) throws UserException {
        Path socket = state.controlSocket();
        try {
            ControlClient.request(socket, new ControlRequest.Status(false));
        } catch (ControlClient.NotRunningException e) {
            return;
        } catch (java.nio.file.AccessDeniedException e) {
            throw new UserException(ExitCodes.PERMISSION, "permission denied on " + socket
                    + ": cannot check whether a daemon already runs; start the daemon as root");
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "a daemon seems to be running on state directory " + state.path()
                    + ": something listens on " + socket + " but " + e.getMessage()
                    + "; stop it first (or remove the socket if no daemon runs)");
        }
        throw new UserException(ExitCodes.FAILURE, "a daemon is already running on state directory "
                + state.path() + " (control socket " + socket + " answers)");
    }

    /** The UTS node name, as {@code uname -n} prints it. */
    static String unameN() throws IOException {
        Path p = Path.of("/proc/sys/kernel/hostname");
        if (Files.isReadable(p)) {
            return Files.readString(p, StandardCharsets.US_ASCII).trim();
        }
        return java.net.InetAddress.getLocalHost().getHostName();
    }

    private static String loadAverage() {
        try {
            String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim();
            return s.isEmpty() ? "n/a" : s;
        } catch (IOException e) {
            return "n/a";
        }
    }
}
