package org.jheartbeat.resources.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a starting daemon does before its first heartbeat: find which of the cluster's groups
 * already (fully or partly) run on this node, and release them, so that the node joins holding
 * nothing, which is what the peer assumes of a node that (re)starts.
 *
 * <p>Every group's resources are asked for their status ({@link ResourceGroupRunner#status}; the IP
 * agent looks for the address on its interface, scripts answer {@code status}). A group with any
 * resource running is logged WARN {@code Resource group <key> found running at start-up
 * (resources: …); releasing it before joining the cluster} and stopped with the normal stop rules
 * ({@link ResourceGroupRunner#stop}: right to left, every resource, with Heartbeat's retries). A
 * group that cannot be released is logged CRIT and reported in {@link Result#unreleased()}.
 *
 * <p>Heartbeat 3.0.6 only warns here ({@code ResourceManager verifyallidle}: {@code Resource … is
 * active, and should not be!}) and leaves the resources running unmanaged; docs/design/resources.md
 * says why jheartbeat releases them instead. Blocks for as long as the agents take; call it before
 * the cluster loop starts.
 */
public final class StartupProbe {
    private static final Logger LOG = LoggerFactory.getLogger(StartupProbe.class);

    private final ResourceGroupRunner runner;

    /** @param runner asks status of and stops the groups */
    public StartupProbe(ResourceGroupRunner runner) {
        this.runner = Objects.requireNonNull(runner, "runner");
    }

    /**
     * What the probe found and did.
     *
     * @param released   indices (haresources order) of the groups found running and released
     * @param unreleased indices of the groups found running whose release failed: some resource
     *                   still runs here
     */
    public record Result(Set<Integer> released, Set<Integer> unreleased) {
        public Result {
            released = Set.copyOf(released);
            unreleased = Set.copyOf(unreleased);
        }

        /** @return true if no group was found running */
        public boolean wasIdle() {
            return released.isEmpty() && unreleased.isEmpty();
        }
    }

    /**
     * Probes every group and releases those found running.
     *
     * @param groups the haresources groups, in file order
     * @return which groups were released and which could not be
     */
    public Result releaseRunningGroups(List<ResourceGroupDecl> groups) {
        Set<Integer> released = new TreeSet<>();
        Set<Integer> unreleased = new TreeSet<>();
        for (int i = 0; i < groups.size(); i++) {
            ResourceGroupDecl group = groups.get(i);
            GroupStatus status = runner.status(group);
            if (status.summary() == GroupStatus.GroupState.STOPPED) {
                continue;
            }
            List<String> running = new ArrayList<>();
            for (Map.Entry<String, Boolean> r : status.running().entrySet()) {
                if (r.getValue()) {
                    running.add(r.getKey());
                }
            }
            LOG.warn("Resource group {} found running at start-up (resources: {}); releasing it before joining"
                    + " the cluster", group.key(), String.join(", ", running));
            GroupResult stopped = runner.stop(group);
            if (stopped.success()) {
                LOG.info("Resource group {} released at start-up", group.key());
                released.add(i);
            } else {
                LOG.error(ResourceGroupRunner.CRIT, "Resource group {} found running at start-up could not be released"
                        + " ({}); it stays blocked on this node: stop its resources by hand", group.key(),
                        stopped.message());
                unreleased.add(i);
            }
        }
        if (released.isEmpty() && unreleased.isEmpty()) {
            LOG.info("Start-up check: none of the {} resource group(s) runs on this node", groups.size());
        }
        return new Result(released, unreleased);
    }
}
