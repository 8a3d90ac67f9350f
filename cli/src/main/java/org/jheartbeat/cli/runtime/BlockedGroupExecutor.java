package org.jheartbeat.cli.runtime;

import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.core.loop.GroupExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link GroupExecutor} that refuses to start the groups the start-up probe found running and could
 * not release ({@link org.jheartbeat.resources.group.StartupProbe.Result#unreleased()}): their state
 * is unknown, so this node does not take them on. Such a start completes with {@code false} at once
 * (the takeover machine marks the group failed and logs CRIT) after a CRIT line saying why. A stop is
 * passed on; once one succeeds, the group is no longer blocked. Everything else is passed on unchanged.
 */
public final class BlockedGroupExecutor implements GroupExecutor {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private final GroupExecutor delegate;
    private final ClusterConfig config;
    private final Set<Integer> blocked = ConcurrentHashMap.newKeySet();

    /**
     * @param delegate runs the operations
     * @param config   for group names in log lines
     * @param blocked  haresources indices of the groups not to start
     */
    public BlockedGroupExecutor(GroupExecutor delegate, ClusterConfig config, Collection<Integer> blocked) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.config = Objects.requireNonNull(config, "config");
        this.blocked.addAll(blocked);
    }

    @Override
    public CompletableFuture<Boolean> start(int group) {
        if (blocked.contains(group)) {
            LOG.error(ClusterLoop.CRIT, "Resource group {} is blocked: it was found running at start-up and could not"
                    + " be stopped; not starting it (stop its resources by hand, then restart the daemon)",
                    config.resourceGroups().get(group).key());
            return CompletableFuture.completedFuture(false);
        }
        return delegate.start(group);
    }

    @Override
    public CompletableFuture<Boolean> stop(int group) {
        return delegate.stop(group).thenApply(ok -> {
            if (ok) {
                blocked.remove(group);
            }
            return ok;
        });
    }

    @Override
    public void close() {
        delegate.close();
    }
}
