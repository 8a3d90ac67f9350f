package org.jheartbeat.cli.daemon;

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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.logging.DaemonLog;
import org.jheartbeat.cli.logging.LogSetup;
import org.jheartbeat.cli.metrics.MetricsEndpoint;
import org.jheartbeat.cli.runtime.HostChecks;
import org.jheartbeat.cli.runtime.MaintenanceStartup;
import org.jheartbeat.cli.runtime.SyncConfigFile;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.jheartbeat.cli.watchdog.DaemonWatchdogs;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlServer;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.core.loop.Fencer;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.media.serial.SerialMedium;
import org.jheartbeat.core.media.udp.UdpMedium;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.state.HeartbeatGenerationFile;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.resources.executor.ResourceGroupExecutor;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.group.StartupProbe;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.jheartbeat.stonith.fencing.DeviceFencer;
import org.jheartbeat.stonith.fencing.SelfFencingFencer;
import org.jheartbeat.stonith.fencing.StonithSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster node, assembled and run in the foreground until SIGTERM/SIGINT, then its resource
 * groups released, the peer told ({@code shutdone}) and the node stopped. In order: refuse a second
 * daemon on the state directory, load and check the configuration (ha.cf, authkeys, haresources,
 * sync.yaml, jheartbeat.yaml, host checks, the STONITH device), create the state directory, configure logging,
 * release groups found running here ({@link StartupProbe}), then engine, media, resource executor,
 * sync runtime, cluster loop, control socket ({@link ControlHandler}), the optional metrics endpoint
 * ({@link MetricsEndpoint}) and signal handlers. A missing
 * resource script fails only its group. Errors before the loop runs are {@link UserException}s with
 * the exit code {@code hb daemon} documents.
 */
public final class Daemon {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** How long an orderly shutdown may take to release every group, in s. */
    private static final long SHUTDOWN_TIMEOUT_S = 600;

    /**
     * What {@code hb daemon} was told.
     *
     * @param configDir directory with ha.cf, authkeys, haresources (and sync.yaml)
     * @param stateDir  run-time state: control socket, generation, pid file
     * @param nodeName  this node's name; empty for {@code uname -n}
     * @param debug     also print debug lines on standard error
     * @param selfFenceCommand a shell command that resets this node when a resource cannot be stopped;
     *                  empty for no self-fencing (docs/design/takeover.md, "Failures")
     */
    public record Options(Path configDir, Path stateDir, Optional<String> nodeName, boolean debug,
                          Optional<String> selfFenceCommand) {
    }

    private final Options options;
    private final PrintWriter err;
    /** The kernel watchdog and systemd's notifications (none until the configuration is loaded). */
    private DaemonWatchdogs watchdogs;

    /** @param err where configuration diagnostics are printed before logging is set up */
    public Daemon(Options options, PrintWriter err) {
        this.options = options;
        this.err = err;
    }

