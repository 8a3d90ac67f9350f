package org.jheartbeat.cli.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.loop.GroupExecutor;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.resources.group.GroupResult;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
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

    private volatile List<ResourceGroupDecl> groups;
    private final ResourceGroupRunner runner;
    private final Lifecycle lifecycle;
    private final java.util.Map<String, ExecutorService> workers = new java.util.HashMap<>();
    private boolean closed;

    public ResourceGroupExecutor(ClusterConfig config) {
        this(config, Lifecycle.NONE);
    }

    /** An executor that also runs {@code lifecycle} around every start and stop. */
    public ResourceGroupExecutor(ClusterConfig config, Lifecycle lifecycle) {
        this(config.resourceGroups(), StandardResourceAgents.forHost(config.configDir(), Path.of("/etc/init.d"),
                new OsProcessRunner()), lifecycle);
    }

    /**
     * @param groups    the haresources groups, in file order (operations name them by index)
     * @param agents    turns tokens into agents
     * @param lifecycle work around every start and stop
     */
    ResourceGroupExecutor(List<ResourceGroupDecl> groups, ResourceAgents agents, Lifecycle lifecycle) {
        this.groups = List.copyOf(groups);
        this.lifecycle = java.util.Objects.requireNonNull(lifecycle, "lifecycle");
        this.runner = new ResourceGroupRunner(agents);
    }

    @Override
    public CompletableFuture<Boolean> start(int group, GroupOpReason reason) {
        ResourceGroupDecl g = groups.get(group);
        return submit(group, g, () -> run(g, true, reason));
    }

    @Override
    public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
        ResourceGroupDecl g = groups.get(group);
        return submit(group, g, () -> run(g, false, reason));
    }

    @Override
    public void regroup(List<ResourceGroupDecl> newGroups) {
        this.groups = List.copyOf(newGroups);
    }

    @Override
    public void peerLost(NodeName peer, String how) {
        lifecycle.peerLost(peer, how);
    }

    private CompletableFuture<Boolean> submit(int group, ResourceGroupDecl g, java.util.function.Supplier<Boolean> op) {
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

    private boolean run(ResourceGroupDecl g, boolean start, GroupOpReason reason) {
        try {
            if (start) {
                lifecycle.beforeStart(g, reason);
            }
            GroupResult r = start ? runner.start(g) : runner.stop(g);
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

    @Override
    public synchronized void close() {
        closed = true;
        for (ExecutorService w : workers.values()) {
            w.shutdownNow();
        }
    }
}
