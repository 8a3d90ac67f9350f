package org.jheartbeat.resources.executor;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.loop.GroupExecutor;
import org.jheartbeat.core.loop.GroupExecutor.Probe;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.resources.group.GroupResult;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.jheartbeat.resources.monitor.GroupMonitor;
import org.jheartbeat.resources.monitor.MonitorSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's {@link GroupExecutor}: runs group starts and stops with the resources module's
 * {@link ResourceGroupRunner}, on one worker thread per group ({@code hb-group-N}, N the haresources
 * index when the worker was made, created at the group's first operation and kept by group key, so
 * at most one thread per haresources group, also across reloads).
 * Operations of one group run in the order the takeover machine issued them; groups run
 * independently, so a takeover's starts never queue behind another group's stop and its hand-over
 * sync. Scripts are looked up in the config dir's {@code resource.d/}, then {@code /etc/init.d/}.
 *
 * <p><b>Monitoring</b> (docs/design/resources.md, "Monitoring"): once a group started here, its
 * LSB, OCF and systemd resources are checked on their interval by a {@link GroupMonitor} run as one
 * more operation on the group's own queue, so a check never overlaps a start or stop of that group
 * and never runs on the cluster loop thread. A timer thread ({@code hb-monitor}) only enqueues the
 * checks. A failure is repaired in place while restarts are left; when it cannot be, the group stops
 * being watched and the {@link #onGroupFailure failure listener} is told (by group key), which hands
 * the group to the takeover machine ({@code ClusterLoop.groupFailedRunning}). A start or stop ends
 * the watching before it runs; a successful start begins it. Watches are kept by group key, across
 * reloads; a group whose definition a reload changed starts with fresh fail counts.
 */
public final class ResourceGroupExecutor implements GroupExecutor {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    /**
     * Work done around a group's start and stop on the group's worker thread, so it is part of the
     * operation the takeover machine waits for (data replication uses it: a group's data is synced
     * to the peer after the group stopped and before the hand-over completes).
     */
    public interface Lifecycle {
        /** No extra work. */
        Lifecycle NONE = new Lifecycle() { };

        /**
         * Called before the group's first resource starts. Must not throw.
         *
         * @param reason why the group starts
         */
        default void beforeStart(ResourceGroupDecl group, GroupOpReason reason) { }

        /**
         * Called once during a stop, when the group's data is at rest: after every resource listed
         * after its last file system resource stopped, while that file system is still mounted
         * ({@link ResourceGroupRunner#stop(ResourceGroupDecl, Runnable)}); for a group without a file
         * system resource, after the whole group stopped. Not called when a stop before that point
         * failed. Must not throw. Work towards the peer must end soon after {@link #peerLost}.
         *
         * @param reason why the group stops
         */
        default void dataAtRest(ResourceGroupDecl group, GroupOpReason reason) { }

        /**
         * Called after the group stopped completely (not after a failed stop). Must not throw.
         * Work towards the peer must end soon after {@link #peerLost} (the group's restart here
         * waits for this call to return).
         *
         * @param reason why the group stopped
         */
        default void afterStop(ResourceGroupDecl group, GroupOpReason reason) { }

        /**
         * The peer left the cluster: cancel work towards it in flight in {@link #dataAtRest}. Called
         * on the cluster loop thread: must not block, must not throw.
         *
         * @param peer the node that left
         * @param how  {@code died} or {@code shut down}
         */
        default void peerLost(NodeName peer, String how) { }
    }

    /**
     * Wakes the monitors: runs {@code task} (which only enqueues work) after {@code delayNanos}. The
     * daemon's is a single {@code hb-monitor} thread; tests fire tasks by hand on a fake clock.
     */
    public interface MonitorTimer {
        /**
         * @param delayNanos how long from now, ns (0 or less: at once)
         * @param task       must not block
         */
        void schedule(long delayNanos, Runnable task);

        /** Stops the timer; tasks not yet run are dropped. */
        void close();

        /** A daemon thread {@code hb-monitor} on {@link java.util.concurrent.ScheduledExecutorService}. */
        static MonitorTimer threaded() {
            return new ThreadedMonitorTimer();
        }
    }

    /** Told what monitoring finds: a group failed beyond what restarts in place repair, a restart, a group served. */
    public interface FailureListener {
        /**
         * Called on the group's worker thread; must not block.
         *
         * @param groupKey the group's key (its first resource), stable across reloads
         * @param detail   which resource failed and how
         */
        void groupFailed(String groupKey, String detail);

        /** A resource of the group failed its monitor and was restarted in place ({@code detail}: which, how). */
        default void groupRestarted(String groupKey, String detail) {
        }

        /**
         * Every watched resource of the group answered "running" to its first check after the group's start here
         * ({@link GroupMonitor.Check#servedAfterNanos()}; {@code detail}: those resources; {@code afterMillis}: ms
         * since the start ended). Once per start; never for a group with nothing watched.
         */
        default void groupServed(String groupKey, String detail, long afterMillis) {
        }
    }

    /** One group's monitor; {@link #generation} is touched on the group's worker thread only. */
    private static final class Watch {
        final ResourceGroupDecl decl;
        final GroupMonitor monitor;
        /** Bumped on every start and stop of the group: a check armed before is stale. */
        long generation;

        Watch(ResourceGroupDecl decl, GroupMonitor monitor) {
            this.decl = decl;
            this.monitor = monitor;
        }
    }

    private volatile List<ResourceGroupDecl> groups;
    private final ResourceAgents agents;
    private final ResourceGroupRunner runner;
    private final Lifecycle lifecycle;
    private final java.util.Map<String, ExecutorService> workers = new java.util.HashMap<>();
    private final Function<ResourceSpec, Optional<MonitorSettings>> watch;
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();
    private final MonitorTimer timer;
    private final MonotonicClock clock;
    private volatile FailureListener failureListener = (g, d) -> { };
    private boolean closed;

    public ResourceGroupExecutor(ClusterConfig config) {
        this(config, Lifecycle.NONE);
    }

    /** An executor that also runs {@code lifecycle} around every start and stop, and watches running groups. */
    public ResourceGroupExecutor(ClusterConfig config, Lifecycle lifecycle) {
        this(config, lifecycle, OperationTimeouts.NONE, false);
    }

    /**
     * An executor that also runs {@code lifecycle} around every start and stop, and watches running
     * groups.
     *
     * @param monitorDefaults the node's monitor defaults ({@code monitor:} in jheartbeat.yaml), below
     *                        each resource's own haresources options
     * @param watchScripts    whether every Heartbeat-class resource is watched too ({@code monitor: heartbeat_class:})
     */
    public ResourceGroupExecutor(ClusterConfig config, Lifecycle lifecycle, OperationTimeouts monitorDefaults,
                                 boolean watchScripts) {
        this(config.resourceGroups(), StandardResourceAgents.forHost(config.configDir(), Path.of("/etc/init.d"),
                new OsProcessRunner()), lifecycle, spec -> MonitorSettings.forResource(spec, monitorDefaults,
                watchScripts), MonitorTimer.threaded(), MonotonicClock.system());
    }

    /** Without monitoring (tests of the queues). */
    ResourceGroupExecutor(List<ResourceGroupDecl> groups, ResourceAgents agents, Lifecycle lifecycle) {
        this(groups, agents, lifecycle, null, null, MonotonicClock.system());
    }

    /**
     * @param groups    the haresources groups, in file order (operations name them by index)
     * @param agents    turns tokens into agents
     * @param lifecycle work around every start and stop
     * @param watch     how each resource is watched (empty: not watched); {@code null}: no monitoring
     * @param timer     wakes the monitors ({@code null} only without monitoring)
     * @param clock     monotonic time of the monitors
     */
    ResourceGroupExecutor(List<ResourceGroupDecl> groups, ResourceAgents agents, Lifecycle lifecycle,
                          Function<ResourceSpec, Optional<MonitorSettings>> watch, MonitorTimer timer,
                          MonotonicClock clock) {
        this(groups, agents, lifecycle, watch, timer, clock, new ResourceGroupRunner(agents));
    }

    ResourceGroupExecutor(List<ResourceGroupDecl> groups, ResourceAgents agents, Lifecycle lifecycle,
                          Function<ResourceSpec, Optional<MonitorSettings>> watch, MonitorTimer timer,
                          MonotonicClock clock, ResourceGroupRunner runner) {
        this.groups = List.copyOf(groups);
        this.lifecycle = java.util.Objects.requireNonNull(lifecycle, "lifecycle");
        this.agents = agents;
        this.runner = runner;
        this.watch = watch;
        this.timer = timer;
        this.clock = clock;
        for (ResourceGroupDecl g : this.groups) {
            watchFor(g);
        }
    }

    /**
     * Sets who is told when a running group fails beyond repair here (the daemon: the cluster loop).
     * Set before the first start.
     */
    public void onGroupFailure(FailureListener listener) {
        this.failureListener = java.util.Objects.requireNonNull(listener, "listener");
    }

    /** A failed start is {@code FAILED_STILL_RUNNING} when its rollback left a resource running here. */
    @Override
    public CompletableFuture<StartResult> start(int group, GroupOpReason reason) {
        ResourceGroupDecl g = groups.get(group);
        return submit(group, g, () -> {
            GroupResult r = run(g, true, reason);
            return r.success() ? StartResult.STARTED
                    : StartResult.failed(!r.leftRunningByFailedStart().isEmpty(), r.message());
        });
    }

    @Override
    public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
        ResourceGroupDecl g = groups.get(group);
        return submit(group, g, () -> {
            GroupResult r = run(g, false, reason);
            if (!r.success()) {
                throw new java.util.concurrent.CompletionException(r.message(), null);
            }
            return true;
        });
    }

    /** Status of every resource of the group, on its queue; stops nothing, starts nothing (maintenance). */
    @Override
    public CompletableFuture<Probe> probe(int group) {
        ResourceGroupDecl g = groups.get(group);
        java.util.concurrent.Executor queue;
        try {
            queue = worker(group, g.key());
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.supplyAsync(() -> {
            org.jheartbeat.resources.group.GroupStatus st = runner.status(g);
            LOG.info("Probe of resource group {}: {} here ({})", g.key(),
                    st.summary().name().toLowerCase(java.util.Locale.ROOT), st.running());
            return switch (st.summary()) {
                case RUNNING -> Probe.RUNNING;
                case PARTIAL -> Probe.PARTIAL;
                case STOPPED -> Probe.STOPPED;
            };
        }, queue);
    }

    /** Starts or ends the watching of a group without starting or stopping it, on its queue (maintenance). */
    @Override
    public void watch(int group, boolean on) {
        ResourceGroupDecl g = groups.get(group);
        Watch w = watchFor(g);
        if (w == null) {
            return;
        }
        submit(group, g, () -> {
            w.generation++;
            w.monitor.stopped();
            if (on) {
                w.monitor.adoptedAt(clock.nanoTime());
                scheduleCheck(w, w.generation);
            }
            return true;
        });
    }

    @Override
    public void regroup(List<ResourceGroupDecl> newGroups) {
        this.groups = List.copyOf(newGroups);
        for (ResourceGroupDecl g : this.groups) {
            if (!watches.containsKey(g.key())) {
                watchFor(g); // a new group shows in status at once; a redefined one is renewed at its next start or stop
            }
        }
    }

    @Override
    public void peerLost(NodeName peer, String how) {
        lifecycle.peerLost(peer, how);
    }

    private <T> CompletableFuture<T> submit(int group, ResourceGroupDecl g, java.util.function.Supplier<T> op) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return op.get();
                } finally {
                    // a cancellation aimed at this operation must not reach the group's next one
                    Thread.interrupted();
                }
            }, worker(group, g.key()));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private synchronized ExecutorService worker(int group, String key) {
        if (closed) {
            throw new RejectedExecutionException("group executor closed");
        }
        return workers.computeIfAbsent(key, k -> Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hb-group-" + group);
            t.setDaemon(true);
            return t;
        }));
    }

    /** @return the runner's result, failures logged; exceptionally (CompletionException) when a lifecycle hook failed */
    private GroupResult run(ResourceGroupDecl g, boolean start, GroupOpReason reason) {
        Watch w = watchFor(g);
        if (w != null) {
            w.generation++;
            w.monitor.stopped();
        }
        try {
            if (start) {
                lifecycle.beforeStart(g, reason);
            }
            boolean[] atRest = {false};
            GroupResult r = start ? runner.start(g) : runner.stop(g, () -> {
                atRest[0] = true;
                lifecycle.dataAtRest(g, reason);
            });
            if (r.success() && start && w != null) {
                w.monitor.startedAt(clock.nanoTime());
                scheduleCheck(w, w.generation);
            }
            if (!r.success()) {
                LOG.error("{} of resource group {} failed: {}", start ? "start" : "stop", g.key(), r.message());
            } else if (!start) {
                if (!atRest[0]) {
                    lifecycle.dataAtRest(g, reason);
                }
                lifecycle.afterStop(g, reason);
            }
            return r;
        } catch (ResourceAgentException e) {
            LOG.error("{} of resource group {} failed: {}", start ? "start" : "stop", g.key(), e.getMessage());
            throw new java.util.concurrent.CompletionException(e.getMessage(), e);
        }
    }

    /**
     * The watch of group {@code g}, made at its first use and kept by key; a group a reload redefined
     * gets a new one. Null when monitoring is off or nothing in the group is watched.
     */
    private Watch watchFor(ResourceGroupDecl g) {
        if (watch == null) {
            return null;
        }
        return watches.compute(g.key(), (k, w) -> {
            if (w != null && w.decl.equals(g)) {
                return w;
            }
            GroupMonitor m = new GroupMonitor(g, agents, runner, watch, clock);
            return m.watchesAnything() ? new Watch(g, m) : null;
        });
    }

    /** On the group's worker: arms the timer for the group's next due check. */
    private void scheduleCheck(Watch w, long gen) {
        long due = w.monitor.nextDueNanos();
        if (due == Long.MAX_VALUE) {
            return;
        }
        timer.schedule(due - clock.nanoTime(), () -> enqueueCheck(w, gen));
    }

    /**
     * Puts a check of the watched group on its queue (timer thread). The check is skipped if a start
     * or stop of the group ran since it was armed.
     */
    private void enqueueCheck(Watch w, long gen) {
        try {
            CompletableFuture.runAsync(() -> check(w, gen), worker(indexOf(w.decl.key()), w.decl.key()));
        } catch (RejectedExecutionException e) {
            // closed: the daemon is going down
        }
    }

    private int indexOf(String key) {
        List<ResourceGroupDecl> gs = groups;
        for (int i = 0; i < gs.size(); i++) {
            if (gs.get(i).key().equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /** Completes once every operation and check queued for group {@code index} so far has run (tests). */
    CompletableFuture<Void> drain(int index) {
        return CompletableFuture.runAsync(() -> { }, worker(index, groups.get(index).key()));
    }

    private void check(Watch w, long gen) {
        if (watches.get(w.decl.key()) != w || gen != w.generation || !w.monitor.watching()) {
            return;
        }
        GroupMonitor.Check c;
        try {
            c = w.monitor.runDue();
        } finally {
            Thread.interrupted();
        }
        if (c.result() == GroupMonitor.Result.GIVE_UP) {
            w.generation++;
            failureListener.groupFailed(w.decl.key(), c.detail());
        } else {
            if (c.result() == GroupMonitor.Result.RESTARTED) {
                failureListener.groupRestarted(w.decl.key(), c.detail());
            } else if (c.servedAfterNanos() >= 0) {
                failureListener.groupServed(w.decl.key(), c.detail(), c.servedAfterNanos() / 1_000_000);
            }
            scheduleCheck(w, gen);
        }
    }

    /**
     * What {@code hb status} shows of monitoring: per group with watched resources, each resource's
     * interval, fail count, restart limit and window, and its latest failure. Any thread.
     *
     * @return group key → watched resources, in haresources order; groups with nothing watched are left out
     */
    public Map<String, List<GroupMonitor.ResourceWatch>> monitorStatus() {
        Map<String, List<GroupMonitor.ResourceWatch>> out = new java.util.LinkedHashMap<>();
        for (ResourceGroupDecl g : groups) {
            Watch w = watches.get(g.key());
            if (w != null) {
                out.put(g.key(), w.monitor.failures());
            }
        }
        return out;
    }

    /**
     * Forgets the fail counts and latest failures of the resources of group {@code key}, or of every
     * group ({@code null}): part of {@code hb cleanup}. Any thread.
     */
    public void clearFailures(String key) {
        watches.forEach((k, w) -> {
            if (key == null || key.equals(k)) {
                w.monitor.clear();
            }
        });
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.close();
        }
        for (ExecutorService w : workers.values()) {
            w.shutdownNow();
        }
    }
}
