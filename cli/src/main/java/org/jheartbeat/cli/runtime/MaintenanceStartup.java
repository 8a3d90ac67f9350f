package org.jheartbeat.cli.runtime;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.resources.group.GroupStatus;
import org.jheartbeat.resources.group.ResourceGroupRunner;
import org.jheartbeat.resources.group.StartupProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a starting daemon does with the groups found running: those its maintenance setting
 * covers (cluster-wide, this node, the group) are probed once and left exactly as they are, running
 * ones marked running in the machine (it holds them, unmanaged); the others are released as always
 * ({@link StartupProbe}; a group that cannot be released is BLOCKED). Blocks for as long as the agents
 * take: call it before the first beat.
 */
public final class MaintenanceStartup {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private MaintenanceStartup() {
    }

    /**
     * @param machine the takeover machine, before its first event; its maintenance setting decides
     */
    public static void probeOrRelease(ClusterConfig config, NodeName me, TakeoverMachine machine,
                                      ResourceGroupRunner runner) {
        Maintenance m = machine.maintenance();
        List<ResourceGroupDecl> groups = config.resourceGroups();
        List<Integer> managed = new ArrayList<>();
        List<String> running = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            ResourceGroupDecl g = groups.get(i);
            if (!m.covers(me, g.key())) {
                managed.add(i);
                continue;
            }
            GroupStatus st = runner.status(g);
            if (st.summary() != GroupStatus.GroupState.STOPPED) {
                machine.runningAtStartup(i);
                running.add(g.key() + (st.summary() == GroupStatus.GroupState.PARTIAL ? " (partly: " + st.running() + ")"
                        : ""));
            }
            LOG.info("Maintenance ({}): resource group {} is {} on {}; left as it is", m.reason(me, g.key()), g.key(),
                    st.summary().name().toLowerCase(java.util.Locale.ROOT), me);
        }
        if (managed.size() < groups.size()) {
            LOG.info("Maintenance start-up probe: running on {}: {}", me, running.isEmpty() ? "none"
                    : String.join(", ", running));
        }
        if (managed.isEmpty()) {
            return;
        }
        List<ResourceGroupDecl> sub = managed.stream().map(groups::get).toList();
        new StartupProbe(runner).releaseRunningGroups(sub).unreleased()
                .forEach(j -> machine.blockedAtStartup(managed.get(j), "found running at start-up and could not be stopped"));
    }
}
