package org.jheartbeat.cli.runtime;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.loop.GroupExecutor;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.group.GroupResult;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's {@link GroupExecutor}: runs group starts and stops with the resources module's
 * {@link ResourceGroupRunner} on one worker thread ({@code hb-resources}), so operations never
 * overlap and run in the order the takeover machine issued them. Scripts are looked up in the config
 * dir's {@code resource.d/}, then {@code /etc/init.d/}.
 */
public final class ResourceGroupExecutor implements GroupExecutor {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    /**
     * Work done around a group's start and stop on the same worker thread, so it is part of the
     * operation the takeover machine waits for (data replication uses it: a group's data is synced
     * to the peer after the group stopped and before the hand-over completes).
     */
    public interface Lifecycle {
        /** No extra work. */
        Lifecycle NONE = new Lifecycle() { };

        /** Called before the group's first resource starts. Must not throw. */
        default void beforeStart(ResourceGroupDecl group) { }

        /** Called after the group stopped completely (not after a failed stop). Must not throw. */
        default void afterStop(ResourceGroupDecl group) { }
    }

    private final ClusterConfig config;
    private final ResourceGroupRunner runner;
    private final Lifecycle lifecycle;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hb-resources");
        t.setDaemon(true);
        return t;
    });

    public ResourceGroupExecutor(ClusterConfig config) {
        this(config, Lifecycle.NONE);
    }

    /** An executor that also runs {@code lifecycle} around every start and stop. */
    public ResourceGroupExecutor(ClusterConfig config, Lifecycle lifecycle) {
        this.config = config;
        this.lifecycle = java.util.Objects.requireNonNull(lifecycle, "lifecycle");
        this.runner = new ResourceGroupRunner(StandardResourceAgents.forHost(config.configDir(),
                Path.of("/etc/init.d"), new OsProcessRunner()));
    }

    @Override
    public CompletableFuture<Boolean> start(int group) {
        return CompletableFuture.supplyAsync(() -> run(group, true), worker);
    }

    @Override
    public CompletableFuture<Boolean> stop(int group) {
        return CompletableFuture.supplyAsync(() -> run(group, false), worker);
    }

    private boolean run(int index, boolean start) {
        ResourceGroupDecl g = config.resourceGroups().get(index);
        try {
            if (start) {
                lifecycle.beforeStart(g);
            }
            GroupResult r = start ? runner.start(g) : runner.stop(g);
            if (!r.success()) {
                LOG.error("{} of resource group {} failed: {}", start ? "start" : "stop", g.key(), r.message());
                throw new java.util.concurrent.CompletionException(r.message(), null);
            } else if (!start) {
                lifecycle.afterStop(g);
            }
            return true;
        } catch (ResourceAgentException e) {
            LOG.error("{} of resource group {} failed: {}", start ? "start" : "stop", g.key(), e.getMessage());
            throw new java.util.concurrent.CompletionException(e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