    /**
     * Checks, assembles and runs the node; returns when it has stopped.
     *
     * @return {@link ExitCodes#OK} after an orderly shutdown
     * @throws UserException {@link ExitCodes#CONFIG} for an invalid configuration or a {@code uname -n} taken
     *                       over from the peer ({@link NodeIdentity}), {@link ExitCodes#FAILURE}
     *                       when a daemon already runs on the state directory or the state directory or a
     *                       medium cannot be used, {@link ExitCodes#PERMISSION} when the control socket
     *                       cannot be checked
     * @throws IOException   when the state files cannot be read or written
     */
    public int run() throws UserException, IOException {
        Path configDir = options.configDir();
        Path stateDir = options.stateDir();
        StateDirectory state = new StateDirectory(stateDir);
        // first of all: a second daemon on this state directory must not touch the config, the
        // STONITH device (its lock), the media or the state files of the running one
        refuseIfRunning(state);
        // decided once, never re-read: a Hostname resource may change uname -n later
        NodeName me = NodeIdentity.decide(options.nodeName(), options.nodeName().isPresent() ? "" : unameN(),
                new org.jheartbeat.resources.names.TakenHostNames(
                        org.jheartbeat.resources.names.TakenHostNames.DEFAULT_DIR));
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
        // printed before the log outputs exist: logged to the log file and syslog once they do (below)
        List<ConfigDiagnostic> warnings = new ArrayList<>(problems.stream().filter(d -> !d.isError()).toList());
        StonithSetup.Outcome stonith = loaded.config().isPresent() && problems.stream().noneMatch(ConfigDiagnostic::isError)
                ? StonithSetup.open(loaded.config().get(), me, true) : null;
        if (stonith != null) {
            stonith.problems().forEach(d -> err.println(d.format()));
            err.flush();
            stonith.problems().stream().filter(d -> !d.isError()).forEach(warnings::add);
        }
        if (problems.stream().anyMatch(ConfigDiagnostic::isError) || loaded.config().isEmpty()
                || stonith != null && stonith.failed()) {
            throw new UserException(ExitCodes.CONFIG, "configuration errors in " + configDir + "; not starting");
        }
        if (loaded.config().get().peerOf(me).isEmpty()) {
            throw new UserException(ExitCodes.CONFIG, configDir.resolve("ha.cf") + ":0: two nodes are needed, "
                    + "this node and its peer; add a 'node' line for the peer");
        }
        org.jheartbeat.sync.config.SyncConfig sync = SyncConfigFile.load(configDir, loaded.config());
        JheartbeatYaml jheartbeatYaml = JheartbeatYaml.load(configDir, Optional.of(loaded.config().get()));
        List<ConfigDiagnostic> keyProblems = org.jheartbeat.cli.config.AuthkeysPolicy.check(loaded.config().get(),
                jheartbeatYaml, java.time.Instant.now());
        keyProblems.forEach(d -> err.println(d.format()));
        keyProblems.stream().filter(d -> !d.isError()).forEach(warnings::add);
        if (keyProblems.stream().anyMatch(ConfigDiagnostic::isError)) {
            throw new UserException(ExitCodes.CONFIG, "configuration errors in " + configDir + "; not starting");
        }
        // the key roll-over window of jheartbeat.yaml rides on the keys, so a reload can open or close it
        ClusterConfig config = org.jheartbeat.cli.config.AuthkeysPolicy.apply(loaded.config().get(), jheartbeatYaml);
        try {
            state.create();
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "cannot use state directory " + stateDir + ": "
                    + (e instanceof java.nio.file.FileAlreadyExistsException ? "it exists and is not a directory" : e));
        }
        List<ConfigDiagnostic> stateProblems = state.check();
        stateProblems.forEach(d -> err.println(d.format()));
        stateProblems.stream().filter(d -> !d.isError()).forEach(warnings::add);
        if (stateProblems.stream().anyMatch(ConfigDiagnostic::isError)) {
            throw new UserException(ExitCodes.CONFIG, "state directory " + stateDir + " is not safe; not starting");
        }
        DaemonLog log = LogSetup.configureDaemon(config.logging(), me.value(), options.debug());
        warnings.forEach(d -> LOG.warn(LogSetup.ALREADY_ON_STDERR, "{}", d.format()));
        try {
            // before the media: a watchdog that cannot be opened stops the start (exit 1) before anything is touched
            // the engine and everything on the loop (the watchdogs' pets too) read monotonic time from the
            // loop's scheduler, whose deadlines are measured on that clock (its thread starts with loop.start)
            org.jheartbeat.core.loop.LoopScheduler scheduler = org.jheartbeat.core.loop.LoopScheduler.thread();
            try {
                watchdogs = DaemonWatchdogs.open(config, System.getenv(), ProcessHandle.current().pid(), scheduler);
            } catch (DaemonWatchdogs.DeviceException e) { // the configuration's: exit 2, which systemd does not restart
                throw new UserException(ExitCodes.CONFIG, DaemonWatchdogs.haCfLine(config) + ": " + e.getMessage());
            }
            Fencer fencer = stonith.device().<Fencer>map(d -> new DeviceFencer(d, jheartbeatYaml.fencing(),
                    MonotonicClock.system())).orElse(Fencer.NONE);
            if (options.selfFenceCommand().isPresent()) {
                fencer = new SelfFencingFencer(fencer, options.selfFenceCommand().get(),
                        new org.jheartbeat.core.exec.OsProcessRunner());
            }
            return run(config, sync, me, state, fencer, log, missingScripts, jheartbeatYaml, scheduler);
        } catch (UserException | IOException | RuntimeException e) {
            LOG.error("cannot start: {}", e.getMessage());
            throw e;
        } finally {
            if (watchdogs != null) {
                watchdogs.close(); // a deliberate end: the kernel watchdog's magic close
            }
            log.close(); // the last lines ("Heartbeat shutdown complete.") reach the log files
        }
    }

    private int run(ClusterConfig config, org.jheartbeat.sync.config.SyncConfig sync, NodeName me,
                    StateDirectory state, Fencer fencer, DaemonLog log, List<HostChecks.MissingScript> missingScripts,
                    JheartbeatYaml jheartbeatYaml, org.jheartbeat.core.loop.LoopScheduler scheduler)
            throws UserException, IOException {
        java.time.Clock wall = java.time.Clock.systemUTC();
        long generation = HeartbeatGenerationFile.bump(state, HeartbeatGenerationFile.DEFAULT, wall.millis() / 1000);
        byte[] uuid = state.nodeUuid();
        LOG.info("Configuration validated. Starting jheartbeat 0.1.0 (Heartbeat 3.0.6 protocol) as node {}", me);
        LOG.info("Heartbeat generation: {}", generation);
        // the journal, and any sink added there (the alerts of jheartbeat.yaml)
        DaemonEvents events = DaemonEvents.open(state, me.value(), wall, jheartbeatYaml.alerts());
        events.record(org.jheartbeat.core.journal.EventKind.DAEMON_START, me.value(), "generation " + generation);
        for (HostChecks.MissingScript m : missingScripts) {
            LOG.error(ClusterLoop.CRIT, "Resource group {} cannot start on this node: {} ({}:{}); the other groups run",
                    m.key(), m.diagnostic().message(), m.diagnostic().file(), m.diagnostic().line());
        }
        OutboundStamper stamper = new OutboundStamper(me, uuid, generation,
                new MessageAuthenticator(config.authKeys()), Daemon::loadAverage);
        NodeEngine engine = new NodeEngine(config, me, stamper, ThreadLocalRandom.current().nextInt(10),
                scheduler.nanoTime(), org.jheartbeat.core.protocol.SafetyRules.ALL,
                org.jheartbeat.core.takeover.TakeoverSettings.DEFAULTS
                        .withSelfFenceOnStopFailure(options.selfFenceCommand().isPresent())
                        .withFenceDelayNanos(jheartbeatYaml.fencing().fenceDelay().toNanos()));
        // named, so RealtimeThreads finds it (otherwise as Netty's default factory: not a daemon thread, max
        // priority): the UDP media's reads and writes run on this thread
        EventLoopGroup netty = new MultiThreadIoEventLoopGroup(1, new io.netty.util.concurrent.DefaultThreadFactory(
                "hb-media", false, Thread.MAX_PRIORITY), NioIoHandler.newFactory());
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
                SyncRuntime.fromFuture(() -> loopRef.get().snapshot()), wall);
        ResourceGroupExecutor groupExecutor = new ResourceGroupExecutor(config, syncRuntime,
                jheartbeatYaml.monitorDefaults(), jheartbeatYaml.watchScripts());
        org.jheartbeat.core.takeover.Maintenance maintenance = readMaintenance(state);
        engine.machine().maintenancePolicy().atStartup(maintenance);
        ClusterLoop loop = new ClusterLoop(config, engine, media, groupExecutor, fencer, scheduler, wall); // hb-loop
        loop.onWake(watchdogs::onWake); // a loop that hangs stops petting the kernel's and systemd's watchdogs
        loop.onMaintenanceChange(persistMaintenance(state));
        loop.recordEventsTo(events.sink());
        // an Error in the loop (out of memory): the CRIT line and what is queued reach the logs, then exit 1
        // (ExitCodes.FAILURE), which the unit's Restart=on-failure restarts
        loop.onFatalError(org.jheartbeat.core.loop.LoopGuard.FatalHandler.halting(log::close));
        groupExecutor.onGroupFailure(events.monitoring(loop)); // gave up on a group: the machine moves it; restarts: journal
        loopRef.set(loop);
        config.stonithFor(me).ifPresentOrElse(
                d -> LOG.info("STONITH device: {} (ha.cf line {}); fencing action {}, power-on after an off: {},"
                        + " fence delay: {} ms", d.type(), d.line(), jheartbeatYaml.fencing().action().word(),
                        jheartbeatYaml.fencing().powerOnAfter().map(t -> t.toMillis() + " ms").orElse("never"),
                        jheartbeatYaml.fencing().fenceDelay().toMillis()),
                () -> LOG.warn("No STONITH device configured: a peer that only looks dead is not fenced"));
        try {
            // once the media are bound (a second daemon on this node fails there, touching nothing) and
            // before the first heartbeat: join holding nothing (docs/design/resources.md);
            // a group that could not be released stays BLOCKED here, and the peer is told at comm up
            // in maintenance the groups it covers are only probed, and what runs is kept as it is
            // and a group it may have run before (state directory) that haresources dropped is released too
            List<org.jheartbeat.core.config.ResourceGroupDecl> former = MaintenanceStartup.readGroups(state, config);
            loop.start(() -> {
                var left = MaintenanceStartup.probeOrRelease(config, me,
                        engine.machine(), new ResourceGroupRunner(StandardResourceAgents.forHost(
                        config.configDir(), Path.of("/etc/init.d"), new OsProcessRunner())), former);
                left.forEach((g, why) -> loop.unmanagedAtStartup(g.key(), why));
                List<org.jheartbeat.core.config.ResourceGroupDecl> mayRun = new ArrayList<>(config.resourceGroups());
                mayRun.addAll(left.keySet());
                MaintenanceStartup.keepGroups(state, mayRun); // before the first beat, so before any start
            });
        } catch (IOException e) {
            netty.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new UserException(ExitCodes.FAILURE, "cannot start heartbeat media: " + e.getMessage());
        }
        realtime();
        AtomicReference<ControlServer> controlRef = new AtomicReference<>();
        Reloader reloader = new Reloader(config.configDir(), me, config, loop, wall);
        reloader.keepGroups(groups -> MaintenanceStartup.addGroups(state, config, groups));
        reloader.afterEach(events::reloaded);
        ControlServer control = new ControlServer(state.controlSocket(), events.answering(new ControlHandler(loop,
                config, syncRuntime, log::droppedLines, () -> controlRef.get().stats(), reloader, groupExecutor)
                .journalDropped(events::dropped)),
                ControlServer.Limits.DEFAULT, MonotonicClock.system(),
                org.jheartbeat.core.control.ControlAccess.withAdminGroup(jheartbeatYaml.adminGroup()));
        controlRef.set(control);
        control.start();
        syncRuntime.start();
        // ping nodes (ha.cf ping/ping_group): ICMP echo per keepalive on threads of their own
        org.jheartbeat.core.ping.PingProber pinger = new org.jheartbeat.core.ping.PingProber(config.ping().nodes(),
                config.timing().keepalive(), org.jheartbeat.core.ping.PingProber.ICMP, loop::pingAnswered);
        if (!config.ping().nodes().isEmpty()) {
            LOG.info("Ping nodes: {} (deadping {} ms){}", config.ping().nodes().stream()
                    .map(org.jheartbeat.core.config.PingNodeDecl::name).toList(), config.ping().deadping().toMillis(),
                    config.ping().ipfail() ? "; ipfail on: the node that sees fewer hands its groups over" : "");
            pinger.start();
        }
        Optional<MetricsEndpoint> metrics = MetricsStartup.start(jheartbeatYaml, me, loop, syncRuntime, log,
                groupExecutor, wall, events::alertStats, events::dropped);
        // handlers first: a reload after READY=1 (systemctl start returns) must not meet the JVM's default SIGHUP
        installSignalHandlers(loop, reloader, watchdogs);
        Files.writeString(state.pidFile(), ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        watchdogs.ready("cluster node " + me + " running");
        loop.exited().join();
        watchdogs.close(); // every group released: nothing left for the kernel watchdog to guard
        pinger.close();
        metrics.ifPresent(MetricsEndpoint::close);
        syncRuntime.close();
        events.record(org.jheartbeat.core.journal.EventKind.DAEMON_STOP, me.value(), "orderly shutdown");
        events.close();
        finish(loop, control, netty, state);
        return ExitCodes.OK;
    }

    /**
     * Once the loop and the media threads run: SCHED_RR for them ({@link RealtimeThreads}), as Heartbeat
     * 3.0.6's default {@code realtime on}; {@code -Djheartbeat.realtime=off} (in HB_JAVA_OPTS) leaves
     * every thread at normal scheduling. A failure is one WARN line, and the daemon runs on.
     */
    private static void realtime() {
        if ("off".equals(System.getProperty("jheartbeat.realtime"))) {
            LOG.info("Real-time scheduling off (-Djheartbeat.realtime=off)");
            return;
        }
        String[] failure = new String[1];
        List<String> threads = RealtimeThreads.apply(failure);
        if (failure[0] != null) {
            LOG.warn("Unable to set real-time scheduling (SCHED_RR {}): {}; beats may be late on a busy machine",
                    RealtimeThreads.PRIORITY, failure[0]);
        } else {
            LOG.info("Real-time scheduling (SCHED_RR {}) for threads {}", RealtimeThreads.PRIORITY, threads);
        }
    }

    /**
     * The maintenance setting kept in the state directory. A file that cannot be read is
     * taken as cluster-wide maintenance, CRIT: leaving the groups alone is the safe reading of a
     * setting that may have been on (a lost maintenance flag after a restart moves or stops services).
     */
    private static org.jheartbeat.core.takeover.Maintenance readMaintenance(StateDirectory state) {
        try {
            org.jheartbeat.core.takeover.Maintenance m = state.readMaintenance();
            if (m.any()) {
                LOG.warn("Maintenance mode is on ({}; {}): resource groups in it are probed, not started or stopped;"
                        + " end it with 'hb maintenance off'", m.describe(), state.maintenanceFile());
            }
            return m;
        } catch (IOException e) {
            LOG.error(ClusterLoop.CRIT, "{}: cannot read the maintenance setting ({}); starting in cluster-wide"
                    + " maintenance to be safe: fix or remove the file, or run 'hb maintenance off'",
                    state.maintenanceFile(), e.getMessage());
            return org.jheartbeat.core.takeover.Maintenance.NONE.with(
                    org.jheartbeat.core.takeover.Maintenance.Scope.CLUSTER, true, 1);
        }
    }

    /** Writes each new maintenance setting to the state directory, in order, on a thread of its own. */
    private static java.util.function.Consumer<org.jheartbeat.core.takeover.Maintenance> persistMaintenance(
            StateDirectory state) {
        java.util.concurrent.ExecutorService writer = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hb-state-write");
            t.setDaemon(true);
            return t;
        });
        return m -> writer.execute(() -> {
            try {
                state.writeMaintenance(m);
            } catch (IOException e) {
                LOG.error(ClusterLoop.CRIT, "cannot keep the maintenance setting in {}: {}; it is lost if this"
                        + " daemon restarts", state.maintenanceFile(), e.getMessage());
            }
        });
    }

    /**
     * SIGTERM and SIGINT start an orderly shutdown (release every group, {@code shutdone}, exit 0);
     * SIGHUP reloads the configuration as {@code hb reload} does ({@link Reloader}; the unit's
     * {@code ExecReload}, Heartbeat 3.0.6's {@code heartbeat -r}), on its own thread so the signal
     * handler never waits, and the loop applies it between two events. A reload never causes a
     * failover: an invalid configuration is logged and nothing is applied.
     */
    private static void installSignalHandlers(ClusterLoop loop, Reloader reloader, DaemonWatchdogs watchdogs) {
        AtomicBoolean stopping = new AtomicBoolean();
        for (String name : List.of("TERM", "INT")) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
                if (!stopping.compareAndSet(false, true)) {
                    LOG.info("Received SIG{} again: shutdown already in progress.", name);
                    return;
                }
                LOG.info("Received SIG{}: Heartbeat shutdown in progress.", name);
                watchdogs.stopping("releasing resource groups (SIG" + name + ")");
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
        sun.misc.SignalHandler before = sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> {
            LOG.info("Received SIGHUP: reloading the configuration.");
            Thread t = new Thread(() -> {
                try {
                    reloader.reload("SIGHUP");
                } catch (RuntimeException e) {
                    LOG.error("reload after SIGHUP failed: {}", e.toString());
                }
            }, "hb-reload");
            t.setDaemon(true);
            t.start();
        });
        if (before == sun.misc.SignalHandler.SIG_IGN) {
            // the JVM keeps a SIGHUP that was ignored when it started (nohup, some init scripts) ignored,
            // whatever handler is asked for: say so, since 'systemctl reload' and kill -HUP then do nothing
            LOG.warn("SIGHUP was ignored by whatever started this daemon (nohup?): a SIGHUP will not reload the"
                    + " configuration; use 'hb reload', or start the daemon with SIGHUP at its default"
                    + " (env --default-signal=HUP, as /usr/sbin/hb does)");
        }
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

    /**
     * The UTS node name, as {@code uname -n} prints it (from /proc/sys/kernel/hostname, else the
     * local host name).
     *
     * @throws IOException when neither can be read
     */
    public static String unameN() throws IOException {
        Path p = Path.of("/proc/sys/kernel/hostname");
        if (Files.isReadable(p)) {
            return Files.readString(p, StandardCharsets.US_ASCII).trim();
        }
        return java.net.InetAddress.getLocalHost().getHostName();
    }

    /** The load-average line of /proc/loadavg for the heartbeat's {@code load} field, or "n/a". */
    private static String loadAverage() {
        try {
            String s = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim();
            return s.isEmpty() ? "n/a" : s;
        } catch (IOException e) {
            return "n/a";
        }
    }
}
