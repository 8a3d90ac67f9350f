package org.jheartbeat.cli.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
 * index, created at the group's first operation, so at most one thread per haresources line).
 * Operations of one group run in the order the takeover machine issued them; groups run
 * independently, so a takeover's starts never queue behind another group's stop and its hand-over
 * sync. Scripts are looked up in the config dir's {@code resource.d/}, then {@code /etc/init.d/}.
 *
 * <p><b>Monitoring</b> (docs/design/resources.md, "Monitoring"): once a group started here, its
 * LSB, OCF and systemd resources are checked on their interval by a {@link GroupMonitor} run as one
 * more operation on the group's own queue, so a check never overlaps a start or stop of that group
 * and never runs on the cluster loop thread. A timer thread ({@code hb-monitor}) only enqueues the
 * checks. A failure is repaired in place while restarts are left; when it cannot be, the group stops
 * being watched and the {@link #onGroupFailure failure listener} is told, which hands the group to
 * the takeover machine ({@code ClusterLoop.groupFailedRunning}). A stop ends the watching before it
 * runs.
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
         * Called after the group stopped completely (not after a failed stop). Must not throw.
         * Work towards the peer must end soon after {@link #peerLost} (the group's restart here
         * waits for this call to return).
         *
         * @param reason why the group stopped
         */
        default void afterStop(ResourceGroupDecl group, GroupOpReason reason) { }

        /**
         * The peer left the cluster: cancel work towards it in flight in {@link #afterStop}. Called
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
            java.util.concurrent.ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "hb-monitor");
                th.setDaemon(true);
                return th;
            });
            return new MonitorTimer() {
                @Override
                public void schedule(long delayNanos, Runnable task) {
                    try {
                        t.schedule(task, Math.max(0, delayNanos), java.util.concurrent.TimeUnit.NANOSECONDS);
                    } catch (RejectedExecutionException e) {
                        // closed: the daemon is going down
                    }
                }

                @Override
                public void close() {
                    t.shutdownNow();
                }
            };
        }
    }

    /** Told when a group running here failed beyond what restarts in place repair. */
    public interface FailureListener {
        /**
         * Called on the group's worker thread; must not block.
         *
         * @param group  haresources index
         * @param detail which resource failed and how
         */
        void groupFailed(int group, String detail);
    }

    private final List<ResourceGroupDecl> groups;
    private final ResourceGroupRunner runner;
    private final Lifecycle lifecycle;
    private final ExecutorService[] workers;
    private final GroupMonitor[] monitors;
    /** Bumped on every start and stop of a group (worker thread only): a check enqueued before is stale. */
    private final long[] generation;
    private final MonitorTimer timer;
    private final MonotonicClock clock;
    private volatile FailureListener failureListener = (g, d) -> { };
    private boolean closed;

    public ResourceGroupExecutor(ClusterConfig config) {
        this(config, Lifecycle.NONE);
    }

    /** An executor that also runs {@code lifecycle} around every start and stop, and watches running groups. */
    public ResourceGroupExecutor(ClusterConfig config, Lifecycle lifecycle) {
        this(config, lifecycle, OperationTimeouts.NONE);
    }

    /**
     * An executor that also runs {@code lifecycle} around every start and stop, and watches running
     * groups.
     *
     * @param monitorDefaults the node's monitor defaults ({@code monitor:} in jheartbeat.yaml), below
     *                        each resource's own haresources options
     */
    public ResourceGroupExecutor(ClusterConfig config, Lifecycle lifecycle, OperationTimeouts monitorDefaults) {
        this(config.resourceGroups(), StandardResourceAgents.forHost(config.configDir(), Path.of("/etc/init.d"),
                new OsProcessRunner()), lifecycle, spec -> MonitorSettings.forResource(spec, monitorDefaults),
                MonitorTimer.threaded(), MonotonicClock.system());
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
        this.runner = runner;
        this.workers = new ExecutorService[groups.size()];
        this.monitors = new GroupMonitor[groups.size()];
        this.generation = new long[groups.size()];
        this.timer = timer;
        this.clock = clock;
        for (int i = 0; watch != null && i < groups.size(); i++) {
            GroupMonitor m = new GroupMonitor(groups.get(i), agents, runner, watch, clock);
            monitors[i] = m.watchesAnything() ? m : null;
        }
    }

    /**
     * Sets who is told when a running group fails beyond repair here (the daemon: the cluster loop).
     * Set before the first start.
     */
    public void onGroupFailure(FailureListener listener) {
        this.failureListener = java.util.Objects.requireNonNull(listener, "listener");
    }

    @Override
    public CompletableFuture<Boolean> start(int group, GroupOpReason reason) {
        return submit(group, () -> run(group, true, reason));
    }

    @Override
    public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
        return submit(group, () -> run(group, false, reason));
    }

    @Override
    public void peerLost(NodeName peer, String how) {
        lifecycle.peerLost(peer, how);
    }

    private CompletableFuture<Boolean> submit(int group, java.util.function.Supplier<Boolean> op) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return op.get();
                } finally {
                    // a cancellation aimed at this operation must not reach the group's next one
                    Thread.interrupted();
                }
            }, worker(group));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private synchronized ExecutorService worker(int group) {
        if (closed) {
            throw new RejectedExecutionException("group executor closed");
        }
        if (workers[group] == null) {
            workers[group] = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "hb-group-" + group);
                t.setDaemon(true);
                return t;
            });
        }
        return workers[group];
    }

    private boolean run(int index, boolean start, GroupOpReason reason) {
        ResourceGroupDecl g = groups.get(index);
        GroupMonitor monitor = monitors[index];
        generation[index]++;
        if (monitor != null) {
            monitor.stopped();
        }
        try {
            if (start) {
                lifecycle.beforeStart(g, reason);
            }
            GroupResult r = start ? runner.start(g) : runner.stop(g);
            if (r.success() && start && monitor != null) {
                monitor.startedAt(clock.nanoTime());
                scheduleCheck(index, generation[index]);
            }
            if (!r.success()) {
                LOG.error("{} of resource group {} failed: {}", start ? "start" : "stop", g.key(), r.message());
                throw new java.util.concurrent.CompletionException(r.message(), null);
            } else if (!start) {
                lifecycle.afterStop(g, reason);
            }
            return true;
        } catch (ResourceAgentException e) {
            LOG.error("{} of resource group {} failed: {}", start ? "start" : "stop", g.key(), e.getMessage());
            throw new java.util.concurrent.CompletionException(e.getMessage(), e);
        }
    }

    /** On the group's worker: arms the timer for the group's next due check. */
    private void scheduleCheck(int index, long gen) {
        long due = monitors[index].nextDueNanos();
        if (due == Long.MAX_VALUE) {
            return;
        }
        timer.schedule(due - clock.nanoTime(), () -> enqueueCheck(index, gen));
    }

    /**
     * Puts a check of group {@code index} on its queue (timer thread). The check is skipped if a
     * start or stop ran since it was armed.
     *
     * @return completes when the check ran or was skipped
     */
    CompletableFuture<Void> enqueueCheck(int index, long gen) {
        try {
            return CompletableFuture.runAsync(() -> check(index, gen), worker(index));
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Completes once every operation and check queued for group {@code index} so far has run (tests). */
    CompletableFuture<Void> drain(int index) {
        return CompletableFuture.runAsync(() -> { }, worker(index));
    }

    private void check(int index, long gen) {
        GroupMonitor m = monitors[index];
        if (gen != generation[index] || !m.watching()) {
            return;
        }
        GroupMonitor.Check c;
        try {
            c = m.runDue();
        } finally {
            Thread.interrupted();
        }
        if (c.result() == GroupMonitor.Result.GIVE_UP) {
            generation[index]++;
            failureListener.groupFailed(index, c.detail());
        } else {
            scheduleCheck(index, gen);
        }
    }

    /**
     * What {@code hb status} shows of monitoring: per group with watched resources, each resource's
     * interval, fail count, restart limit and window, and its latest failure. Any thread.
     *
     * @return group key → watched resources, in file order; groups with nothing watched are left out
     */
    public java.util.Map<String, List<GroupMonitor.ResourceWatch>> monitorStatus() {
        java.util.Map<String, List<GroupMonitor.ResourceWatch>> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            if (monitors[i] != null) {
                out.put(groups.get(i).key(), monitors[i].failures());
            }
        }
        return out;
    }

    /**
     * Forgets the fail counts and latest failures of group {@code index}'s resources, or of every
     * group ({@code -1}): part of {@code hb cleanup}. Any thread.
     */
    public void clearFailures(int index) {
        for (int i = 0; i < groups.size(); i++) {
            if ((index < 0 || index == i) && monitors[i] != null) {
                monitors[i].clear();
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (timer != null) {
            timer.close();
        }
        for (ExecutorService w : workers) {
            if (w != null) {
                w.shutdownNow();
            }
        }
    }
}
