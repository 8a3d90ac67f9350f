package org.jheartbeat.core.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigReload;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.loop.MaintenanceOff;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverMachine;

/**
 * The operator's commands, reaching a node's engine as {@code ClusterLoop} passes them on: a hand-over
 * ({@code ClusterLoop.handover}: refused while one is in progress), {@code hb cleanup}, {@code hb
 * maintenance} (on: applied at once; off: both nodes probed first, refused if a group runs on both,
 * as {@code ClusterLoop.maintenance}), {@code hb reload} ({@code ClusterLoop.reconfigure}: waits for
 * the groups to be quiet, stops groups the new haresources removed unless they are in maintenance) and
 * SIGTERM. A command to a node whose daemon is down is lost (the CLI says so); to a frozen daemon it
 * waits until it resumes.
 */
final class SimOperator {
    private static final long PEER_PROBE_TIMEOUT_NANOS = 10_000_000_000L;
    private static final long RELOAD_WAIT_NANOS = 20_000_000_000L;

    private final Simulator sim;
    private long probeRequests;

    /** A {@code hb maintenance off} waiting for the peer's probe. */
    private record PendingOff(SimNode node, int epoch, Maintenance.Scope scope, Maintenance next, Set<Integer> leaving,
                              Set<Integer> here, Set<Integer> partly) { }

    private final Map<Long, PendingOff> pending = new HashMap<>();

    SimOperator(Simulator sim) {
        this.sim = sim;
    }

    void apply(SimEvent e, SimNode n) {
        switch (e.kind()) {
            case STANDBY -> handover(n, false, ResourceSet.values()[e.param()]);
            case TAKEOVER -> handover(n, true, ResourceSet.values()[e.param()]);
            case FAILBACK -> handover(n, false, ResourceSet.FOREIGN);
            case CLEANUP -> n.daemonDo(() -> {
                int local = e.target() < 0 ? -1 : n.agents.localOf(e.target());
                if (e.target() < 0 || local >= 0) {
                    n.execute(n.engine.onCleanupRequested(local, sim.now, n.wall()));
                }
            });
            case MAINTENANCE -> n.daemonDo(() -> maintenance(n, e));
            case RELOAD -> {
                n.variant = e.param();
                n.daemonDo(() -> reload(n, n.epoch, sim.variantConfig(e.param()), sim.now + RELOAD_WAIT_NANOS));
                if (e.durationMillis() > 0) {
                    sim.at(sim.now + e.durationMillis() * 1_000_000L, null, () -> {
                        n.variant = 0;
                        sim.invariants.commandIssued();
                        n.daemonDo(() -> reload(n, n.epoch, sim.variantConfig(0), sim.now + RELOAD_WAIT_NANOS));
                    });
                }
            }
            default -> throw new IllegalArgumentException("not an operator command: " + e);
        }
    }

    private void handover(SimNode n, boolean takeover, ResourceSet set) {
        n.daemonDo(() -> {
            n.execute(n.engine.onOperatorCommand(sim.now, n.wall())); // as ClusterLoop.handover: a pause first
            TakeoverMachine m = n.engine.machine();
            if (m.handovers().outcome() == TakeoverMachine.Handover.IN_PROGRESS) {
                sim.trace(n, "operator request refused: a hand-over is in progress");
                return;
            }
            n.execute(takeover ? n.engine.onTakeoverRequested(set, sim.now, n.wall())
                    : n.engine.onStandbyRequested(set, sim.now, n.wall()));
        });
    }

    /** SIGTERM: an orderly shutdown (the engine releases everything, then exits). */
    void shutdown(SimNode n) {
        n.daemonDo(() -> n.execute(n.engine.onShutdownRequested(sim.now, n.wall())));
    }

    void daemonGone(SimNode n) {
        pending.values().removeIf(p -> p.node == n);
    }

