package org.jheartbeat.core.loop;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.control.ConfigDigestReport;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.WallClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * The imperative shell around a {@link NodeEngine}: one thread ({@code hb-loop}) owns the engine;
 * media post frames to it, a timer wakes it at the engine's next deadline (at most every 100 ms),
 * and it executes the engine's effects: packets out on every medium, group operations on the
 * {@link GroupExecutor} (results posted back), log lines in Heartbeat's words. Every step, effect,
 * posted result and scheduled task runs under a {@link LoopGuard}, so no exception stops the beats;
 * received frames waiting for the loop are bounded ({@link InboundFrameLimit}).
 */
public final class ClusterLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** Marks ERROR events that Heartbeat would log as {@code CRIT}. */
    public static final Marker CRIT = MarkerFactory.getMarker("CRIT");
    private static final long MAX_SLEEP_NANOS = 100_000_000L;
    private static final int RECENT_EVENTS = 20;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    /** The configuration the node runs: the one it started with, then as each reload applied it. */
    private volatile ClusterConfig config;
    /** Keeps the maintenance setting (the daemon: the state directory); nothing by default. */
    private java.util.function.Consumer<org.jheartbeat.core.takeover.Maintenance> maintenanceStore = m -> { };
    /** Our {@code jhb-maint probe} requests waiting for the peer's answer, by number (loop thread only). */
    private final Map<Long, CompletableFuture<java.util.Set<String>>> peerProbes = new java.util.HashMap<>();
    private long probeRequests;
    /**
     * Groups no longer in haresources left as they were, unmanaged (a reload removed them in
     * maintenance; the start-up found them running and left them): key → why, for status.
     */
    private final Map<String, String> removedInMaintenance = new LinkedHashMap<>();
    private final NodeEngine engine;
    private final List<Medium> media;
    private final GroupExecutor groups;
    private final Fencer fencer;
    private final MonotonicClock clock;
    private final WallClock wall;
    private final ScheduledExecutorService thread;
    private final CompletableFuture<Void> exited = new CompletableFuture<>();
    private final Deque<String> recent = new ArrayDeque<>();
    private final LoopGuard guard = new LoopGuard();
    private final InboundFrameLimit frames = new InboundFrameLimit(InboundFrameLimit.MAX_WAITING);
    /** Where log lines go (tests make it throw); called on the loop thread, under the guard. */
    private java.util.function.BiConsumer<Level, String> logOutput = ClusterLoop::toSlf4j;
    /** Run on the loop thread at each timer wake-up (at least every 100 ms): the watchdogs' pet. */
    private volatile Runnable onWake = () -> { };

    /**
     * @param config the configuration the engine was built from (for group names in status)
     * @param engine the protocol engine; from now on touched only by the loop thread
     * @param media  every medium, not yet started
     * @param groups runs group operations
     */
    public ClusterLoop(ClusterConfig config, NodeEngine engine, List<Medium> media, GroupExecutor groups,
                       MonotonicClock clock, WallClock wall) {
        this(config, engine, media, groups, Fencer.NONE, clock, wall);
    }

    /** @param fencer fences the peer when the engine asks (STONITH) */
    public ClusterLoop(ClusterConfig config, NodeEngine engine, List<Medium> media, GroupExecutor groups,
                       Fencer fencer, MonotonicClock clock, WallClock wall) {
        this.fencer = fencer;
        this.config = config;
        this.engine = engine;
        this.media = List.copyOf(media);
        this.groups = groups;
        this.clock = clock;
        this.wall = wall;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hb-loop");
            t.setDaemon(false);
            return t;
        });
    }

    /**
     * Starts every medium and the timer.
     *
     * @throws IOException if a medium cannot start (nothing is left running then)
     */
    public void start() throws IOException {
        start(() -> { });
    }

    /**
     * Starts every medium, then runs {@code beforeFirstBeat} on the calling thread while the loop
     * thread waits, then the timer. So the work it does (the daemon's start-up release of groups
     * found running) happens only once the media are bound (a second daemon on the same node fails
     * there, before touching any resource) and before any frame is processed or beat sent. The engine
     * may be touched by {@code beforeFirstBeat}: the loop thread does not run until it returns.
     *
     * @throws IOException if a medium cannot start (nothing is left running, {@code beforeFirstBeat} not run)
     */
    public void start(Runnable beforeFirstBeat) throws IOException {
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        thread.execute(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            startMedia();
        } catch (IOException e) {
            gate.countDown();
            throw e;
        }
        try {
            beforeFirstBeat.run();
        } finally {
            gate.countDown();
        }
        post(this::tick);
    }

    /**
     * What to do when an {@link Error} reaches the loop (the daemon: log, write out the log, exit with
     * a non-zero status); {@link LoopGuard.FatalHandler#HALT} by default. Set before {@link #start}.
     */
    public void onFatalError(LoopGuard.FatalHandler handler) {
        guard.onFatal(handler);
    }

    /** Sends the loop's log lines to {@code output} instead of SLF4J (tests). Set before {@link #start}. */
    void logTo(java.util.function.BiConsumer<Level, String> output) {
        this.logOutput = output;
    }

    private void startMedia() throws IOException {
        List<Medium> started = new ArrayList<>();
        try {
            for (Medium m : media) {
                m.start((link, source, frame) -> {
                    if (frames.admit()) {
                        post(() -> {
                            frames.taken();
                            run(e -> e.onFrame(link, source, frame, clock.nanoTime(), wall.currentTimeMillis()));
                        });
                    }
                });
                started.add(m);
            }
        } catch (IOException e) {
            started.forEach(Medium::close);
            thread.shutdownNow();
            throw e;
        }
    }

    private void tick() {
        try {
            run(e -> e.onTimer(clock.nanoTime(), wall.currentTimeMillis()));
            guard.run("reporting dropped frames", () -> frames.report(clock.nanoTime())
                    .ifPresent(l -> log(Level.WARN, l)));
        } finally { // whatever happened above, the node beats on
            long sleep = guard.value("computing the next wake-up", () -> Math.max(1_000_000L, Math.min(MAX_SLEEP_NANOS,
                    engine.nextWakeupNanos() - clock.nanoTime())), MAX_SLEEP_NANOS);
            schedule(this::tick, sleep, TimeUnit.NANOSECONDS);
        }
        guard.run("running the wake-up hook (watchdogs)", onWake); // after the next tick is scheduled
    }

    /**
     * Sets what runs on the loop thread at each timer wake-up, from the first beat on: the daemon pets
     * its watchdogs there, so a loop that hangs stops petting. Must not block. Set before {@link #start}.
     */
    public void onWake(Runnable hook) {
        this.onWake = java.util.Objects.requireNonNull(hook, "hook");
    }

    /** Runs {@code task} on the loop thread after {@code delay}, under the guard; nothing once closed. */
    private void schedule(Runnable task, long delay, TimeUnit unit) {
        try {
            thread.schedule(guard.wrap("running a loop task", task), delay, unit);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // loop already stopped: late frames and results are dropped
        }
    }

    private void post(Runnable r) {
        schedule(r, 0, TimeUnit.NANOSECONDS); // what execute does on a ScheduledThreadPoolExecutor
    }

    private void answer(CompletableFuture<?> f, Runnable r) {
        post(answering(f, r));
    }

    /** {@code r} (which completes {@code f}) under the guard: if it fails, so does {@code f} (no endless wait). */
    private Runnable answering(CompletableFuture<?> f, Runnable r) {
        return () -> {
            if (!guard.run("answering a request", r)) {
                f.completeExceptionally(new IllegalStateException("internal error in the cluster loop (see the log)"));
            }
        };
    }

    /** One engine step and its effects; a step that throws drops its event, an effect that throws only itself. */
    private void run(Function<NodeEngine, List<Effect>> step) {
        List<Effect> effects = guard.value("in an engine step (event dropped)", () -> step.apply(engine), List.of());
        for (Effect ef : effects) {
            guard.run("executing " + ef.getClass().getSimpleName(), () -> execute(ef));
        }
    }

    private void execute(Effect ef) {
        if (ef instanceof Effect.Transmit t) {
            for (Medium m : media) { // one broken medium must not silence the others
                guard.run("sending on " + m.linkName(), () -> m.send(t.packet(), t.traffic()));
            }
        } else if (ef instanceof Effect.LogLine l) {
            log(l.level(), l.text());
        } else if (ef instanceof Effect.PeerLost p) {
            groups.peerLost(p.node(), p.how());
        } else if (ef instanceof Effect.StartGroup s) {
            log(Level.INFO, "Starting resource group " + key(s.group()) + " (" + s.reason().describe(engine.peer())
                    + ")");
            guard.start("executing StartGroup", () -> groups.start(s.group(), s.reason()))
                    .handle((r, err) -> err == null && r != null ? r
                            : GroupExecutor.StartResult.failed(false, failureDetail(err)))
                    .thenAccept(r -> post(() -> run(e -> e.onGroupStarted(s.group(), r.outcome(), r.detail(),
                            clock.nanoTime(), wall.currentTimeMillis()))));
        } else if (ef instanceof Effect.StopGroup s) {
            log(Level.INFO, "Stopping resource group " + key(s.group()) + " (" + s.reason().describe(engine.peer())
                    + ")");
            stopDone(s.group(), guard.start("executing StopGroup", () -> groups.stop(s.group(), s.reason())));
        } else if (ef instanceof Effect.SelfFence sf) {
            fencer.fenceSelf(sf.reason());
        } else if (ef instanceof Effect.FencePeer f) {
            guard.start("executing FencePeer", () -> fencer.fence(f.node())).whenComplete((r, err) -> post(() -> run(
                    e -> e.onFenceDone(err == null && r.fenced(), err != null ? "fencing failed: " + err : r.detail(),
                    clock.nanoTime(), wall.currentTimeMillis()))));
        } else if (ef instanceof Effect.Exit) {
            exited.complete(null);
        } else if (ef instanceof Effect.WatchGroup w) {
            groups.watch(w.group(), w.on());
        } else if (ef instanceof Effect.PersistMaintenance pm) {
            maintenanceStore.accept(pm.setting());
        } else if (ef instanceof Effect.ProbeForPeer pp) {
            java.util.Set<Integer> all = new java.util.TreeSet<>();
            for (int i = 0; i < config.resourceGroups().size(); i++) {
                all.add(i);
            }
            groups.probeAll(all).whenComplete((found, err) -> post(() -> {
                if (err != null) {
                    log(Level.ERROR, "Maintenance: cannot probe the resource groups for " + engine.peer() + ": "
                            + failureDetail(err) + "; not answering (its request fails)");
                } else {
                    run(e -> e.onProbedForPeer(pp.request(), GroupExecutor.Probe.RUNNING.in(found),
                            GroupExecutor.Probe.PARTIAL.in(found), wall.currentTimeMillis()));
                }
            }));
        } else if (ef instanceof Effect.PeerProbed pp) {
            CompletableFuture<java.util.Set<String>> f = peerProbes.remove(pp.request());
            if (f != null) {
                f.complete(pp.runs());
            }
        } else if (ef instanceof Effect.ProbeThenApply pa) {
            groups.probeAll(pa.leaving()).whenComplete((found, err) -> post(() -> {
                if (err != null) {
                    log(Level.CRIT, "Maintenance: cannot probe " + keys(pa.leaving()) + " (" + failureDetail(err)
                            + "); they stay in maintenance here");
                    return;
                }
                run(e -> e.onMaintenanceApplied(pa.setting(), pa.leaving(), GroupExecutor.Probe.RUNNING.in(found),
                        GroupExecutor.Probe.PARTIAL.in(found), pa.peerRuns(), false, clock.nanoTime(),
                        wall.currentTimeMillis()));
            }));
        }
    }

    /** Posts the end of group operation {@code op} back to the engine (a failure, when it completes with null). */
    private void stopDone(int group, CompletableFuture<Boolean> op) {
        op.whenComplete((ok, err) -> post(() -> run(e -> e.onGroupDone(group, false, err == null
                && Boolean.TRUE.equals(ok), failureDetail(err), clock.nanoTime(), wall.currentTimeMillis()))));
    }

    private String keys(java.util.Collection<Integer> which) {
        List<String> out = new ArrayList<>();
        which.forEach(i -> out.add(key(i)));
        return String.join(", ", out);
    }

    /**
     * Where the state directory keeps the maintenance setting ({@code hb maintenance}); called on the
     * loop thread, must not block (the daemon writes on a thread of its own). Set before {@link #start}.
     */
    public void onMaintenanceChange(java.util.function.Consumer<org.jheartbeat.core.takeover.Maintenance> store) {
        this.maintenanceStore = java.util.Objects.requireNonNull(store, "store");
    }

    /** How {@code hb maintenance} ended: applied ({@code ok}) or refused with what to fix, and a one-line account. */
    public record MaintenanceResult(boolean ok, String detail) { }

    /**
     * A group the daemon's start-up found running though its haresources no longer defines it, and
     * left (in maintenance, or its release failed): shown by {@link #maintenanceView()} with {@code why}.
     * Call only from {@link #start(Runnable)}'s {@code beforeFirstBeat}, or before {@link #start}.
     */
    public void unmanagedAtStartup(String key, String why) {
        removedInMaintenance.put(key, why);
    }

    /** How long {@code hb maintenance off} waits for the peer's probe, in s. */
    public static final long PEER_PROBE_TIMEOUT_S = 10;

    /**
     * {@code hb maintenance on|off} for {@code scope} (issue 20; docs/design/takeover.md, "Maintenance").
     * On: applied here, kept in the state directory, sent to the peer (now, or when it returns).
     * Off: the groups that leave maintenance are probed here and on the peer first; if one runs on both
     * nodes the request is refused and nothing changes; else what runs is adopted where it runs and
     * what runs nowhere is started on the node it belongs to. A peer that is not alive cannot be probed:
     * a group it last reported running ({@code jhb-maint}, until it is fenced) is taken as running there
     * and not started here. Any thread; completes when applied or refused.
     */
    public CompletableFuture<MaintenanceResult> maintenance(org.jheartbeat.core.takeover.Maintenance.Scope scope,
                                                            boolean on) {
        CompletableFuture<MaintenanceResult> f = new CompletableFuture<>();
        answer(f, () -> {
            run(e -> e.onOperatorCommand(clock.nanoTime(), wall.currentTimeMillis())); // a pause first
            var m = engine.machine();
            var cur = m.maintenance();
            var next = cur.with(scope, on, cur.version() + 1);
            java.util.Set<Integer> leaving = on ? java.util.Set.of() : m.leavingMaintenance(next);
            if (cur.has(scope) == on && leaving.isEmpty()) {
                f.complete(new MaintenanceResult(true, "maintenance " + scope.describe() + " is already "
                        + (on ? "on" : "off") + " (now: " + cur.describe() + ")"));
                return;
            }
            boolean peerAlive = m.peerPresence().alive();
            String away = peerAlive ? "" : "; " + engine.peer() + " is not reachable: applied on " + engine.me()
                    + " only, and sent to " + engine.peer() + " when it returns";
            if (leaving.isEmpty()) {
                run(e -> e.onMaintenanceApplied(next, java.util.Set.of(), java.util.Set.of(), java.util.Set.of(),
                        e.peerMaintenanceRuns(), true, clock.nanoTime(), wall.currentTimeMillis()));
                f.complete(new MaintenanceResult(true, "maintenance " + scope.describe() + " " + (on ? "on" : "off")
                        + " (now: " + next.describe() + ")" + away));
                return;
            }
            CompletableFuture<java.util.Set<String>> peerRuns = new CompletableFuture<>();
            // a peer that never sent jhb-config (a real Heartbeat 3.0.6 node) drops jhb-maint: not asked
            boolean peerSpeaksJhb = engine.peerConfigDigest().isPresent();
            String notAsked = peerAlive && !peerSpeaksJhb ? "; " + engine.peer() + " does not speak jhb-maint"
                    + " (not jheartbeat?): only " + engine.me() + " was probed" : "";
            if (peerAlive && peerSpeaksJhb) {
                long req = ++probeRequests;
                peerProbes.put(req, peerRuns);
                run(e -> e.onPeerProbeRequested(req, wall.currentTimeMillis()));
                schedule(() -> {
                    if (peerProbes.remove(req) != null) {
                        peerRuns.completeExceptionally(new java.util.concurrent.TimeoutException(engine.peer()
                                + " did not answer the probe within " + PEER_PROBE_TIMEOUT_S + " s"));
                    }
                }, PEER_PROBE_TIMEOUT_S, TimeUnit.SECONDS);
            } else if (!peerAlive) {
                // it cannot be probed: what it last reported running in maintenance (jhb-maint; none once
                // fenced) is left there, not started here too, until it returns and its probe decides
                java.util.Set<String> last = new java.util.HashSet<>();
                engine.peerMaintenanceRuns().forEach(i -> last.add(key(i)));
                peerRuns.complete(last);
            } else {
                peerRuns.complete(java.util.Set.of());
            }
            groups.probeAll(leaving).thenCombine(peerRuns, (here, there) -> new Object[] {here, there})
                    .whenComplete((both, err) -> answer(f, () -> {
                        if (err != null) {
                            f.complete(new MaintenanceResult(false, "cannot learn what runs (" + failureDetail(err)
                                    + "); nothing changed"));
                            return;
                        }
                        @SuppressWarnings("unchecked")
                        Map<Integer, GroupExecutor.Probe> found = (Map<Integer, GroupExecutor.Probe>) both[0];
                        java.util.Set<Integer> here = GroupExecutor.Probe.RUNNING.in(found);
                        java.util.Set<Integer> partly = GroupExecutor.Probe.PARTIAL.in(found);
                        @SuppressWarnings("unchecked")
                        java.util.Set<String> thereKeys = (java.util.Set<String>) both[1];
                        java.util.Set<Integer> there = new java.util.TreeSet<>();
                        for (int i = 0; i < config.resourceGroups().size(); i++) {
                            if (thereKeys.contains(key(i))) {
                                there.add(i);
                            }
                        }
                        List<String> twice = new ArrayList<>();
                        for (int i : leaving) {
                            if ((here.contains(i) || partly.contains(i)) && there.contains(i)) {
                                twice.add(key(i) + " (preferred node " + config.resourceGroups().get(i).preferredNode()
                                        + ")");
                            }
                        }
                        if (!twice.isEmpty()) {
                            f.complete(new MaintenanceResult(false, "resource group(s) " + String.join(", ", twice)
                                    + " run on both " + engine.me() + " and " + engine.peer() + "; stop each on the node"
                                    + " it should not run on (by hand, e.g. its init script's stop), then run 'hb"
                                    + " maintenance off' again; nothing changed, maintenance stays on"));
                            return;
                        }
                        var now = engine.machine().maintenance();
                        var apply = now.version() >= next.version() ? now.with(scope, false, now.version() + 1) : next;
                        run(e -> e.onMaintenanceApplied(apply, leaving, here, partly, there, true, clock.nanoTime(),
                                wall.currentTimeMillis()));
                        List<String> where = new ArrayList<>();
                        for (int i : leaving) {
                            where.add(key(i) + ": " + (here.contains(i) ? "runs on " + engine.me() + ", adopted"
                                    : partly.contains(i) ? "runs partly on " + engine.me() + ", the rest started"
                                    : there.contains(i) && !peerAlive ? "last reported running on " + engine.peer()
                                    + ", which cannot be probed: left there, not started here"
                                    : there.contains(i) ? "runs on " + engine.peer() + ", left there"
                                    : "ran nowhere, started where it belongs"));
                        }
                        f.complete(new MaintenanceResult(true, "maintenance " + scope.describe() + " off (now: "
                                + apply.describe() + ")" + away + notAsked + "\n" + String.join("\n", where)));
                    }));
        });
        return f;
    }

    /**
     * The maintenance setting and, per group in maintenance here, why and where it runs as last seen
     * (here: the machine's state; the peer: its last {@code jhb-maint}). Taken on the loop thread.
     */
    public CompletableFuture<MaintenanceView> maintenanceView() {
        CompletableFuture<MaintenanceView> f = new CompletableFuture<>();
        answer(f, () -> {
            var m = engine.machine();
            Map<String, String> groupsIn = new LinkedHashMap<>();
            for (int i = 0; i < config.resourceGroups().size(); i++) {
                if (m.inMaintenance(i)) {
                    groupsIn.put(key(i), m.maintenanceReason(i) + "; here " + m.groupState(i).displayName()
                            + (engine.peerMaintenanceRuns().contains(i) ? "; runs on " + engine.peer() : ""));
                }
            }
            groupsIn.putAll(removedInMaintenance);
            f.complete(new MaintenanceView(m.maintenance(), groupsIn));
        });
        return f;
    }

    /**
     * What {@code hb maintenance status} and {@code hb status} show.
     *
     * @param setting the cluster's maintenance setting as this node has it
     * @param groups  group key → why it is in maintenance here and where it runs, for the groups in it
     */
    public record MaintenanceView(org.jheartbeat.core.takeover.Maintenance setting, Map<String, String> groups) {
        /** The text block of {@code hb status}: {@code Maintenance: off}, or the setting and one line per group. */
        public String render() {
            StringBuilder sb = new StringBuilder("Maintenance: ").append(setting.describe()).append('\n');
            groups.forEach((k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
            return sb.toString();
        }

        /** The JSON member of {@code hb status --json}: {@code "maintenance":{"setting":S,"version":N,"groups":{KEY:S}}}. */
        public String json() {
            StringBuilder sb = new StringBuilder("\"maintenance\":{\"setting\":")
                    .append(StatusSnapshot.jsonString(setting.describe())).append(",\"version\":")
                    .append(setting.version()).append(",\"cluster\":").append(setting.cluster())
                    .append(",\"groups\":{");
            int n = 0;
            for (Map.Entry<String, String> e : groups.entrySet()) {
                sb.append(n++ == 0 ? "" : ",").append(StatusSnapshot.jsonString(e.getKey())).append(':')
                        .append(StatusSnapshot.jsonString(e.getValue()));
            }
            return sb.append("}}").toString();
        }
    }

    /** The reason a group operation completed exceptionally ({@link GroupExecutor}), or empty. */
    private static String failureDetail(Throwable err) {
        Throwable t = err;
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                && (t.getMessage() == null || t.getMessage().equals(t.getCause().toString()))) {
            t = t.getCause();
        }
        return t == null ? "" : t.getMessage() != null ? t.getMessage() : t.toString();
    }

    private String key(int group) {
        return config.resourceGroups().get(group).key();
    }

    /** Logs {@code text}; a log that throws costs that line only, never the action logged (under the guard). */
    private void log(Level level, String text) {
        guard.run("logging", () -> logOutput.accept(level, text));
        if (level == Level.DEBUG) {
            return;
        }
        if (recent.size() == RECENT_EVENTS) {
            recent.removeFirst();
        }
        recent.addLast(TIME.format(Instant.ofEpochMilli(wall.currentTimeMillis())) + " "
                + (level == Level.INFO ? "" : level + ": ") + text);
    }

    private static void toSlf4j(Level level, String text) {
        switch (level) {
            case DEBUG -> LOG.debug(text);
            case INFO -> LOG.info(text);
            case WARN -> LOG.warn(text);
            case ERROR -> LOG.error(text);
            case CRIT -> LOG.error(CRIT, text);
        }
    }

    /**
     * The ICMP edge saw ping node {@code node} answer: handed to the engine on the loop thread. Safe to
     * call from any thread.
     */
    public void pingAnswered(String node) {
        post(() -> run(e -> e.onPingAnswered(node, clock.nanoTime(), wall.currentTimeMillis())));
    }

    /** Asks for an orderly shutdown; the returned future completes when the engine says it may exit. */
    public CompletableFuture<Void> shutdown() {
        post(() -> run(e -> e.onShutdownRequested(clock.nanoTime(), wall.currentTimeMillis())));
        return exited;
    }

    /** Completes when the engine has finished an orderly shutdown. */
    public CompletableFuture<Void> exited() {
        return exited;
    }

    /**
     * The end of an operator standby or takeover: whether it was done, and a one-line account.
     *
     * @param outcome DONE, FAILED (ran, but a group did not end where it should), CANCELLED or REFUSED
     */
    public record HandoverResult(boolean done, String detail, TakeoverMachine.Handover outcome) { }

    /** The STONITH device's answer to a status request ({@link Fencer#status()}), asked off the loop thread. */
    public CompletableFuture<Fencer.Result> stonithStatus() {
        return fencer.status();
    }

    /**
     * Monitoring gave up on group {@code groupKey} running here: the takeover machine stops it and
     * offers it to the peer ({@link org.jheartbeat.core.takeover.TakeoverEvent.GroupFailedRunning}).
     * The key is resolved to the group's index on the loop thread, against the groups as they are
     * then (a reload may have moved or removed it: a group no longer in haresources is left alone).
     * Any thread; does not block.
     *
     * @param groupKey the group's key (its first resource)
     * @param detail   which resource failed and how
     */
    public void groupFailedRunning(String groupKey, String detail) {
        post(() -> {
            List<ResourceGroupDecl> gs = config.resourceGroups();
            for (int i = 0; i < gs.size(); i++) {
                if (gs.get(i).key().equals(groupKey)) {
                    int group = i;
                    run(e -> e.onGroupFailedRunning(group, detail, clock.nanoTime(), wall.currentTimeMillis()));
                    return;
                }
            }
            log(Level.WARN, "Resource group " + groupKey + " failed while running (" + detail
                    + "), but it is no longer in haresources; nothing is done for that failure");
        });
    }

    /**
     * {@code hb cleanup}: clears the failures of group {@code group} (haresources index, or -1 for
     * every group) here and on the peer. Completes once the request was applied on the loop thread.
     */
    public CompletableFuture<Void> cleanup(int group) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        answer(f, () -> {
            run(e -> e.onCleanupRequested(group, clock.nanoTime(), wall.currentTimeMillis()));
            f.complete(null);
        });
        return f;
    }

    /**
     * Operator standby ({@code takeover == false}: hand {@code set} of our groups to the peer) or
     * takeover ({@code true}: ask the peer to hand us {@code set}). Completes when the exchange has
     * finished, was refused or was cancelled; the caller applies its own timeout. A request while
     * an operator hand-over of this node is in progress is refused at once and never reaches the
     * machine, so the one in progress goes on and its caller still learns how it ends (Heartbeat
     * 3.0.6 {@code hb_resource.c}: "Standby in progress- new request from NODE ignored").
     */
    public CompletableFuture<HandoverResult> handover(boolean takeover, ResourceSet set) {
        CompletableFuture<HandoverResult> f = new CompletableFuture<>();
        answer(f, () -> {
            run(e -> e.onOperatorCommand(clock.nanoTime(), wall.currentTimeMillis())); // a pause first
            var m = engine.machine();
            if (m.handover() == TakeoverMachine.Handover.IN_PROGRESS) {
                log(Level.WARN, "Standby in progress- new request from " + engine.me() + " ignored ["
                        + (takeover ? "takeover " : "standby ") + set + "; " + m.handoverDetail() + " in progress]");
                f.complete(new HandoverResult(false, "standby in progress (" + m.handoverDetail()
                        + "); new request ignored", TakeoverMachine.Handover.REFUSED));
                return;
            }
            run(e -> takeover ? e.onTakeoverRequested(set, clock.nanoTime(), wall.currentTimeMillis())
                    : e.onStandbyRequested(set, clock.nanoTime(), wall.currentTimeMillis()));
            watchHandover(m.handoverSerial(), f);
        });
        return f;
    }

    private void watchHandover(long serial, CompletableFuture<HandoverResult> f) {
        var m = engine.machine();
        if (f.isDone()) {
            return;
        }
        if (m.handoverSerial() != serial) {
            f.complete(new HandoverResult(false, "superseded by another standby or takeover request",
                    TakeoverMachine.Handover.CANCELLED));
        } else if (m.handover() != TakeoverMachine.Handover.IN_PROGRESS) {
            f.complete(new HandoverResult(m.handover() == TakeoverMachine.Handover.DONE, m.handoverDetail(),
                    m.handover()));
        } else if (!thread.isShutdown()) {
            schedule(answering(f, () -> watchHandover(serial, f)), 100, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * A configuration reload ({@code hb reload}, SIGHUP): runs {@code applied} from now on
     * ({@link org.jheartbeat.core.config.ConfigReload.Plan#applied()}, whose nodes and media are the
     * running ones). When the group list changes and groups are starting or stopping (or a standby
     * exchange or fencing is in progress), waits for them, checking every 100 ms, at most
     * {@code waitNanos}. Groups removed from haresources that run here are stopped (logged; a failed
     * stop is CRIT: the group may still run and nothing manages it any more); a removed group blocked
     * here is only logged. A removed group in maintenance is neither stopped nor started (maintenance
     * means nothing does): it is left as it is, unmanaged, logged (WARN) and shown by
     * {@link #maintenanceView()} until a reload adds it back. Then the engine takes the new configuration
     * ({@link NodeEngine#onReload}).
     *
     * @param waitNanos how long to wait for groups in flux, in ns
     * @return completes once applied, or exceptionally with an {@link IllegalStateException} when the
     *         groups stayed in flux ({@code waitNanos} passed; nothing applied)
     */
    public CompletableFuture<Void> reconfigure(ClusterConfig applied, long waitNanos) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        long deadline = clock.nanoTime() + waitNanos;
        answer(f, () -> reconfigure(applied, deadline, f));
        return f;
    }

    private void reconfigure(ClusterConfig applied, long deadline, CompletableFuture<Void> f) {
        List<ResourceGroupDecl> old = config.resourceGroups();
        boolean regroup = !old.equals(applied.resourceGroups());
        if (regroup && !engine.groupsQuiet()) {
            if (clock.nanoTime() - deadline > 0 || thread.isShutdown()) {
                f.completeExceptionally(new IllegalStateException("resource groups are still starting or stopping"
                        + " (or a standby or fencing is in progress): nothing applied; try again"));
            } else {
                schedule(answering(f, () -> reconfigure(applied, deadline, f)), 100, TimeUnit.MILLISECONDS);
            }
            return;
        }
        java.util.Set<String> kept = new java.util.HashSet<>();
        applied.resourceGroups().forEach(g -> kept.add(g.key()));
        for (int i = 0; i < old.size(); i++) {
            String key = old.get(i).key();
            if (kept.contains(key)) {
                continue;
            }
            GroupState here = engine.machine().groupState(i);
            if (engine.machine().inMaintenance(i)) {
                // maintenance: nothing starts or stops it, a reload neither
                String why = "removed from haresources while in maintenance (" + engine.machine().maintenanceReason(i)
                        + "); here " + here.displayName() + ": left as it is, unmanaged; stop it by hand if it runs";
                removedInMaintenance.put(key, why);
                log(Level.WARN, "Resource group " + key + " was " + why + ".");
            } else if (here == GroupState.RUNNING) {
                log(Level.INFO, "Stopping resource group " + key + " (" + GroupOpReason.REMOVED.describe(engine.peer())
                        + ")");
                groups.stop(i, GroupOpReason.REMOVED).whenComplete((ok, err) -> post(() -> {
                    if (err == null && ok) {
                        log(Level.INFO, "Resource group " + key + " stopped; it is no longer in haresources.");
                    } else {
                        engine.machine().leftUnmanaged(key, GroupState.BLOCKED); // may run here: the peer's probe
                        log(Level.CRIT, "Resource group " + key + " was removed from haresources but could not be"
                                + " stopped on " + engine.me() + (failureDetail(err).isEmpty() ? "" : " ("
                                + failureDetail(err) + ")") + ": it may still run"
                                + " here and nothing manages it any more; stop it by hand.");
                    }
                }));
            } else if (here == GroupState.BLOCKED) {
                log(Level.CRIT, "Resource group " + key + " was removed from haresources while blocked on "
                        + engine.me() + " (a stop failed): it may still run here and nothing manages it any more;"
                        + " stop it by hand.");
            }
        }
        removedInMaintenance.keySet().removeAll(kept); // back in haresources: managed again
        groups.regroup(applied.resourceGroups());
        config = applied;
        run(e -> e.onReload(applied, clock.nanoTime(), wall.currentTimeMillis()));
        f.complete(null);
    }

    /** The configuration the node runs now: the one it started with, then as each reload applied it. */
    public ClusterConfig config() {
        return config;
    }

    /** A status snapshot taken on the loop thread. */
    public CompletableFuture<StatusSnapshot> snapshot() {
        CompletableFuture<StatusSnapshot> f = new CompletableFuture<>();
        answer(f, () -> f.complete(takeSnapshot()));
        return f;
    }

    /**
     * A status snapshot with the event counts since start, taken together on the loop thread.
     *
     * @param status   as {@link #snapshot()} gives it
     * @param counters as {@link NodeEngine#counters()} gives them
     */
    public record Observation(StatusSnapshot status, ClusterCounters counters) { }

    /**
     * A status snapshot and the event counts, taken on the loop thread (a short task queued behind
     * whatever the loop is doing; the caller waits, the loop does not). For the metrics endpoint.
     */
    public CompletableFuture<Observation> observe() {
        CompletableFuture<Observation> f = new CompletableFuture<>();
        answer(f, () -> f.complete(new Observation(takeSnapshot(), engine.counters())));
        return f;
    }

    private StatusSnapshot takeSnapshot() {
        return LoopSnapshot.take(engine, config, media, List.copyOf(recent), new StatusSnapshot.LoopHealth(
                frames.dropped(), guard.errors(), guard.errorsByKind(), engine.staleFrames().total()));
    }

    /** This node's and the peer's configuration digests, taken on the loop thread (for {@code hb config diff}). */
    public CompletableFuture<ConfigDigestReport> configDigests() {
        CompletableFuture<ConfigDigestReport> f = new CompletableFuture<>();
        answer(f, () -> f.complete(new ConfigDigestReport(engine.peer().value(), engine.localConfigDigest(),
                engine.peerConfigDigest())));
        return f;
    }

    /** Stops the timer, the media and the group executor (no orderly release: see {@link #shutdown()}). */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        media.forEach(Medium::close);
        groups.close();
        fencer.close();
    }
}
