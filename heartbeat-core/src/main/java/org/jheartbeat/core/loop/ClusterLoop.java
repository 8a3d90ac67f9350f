package org.jheartbeat.core.loop;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.control.ConfigDigestReport;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.EventSink;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * The imperative shell around a {@link NodeEngine}: one thread ({@code hb-loop}, the
 * {@link LoopScheduler}'s) owns the engine and reads the time from it;
 * media post frames to it, a timer wakes it at the engine's next deadline (at most every 100 ms),
 * and it executes the engine's effects: packets out on every medium, group operations on the
 * {@link GroupExecutor} (results posted back), log lines in Heartbeat's words. Every step, effect,
 * posted result and scheduled task runs under a {@link LoopGuard}, so no exception stops the beats;
 * received frames waiting for the loop are bounded ({@link InboundFrameLimit}).
 */
public final class ClusterLoop implements AutoCloseable {
    /** Marks ERROR events that Heartbeat would log as {@code CRIT}. */
    public static final Marker CRIT = MarkerFactory.getMarker("CRIT");
    private static final long MAX_SLEEP_NANOS = 100_000_000L;
    /** The configuration the node runs: the one it started with, then as each reload applied it. */
    private volatile ClusterConfig config;
    /** {@code hb maintenance}: its requests, probes, the setting's store and the unmanaged groups. */
    private final MaintenanceRequests maintenanceRequests = new MaintenanceRequests(this);
    /** {@code hb standby} and {@code hb takeover}: the request and the watch of its exchange. */
    private final HandoverRequests handovers = new HandoverRequests(this);
    /** {@code hb reload}: the wait for quiet groups, the removed groups, the engine's new configuration. */
    private final Reconfiguration reconfiguration = new Reconfiguration(this);
    private final NodeEngine engine;
    private final List<Medium> media;
    private final GroupExecutor groups;
    private final Fencer fencer;
    /** The loop's thread and monotonic clock. */
    private final LoopScheduler scheduler;
    private final Clock wall;
    private final CompletableFuture<Void> exited = new CompletableFuture<>();
    private final LoopLog log = new LoopLog();
    private final LoopGuard guard = new LoopGuard();
    /** Carries out what the engine decided (packets, group operations, fencing, log lines). */
    private final EffectRunner effectRunner;
    private final InboundFrameLimit frames = new InboundFrameLimit(InboundFrameLimit.MAX_WAITING);
    /** Where the loop's events go (the daemon's journal, alerts); never blocks. */
    private volatile EventSink events = EventSink.NONE;
    /** Run on the loop thread at each timer wake-up (at least every 100 ms): the watchdogs' pet. */
    private volatile Runnable onWake = () -> { };

    /**
     * @param config the configuration the engine was built from (for group names in status)
     * @param engine the protocol engine; from now on touched only by the loop thread
     * @param media  every medium, not yet started
     * @param groups runs group operations
     * @param scheduler the loop's thread and monotonic clock ({@link LoopScheduler#thread()}); closed by {@link #close}
     * @param wall   the wall clock, read in ms since the epoch for the {@code ts} field and the log lines
     */
    public ClusterLoop(ClusterConfig config, NodeEngine engine, List<Medium> media, GroupExecutor groups,
                       LoopScheduler scheduler, Clock wall) {
        this(config, engine, media, groups, Fencer.NONE, scheduler, wall);
    }

    /** @param fencer fences the peer when the engine asks (STONITH) */
    public ClusterLoop(ClusterConfig config, NodeEngine engine, List<Medium> media, GroupExecutor groups,
                       Fencer fencer, LoopScheduler scheduler, Clock wall) {
        this.fencer = fencer;
        this.config = config;
        this.engine = engine;
        this.media = List.copyOf(media);
        this.groups = groups;
        this.scheduler = scheduler;
        this.wall = wall;
        this.effectRunner = new EffectRunner(this, this.media, groups, fencer, guard, exited, maintenanceRequests);
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
        scheduler.post(() -> { // the loop thread waits here (a manual scheduler runs this later, the gate open)
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
        log.output(output);
    }

    private void startMedia() throws IOException {
        List<Medium> started = new ArrayList<>();
        try {
            for (Medium m : media) {
                m.start((link, source, frame) -> {
                    if (frames.admit()) {
                        post(() -> {
                            frames.taken();
                            run(e -> e.onFrame(link, source, frame, scheduler.nanoTime(), wall.millis()));
                        });
                    }
                });
                started.add(m);
            }
        } catch (IOException e) {
            started.forEach(Medium::close);
            scheduler.close();
            throw e;
        }
    }

    private void tick() {
        try {
            run(e -> e.onTimer(scheduler.nanoTime(), wall.millis()));
            guard.run("reporting dropped frames", () -> frames.report(scheduler.nanoTime())
                    .ifPresent(l -> log(Level.WARN, l)));
        } finally { // whatever happened above, the node beats on
            long sleep = guard.value("computing the next wake-up", () -> Math.max(1_000_000L, Math.min(MAX_SLEEP_NANOS,
                    engine.nextWakeupNanos() - scheduler.nanoTime())), MAX_SLEEP_NANOS);
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

    /**
     * Records the cluster's events in {@code sink} from now on: groups starting and stopping with their reason and
     * duration, fencing asked and its outcome ({@link EffectRunner}), monitor failures ({@link #groupFailedRunning})
     * and groups served ({@link #groupServed}), nodes and links ({@link NodeEngine#recordEventsTo}). Set before
     * {@link #start}.
     */
    public void recordEventsTo(EventSink sink) {
        this.events = java.util.Objects.requireNonNull(sink, "sink");
        engine.recordEventsTo(sink);
    }

    /** Records {@code kind} on this node now; {@code durationMillis} -1 when it has none. Loop thread. */
    void record(EventKind kind, String subject, String cause, long durationMillis) {
        events.record(new ClusterEvent(0, wall.millis(), engine.me().value(), kind, subject, cause, "", durationMillis));
    }

    /** Runs {@code task} on the loop thread after {@code delay}, under the guard; nothing once closed. */
    void schedule(Runnable task, long delay, TimeUnit unit) {
        try {
            scheduler.schedule(guard.wrap("running a loop task", task), unit.toNanos(delay));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // loop already stopped: late frames and results are dropped
        }
    }

    void post(Runnable r) {
        schedule(r, 0, TimeUnit.NANOSECONDS);
    }

    void answer(CompletableFuture<?> f, Runnable r) {
        post(answering(f, r));
    }

    /** {@code r} (which completes {@code f}) under the guard: if it fails, so does {@code f} (no endless wait). */
    Runnable answering(CompletableFuture<?> f, Runnable r) {
        return () -> {
            if (!guard.run("answering a request", r)) {
                f.completeExceptionally(new IllegalStateException("internal error in the cluster loop (see the log)"));
            }
        };
    }

    /** One engine step and its effects; a step that throws drops its event, an effect that throws only itself. */
    void run(Function<NodeEngine, List<Effect>> step) {
        List<Effect> effects = guard.value("in an engine step (event dropped)", () -> step.apply(engine), List.of());
        for (Effect ef : effects) {
            guard.run("executing " + ef.getClass().getSimpleName(), () -> effectRunner.execute(ef));
        }
    }

    /**
     * Where the state directory keeps the maintenance setting ({@code hb maintenance}); called on the
     * loop thread, must not block (the daemon writes on a thread of its own). Set before {@link #start}.
     */
    public void onMaintenanceChange(java.util.function.Consumer<org.jheartbeat.core.takeover.Maintenance> store) {
        maintenanceRequests.onChange(store);
    }

    /** How {@code hb maintenance} ended: applied ({@code ok}) or refused with what to fix, and a one-line account. */
    public record MaintenanceResult(boolean ok, String detail) { }

    /**
     * A group the daemon's start-up found running though its haresources no longer defines it, and
     * left (in maintenance, or its release failed): shown by {@link #maintenanceView()} with {@code why}.
     * Call only from {@link #start(Runnable)}'s {@code beforeFirstBeat}, or before {@link #start}.
     */
    public void unmanagedAtStartup(String key, String why) {
        maintenanceRequests.unmanaged(key, why);
    }

    /** How long {@code hb maintenance off} waits for the peer's probe, in s. */
    public static final long PEER_PROBE_TIMEOUT_S = 10;

    /**
     * {@code hb maintenance on|off} for {@code scope} (docs/design/takeover.md, "Maintenance").
     * On: applied here, kept in the state directory, sent to the peer (now, or when it returns).
     * Off: the groups that leave maintenance are probed here and on the peer first; if one runs on both
     * nodes the request is refused and nothing changes; else what runs is adopted where it runs and
     * what runs nowhere is started on the node it belongs to. A peer that is not alive cannot be probed:
     * a group it last reported running ({@code jhb-maint}, until it is fenced) is taken as running there
     * and not started here. Any thread; completes when applied or refused.
     */
    public CompletableFuture<MaintenanceResult> maintenance(org.jheartbeat.core.takeover.Maintenance.Scope scope,
                                                            boolean on) {
        return maintenanceRequests.request(scope, on);
    }

    /**
     * The maintenance setting and, per group in maintenance here, why and where it runs as last seen
     * (here: the machine's state; the peer: its last {@code jhb-maint}). Taken on the loop thread.
     */
    public CompletableFuture<MaintenanceView> maintenanceView() {
        return maintenanceRequests.view();
    }

    /** The reason a group operation completed exceptionally ({@link GroupExecutor}), or empty. */
    static String failureDetail(Throwable err) {
        Throwable t = err;
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null
                && (t.getMessage() == null || t.getMessage().equals(t.getCause().toString()))) {
            t = t.getCause();
        }
        return t == null ? "" : t.getMessage() != null ? t.getMessage() : t.toString();
    }

    String key(int group) {
        return config.resourceGroups().get(group).key();
    }

    /** Logs {@code text} ({@link LoopLog}). */
    void log(Level level, String text) {
        log.line(level, text, wall.millis(), guard);
    }

    /**
     * The ICMP edge saw ping node {@code node} answer: handed to the engine on the loop thread. Safe to
     * call from any thread.
     */
    public void pingAnswered(String node) {
        post(() -> run(e -> e.onPingAnswered(node, scheduler.nanoTime(), wall.millis())));
    }

    /** Asks for an orderly shutdown; the returned future completes when the engine says it may exit. */
    public CompletableFuture<Void> shutdown() {
        post(() -> run(e -> e.onShutdownRequested(scheduler.nanoTime(), wall.millis())));
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
                    record(EventKind.MONITOR_FAILED, groupKey, detail, -1);
                    run(e -> e.onGroupFailedRunning(group, detail, scheduler.nanoTime(), wall.millis()));
                    return;
                }
            }
            log(Level.WARN, "Resource group " + groupKey + " failed while running (" + detail
                    + "), but it is no longer in haresources; nothing is done for that failure");
        });
    }

    /**
     * Monitoring found every watched resource of group {@code groupKey} running ({@code detail}) at its first check,
     * {@code afterMillis} ms after the group's start here ended: recorded as {@code group-served} on the loop thread,
     * so after the start's {@code group-started}. Any thread; does not block.
     */
    public void groupServed(String groupKey, String detail, long afterMillis) {
        post(() -> record(EventKind.GROUP_SERVED, groupKey, detail, afterMillis));
    }

    /**
     * {@code hb cleanup}: clears the failures of group {@code group} (haresources index, or -1 for
     * every group) here and on the peer. Completes once the request was applied on the loop thread.
     */
    public CompletableFuture<Void> cleanup(int group) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        answer(f, () -> {
            run(e -> e.onCleanupRequested(group, scheduler.nanoTime(), wall.millis()));
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
        return handovers.request(takeover, set);
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
        return reconfiguration.request(applied, waitNanos);
    }

    /** The engine; loop thread only. */
    NodeEngine engine() {
        return engine;
    }

    /** Whether the loop was closed (requests that wait give up). */
    boolean closed() {
        return scheduler.isShutdown();
    }

    /** A reload applied: the configuration the node runs from now on (loop thread). */
    void configure(ClusterConfig applied) {
        config = applied;
    }

    /** The maintenance requests (a reload leaves removed groups in maintenance unmanaged there). */
    MaintenanceRequests maintenanceRequests() {
        return maintenanceRequests;
    }

    /** Runs group operations. */
    GroupExecutor groups() {
        return groups;
    }

    long nanoTime() {
        return scheduler.nanoTime();
    }

    long wallMillis() {
        return wall.millis();
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
        return LoopSnapshot.take(engine, config, media, log.recent(), new StatusSnapshot.LoopHealth(
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
        scheduler.close();
        media.forEach(Medium::close);
        groups.close();
        fencer.close();
    }
}