    private void maintenance(SimNode n, SimEvent e) {
        boolean on = e.param() % 2 == 0;
        Maintenance.Scope scope = switch (e.param() / 2) {
            case 0 -> Maintenance.Scope.CLUSTER;
            case 1 -> new Maintenance.Scope(Maintenance.Kind.NODE, n.name.value());
            default -> new Maintenance.Scope(Maintenance.Kind.GROUP, sim.groupKeys.get(Math.max(0, e.target())));
        };
        n.execute(n.engine.onOperatorCommand(sim.now, n.wall())); // as ClusterLoop.maintenance: a pause first
        TakeoverMachine m = n.engine.machine();
        Maintenance cur = m.maintenancePolicy().setting();
        Maintenance next = cur.with(scope, on, cur.version() + 1);
        Set<Integer> leaving = on ? Set.of() : m.maintenancePolicy().leaving(next);
        if (cur.has(scope) == on && leaving.isEmpty()) {
            return;
        }
        if (leaving.isEmpty()) {
            n.execute(n.engine.onMaintenanceApplied(next, Set.of(), Set.of(), Set.of(), n.engine.peerMaintenanceRuns(),
                    true, sim.now, n.wall()));
            return;
        }
        PendingOff p = new PendingOff(n, n.epoch, scope, next, leaving, n.agents.probe(true, leaving),
                n.agents.probe(false, leaving));
        boolean peerAlive = m.peerPresence().alive();
        if (peerAlive && n.engine.peerConfigDigest().isPresent()) {
            long req = ++probeRequests;
            pending.put(req, p);
            n.execute(n.engine.onPeerProbeRequested(req, n.wall()));
            sim.at(sim.now + PEER_PROBE_TIMEOUT_NANOS, n, () -> {
                if (pending.remove(req) != null) {
                    sim.trace(n, "hb maintenance off: the peer did not answer the probe; nothing changed");
                }
            });
        } else if (!peerAlive) {
            // as ClusterLoop.maintenance: what the peer last reported running in maintenance stays there
            Set<String> last = new java.util.HashSet<>();
            n.engine.peerMaintenanceRuns().forEach(i -> last.add(n.config.resourceGroups().get(i).key()));
            finishOff(p, last);
        } else {
            finishOff(p, Set.of());
        }
    }

    /** The peer's answer ({@code jhb-maint runs}) to a probe request of {@code n}. */
    void peerProbed(SimNode n, long request, Set<String> runs) {
        PendingOff p = pending.remove(request);
        if (p != null && p.node == n && p.epoch == n.epoch) {
            finishOff(p, runs);
        }
    }

    private void finishOff(PendingOff p, Set<String> thereKeys) {
        SimNode n = p.node;
        List<ResourceGroupDecl> gs = n.config.resourceGroups();
        Set<Integer> there = MaintenanceOff.indicesOf(gs, thereKeys);
        List<String> twice = MaintenanceOff.runOnBoth(gs, p.leaving, p.here, p.partly, there);
        if (!twice.isEmpty()) {
            sim.trace(n, "hb maintenance off refused: " + String.join(", ", twice) + " run on both nodes");
            return;
        }
        Maintenance apply = MaintenanceOff.settingToApply(n.engine.machine().maintenancePolicy().setting(), p.next, p.scope);
        n.maintenanceOffAt = sim.now;
        n.execute(n.engine.onMaintenanceApplied(apply, p.leaving, p.here, p.partly, there, true, sim.now, n.wall()));
    }

    /**
     * {@code ClusterLoop.reconfigure}: waits (every 100 ms, until {@code deadline}) while the group list
     * changes and groups are in flux; stops groups removed from haresources that run here; then the engine
     * takes the new configuration.
     */
    private void reload(SimNode n, int epoch, ClusterConfig next, long deadline) {
        if (n.engine == null || n.epoch != epoch) {
            return;
        }
        ClusterConfig applied = ConfigReload.plan(n.config, next).applied();
        List<ResourceGroupDecl> old = n.config.resourceGroups();
        boolean regroup = !old.equals(applied.resourceGroups());
        if (regroup && !n.engine.groupsQuiet()) {
            if (sim.now > deadline) {
                sim.trace(n, "hb reload: groups still in flux; nothing applied");
            } else {
                sim.at(sim.now + 100_000_000L, n, () -> n.daemonDo(() -> reload(n, epoch, next, deadline)));
            }
            return;
        }
        Set<String> kept = new java.util.HashSet<>();
        applied.resourceGroups().forEach(g -> kept.add(g.key()));
        for (int i = 0; i < old.size(); i++) {
            if (!kept.contains(old.get(i).key()) && n.engine.machine().maintenancePolicy().covers(i)) {
                sim.trace(n, "hb reload: " + old.get(i).key() + " removed while in maintenance: left as it is");
            } else if (!kept.contains(old.get(i).key()) && n.engine.machine().groupState(i) == GroupState.RUNNING) {
                sim.invariants.stopIssued(n, i, GroupOpReason.REMOVED.name());
                n.agents.submit(i, false, GroupOpReason.REMOVED, false);
            }
        }
        // as Reloader: the state directory's groups gain the new ones before anything starts
        List<ResourceGroupDecl> mayRun = new java.util.ArrayList<>(n.mayRun);
        Set<String> have = new java.util.HashSet<>();
        mayRun.forEach(g -> have.add(g.key()));
        applied.resourceGroups().stream().filter(g -> have.add(g.key())).forEach(mayRun::add);
        n.mayRun = List.copyOf(mayRun);
        n.agents.configChanged(applied);
        n.config = applied;
        n.reloadedAt = sim.now;
        sim.trace(n, "reloaded: " + applied.resourceGroups().size() + " group(s)");
        n.execute(n.engine.onReload(applied, sim.now, n.wall()));
    }
}
