package org.jheartbeat.cli.runtime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.core.state.StateDirectory;
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
        probeOrRelease(config, me, machine, runner, List.of());
    }

    /**
     * As {@link #probeOrRelease(ClusterConfig, NodeName, TakeoverMachine, ResourceGroupRunner)}, and first
     * the groups this daemon may have run before ({@code former}: the state directory's {@code groups})
     * that the configuration no longer defines (haresources changed while the daemon was down): the
     * machine knows nothing of them, so they are released here as well; one in maintenance is left as
     * it is (WARN), one that cannot be stopped is reported BLOCKED (CRIT). Without this such a group
     * would run on, unmanaged, while the peer starts it too.
     *
     * @param former the groups of the state directory's {@code groups} file (empty: none)
     * @return the groups of {@code former} not in the configuration that may still run here (left in
     *         maintenance, or not released), each with why, to keep in the {@code groups} file and show
     */
    public static java.util.Map<ResourceGroupDecl, String> probeOrRelease(ClusterConfig config, NodeName me,
                                                                         TakeoverMachine machine,
                                                                         ResourceGroupRunner runner,
                                                                         List<ResourceGroupDecl> former) {
        java.util.Map<ResourceGroupDecl, String> left = new java.util.LinkedHashMap<>();
        java.util.Set<String> keys = new java.util.HashSet<>();
        config.resourceGroups().forEach(g -> keys.add(g.key()));
        List<ResourceGroupDecl> gone = new ArrayList<>();
        for (ResourceGroupDecl g : former) {
            if (keys.contains(g.key())) {
                continue;
            }
            if (machine.maintenancePolicy().setting().covers(me, g.key())) {
                GroupStatus st = runner.status(g);
                if (st.summary() != GroupStatus.GroupState.STOPPED) {
                    String why = "no longer in haresources, found "
                            + st.summary().name().toLowerCase(java.util.Locale.ROOT)
                            + " at start-up while in maintenance: left as it is, unmanaged; stop it by hand";
                    LOG.warn("Resource group {} is {}", g.key(), why);
                    left.put(g, why);
                    machine.reload().leftUnmanaged(g.key(), org.jheartbeat.core.takeover.GroupState.RUNNING);
                }
            } else {
                gone.add(g);
            }
        }
        if (!gone.isEmpty()) {
            StartupProbe.Result r = new StartupProbe(runner).releaseRunningGroups(gone);
            r.released().forEach(j -> LOG.info("Resource group {} is no longer in haresources: released at start-up",
                    gone.get(j).key()));
            for (int j : r.unreleased()) {
                String why = "BLOCKED: no longer in haresources, found running at start-up and could not be stopped;"
                        + " it may still run here and nothing manages it: stop it by hand";
                LOG.error(ClusterLoop.CRIT, "Resource group {} is {}", gone.get(j).key(), why);
                left.put(gone.get(j), why);
                machine.reload().leftUnmanaged(gone.get(j).key(), org.jheartbeat.core.takeover.GroupState.BLOCKED);
            }
        }
        probeCurrent(config, me, machine, runner);
        return left;
    }

    private static void probeCurrent(ClusterConfig config, NodeName me, TakeoverMachine machine,
                                     ResourceGroupRunner runner) {
        Maintenance m = machine.maintenancePolicy().setting();
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
                machine.maintenancePolicy().runningAtStartup(i);
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

    /**
     * The groups this daemon may have run (state directory, {@code groups}); none when the file is
     * missing. One that cannot be read is CRIT and taken as none: the groups of haresources are still
     * released at start-up as always.
     */
    public static List<ResourceGroupDecl> readGroups(StateDirectory state, ClusterConfig config) {
        try {
            return state.readGroups(config.nodes());
        } catch (IOException e) {
            LOG.error(ClusterLoop.CRIT, "{}: cannot read the groups this node ran before ({}); a group dropped"
                    + " from haresources while the daemon was down is not released", state.groupsFile(), e.getMessage());
            return List.of();
        }
    }

    /** Writes the groups this daemon may run to the state directory; a failure is CRIT (the next start cannot know). */
    public static void keepGroups(StateDirectory state, List<ResourceGroupDecl> groups) {
        try {
            state.writeGroups(groups);
        } catch (IOException e) {
            LOG.error(ClusterLoop.CRIT, "cannot keep the groups this node may run in {}: {}; if haresources drops"
                    + " one while the daemon is down, the next start does not release it", state.groupsFile(),
                    e.getMessage());
        }
    }

    /**
     * Before a reload applies {@code groups}: the state directory's {@code groups} gains them (what the
     * file had stays: a group the reload drops may still run until it is stopped).
     */
    public static void addGroups(StateDirectory state, ClusterConfig config,
                                 List<ResourceGroupDecl> groups) {
        List<ResourceGroupDecl> mayRun = new ArrayList<>(readGroups(state, config));
        java.util.Set<String> have = new java.util.HashSet<>();
        mayRun.forEach(g -> have.add(g.key()));
        groups.stream().filter(g -> have.add(g.key())).forEach(mayRun::add);
        keepGroups(state, mayRun);
    }
}
