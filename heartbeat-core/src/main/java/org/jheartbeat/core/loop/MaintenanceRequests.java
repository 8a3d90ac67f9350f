package org.jheartbeat.core.loop;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.TakeoverMachine;

/**
 * {@code hb maintenance} as the loop serves it: the request, the probes of both nodes it waits for, the
 * setting kept in the state directory, and what {@code hb maintenance status} shows. Everything here runs on
 * the loop thread ({@link ClusterLoop#answer}, {@link ClusterLoop#run}); the decision once both nodes were
 * probed is {@link MaintenanceOff}'s.
 */
final class MaintenanceRequests {
    private final ClusterLoop loop;
    /** Keeps the maintenance setting (the daemon: the state directory); nothing by default. */
    private Consumer<Maintenance> store = m -> { };
    /** Our {@code jhb-maint probe} requests waiting for the peer's answer, by number. */
    private final Map<Long, CompletableFuture<Set<String>>> peerProbes = new HashMap<>();
    private long probeRequests;
    /**
     * Groups no longer in haresources left as they were, unmanaged (a reload removed them in
     * maintenance; the start-up found them running and left them): key → why, for status.
     */
    private final Map<String, String> removedInMaintenance = new LinkedHashMap<>();

    MaintenanceRequests(ClusterLoop loop) {
        this.loop = loop;
    }

    void onChange(Consumer<Maintenance> store) {
        this.store = java.util.Objects.requireNonNull(store, "store");
    }

    /** Keeps a changed setting ({@code Effect.PersistMaintenance}). */
    void persist(Maintenance setting) {
        store.accept(setting);
    }

    /** The peer answered our probe request {@code request} ({@code Effect.PeerProbed}). */
    void peerProbed(long request, Set<String> runs) {
        CompletableFuture<Set<String>> f = peerProbes.remove(request);
        if (f != null) {
            f.complete(runs);
        }
    }

    /** The peer asked what runs here ({@code Effect.ProbeForPeer}): every group probed, the answer sent. */
    void probeForPeer(long request) {
        Set<Integer> all = new java.util.TreeSet<>();
        for (int i = 0; i < loop.config().resourceGroups().size(); i++) {
            all.add(i);
        }
        loop.groups().probeAll(all).whenComplete((found, err) -> loop.post(() -> {
            if (err != null) {
                loop.log(org.jheartbeat.core.takeover.Effect.Level.ERROR, "Maintenance: cannot probe the resource"
                        + " groups for " + loop.engine().peer() + ": " + ClusterLoop.failureDetail(err)
                        + "; not answering (its request fails)");
            } else {
                loop.run(e -> e.onProbedForPeer(request, GroupExecutor.Probe.RUNNING.in(found),
                        GroupExecutor.Probe.PARTIAL.in(found), loop.wallMillis()));
            }
        }));
    }

    /**
     * The peer's setting ends maintenance for groups here ({@code Effect.ProbeThenApply}): they are probed,
     * then the setting applied with what runs; a failed probe leaves them in maintenance here (CRIT).
     */
    void probeThenApply(org.jheartbeat.core.takeover.Effect.ProbeThenApply pa) {
        loop.groups().probeAll(pa.leaving()).whenComplete((found, err) -> loop.post(() -> {
            if (err != null) {
                List<String> keys = new java.util.ArrayList<>();
                pa.leaving().forEach(i -> keys.add(loop.key(i)));
                loop.log(org.jheartbeat.core.takeover.Effect.Level.CRIT, "Maintenance: cannot probe "
                        + String.join(", ", keys) + " (" + ClusterLoop.failureDetail(err)
                        + "); they stay in maintenance here");
                return;
            }
            loop.run(e -> e.onMaintenanceApplied(pa.setting(), pa.leaving(), GroupExecutor.Probe.RUNNING.in(found),
                    GroupExecutor.Probe.PARTIAL.in(found), pa.peerRuns(), false, loop.nanoTime(), loop.wallMillis()));
        }));
    }

    /** Group {@code key}, no longer defined, is left as it is, unmanaged, for {@code why}. */
    void unmanaged(String key, String why) {
        removedInMaintenance.put(key, why);
    }

    /** These keys are in haresources again: managed again. */
    void managedAgain(Set<String> keys) {
        removedInMaintenance.keySet().removeAll(keys);
    }

    /** See {@link ClusterLoop#maintenance}. */
    CompletableFuture<ClusterLoop.MaintenanceResult> request(Maintenance.Scope scope, boolean on) {
        CompletableFuture<ClusterLoop.MaintenanceResult> f = new CompletableFuture<>();
        loop.answer(f, () -> {
            loop.run(e -> e.onOperatorCommand(loop.nanoTime(), loop.wallMillis())); // a pause first
            NodeEngine engine = loop.engine();
            TakeoverMachine m = engine.machine();
            Maintenance cur = m.maintenancePolicy().setting();
            Maintenance next = cur.with(scope, on, cur.version() + 1);
            Set<Integer> leaving = on ? Set.of() : m.maintenancePolicy().leaving(next);
            if (cur.has(scope) == on && leaving.isEmpty()) {
                f.complete(new ClusterLoop.MaintenanceResult(true, "maintenance " + scope.describe() + " is already "
                        + (on ? "on" : "off") + " (now: " + cur.describe() + ")"));
                return;
            }
            boolean peerAlive = m.peerPresence().alive();
            String away = peerAlive ? "" : "; " + engine.peer() + " is not reachable: applied on " + engine.me()
                    + " only, and sent to " + engine.peer() + " when it returns";
            if (leaving.isEmpty()) {
                loop.run(e -> e.onMaintenanceApplied(next, Set.of(), Set.of(), Set.of(), e.peerMaintenanceRuns(), true,
                        loop.nanoTime(), loop.wallMillis()));
                f.complete(new ClusterLoop.MaintenanceResult(true, "maintenance " + scope.describe() + " "
                        + (on ? "on" : "off") + " (now: " + next.describe() + ")" + away));
                return;
            }
            // a peer that never sent jhb-config (a real Heartbeat 3.0.6 node) drops jhb-maint: not asked
            boolean peerSpeaksJhb = engine.peerConfigDigest().isPresent();
            String notAsked = peerAlive && !peerSpeaksJhb ? "; " + engine.peer() + " does not speak jhb-maint"
                    + " (not jheartbeat?): only " + engine.me() + " was probed" : "";
            CompletableFuture<Set<String>> peerRuns = probePeer(peerAlive && peerSpeaksJhb, peerAlive);
            loop.groups().probeAll(leaving).thenCombine(peerRuns, (here, there) -> new Object[] {here, there})
                    .whenComplete((both, err) -> loop.answer(f, () -> {
                        if (err != null) {
                            f.complete(new ClusterLoop.MaintenanceResult(false, "cannot learn what runs ("
                                    + ClusterLoop.failureDetail(err) + "); nothing changed"));
                            return;
                        }
                        @SuppressWarnings("unchecked")
                        Map<Integer, GroupExecutor.Probe> found = (Map<Integer, GroupExecutor.Probe>) both[0];
                        @SuppressWarnings("unchecked")
                        Set<String> thereKeys = (Set<String>) both[1];
                        off(f, scope, next, leaving, found, thereKeys, peerAlive, away + notAsked);
                    }));
        });
        return f;
    }

    /**
     * What runs on the peer: its probe's answer when it can be asked; a peer that is not alive cannot be
     * probed, so what it last reported running in maintenance ({@code jhb-maint}; none once fenced) is left
     * there, not started here too, until it returns and its probe decides.
     */
    private CompletableFuture<Set<String>> probePeer(boolean ask, boolean peerAlive) {
        CompletableFuture<Set<String>> peerRuns = new CompletableFuture<>();
        NodeEngine engine = loop.engine();
        if (ask) {
            long req = ++probeRequests;
            peerProbes.put(req, peerRuns);
            loop.run(e -> e.onPeerProbeRequested(req, loop.wallMillis()));
            loop.schedule(() -> {
                if (peerProbes.remove(req) != null) {
                    peerRuns.completeExceptionally(new TimeoutException(engine.peer()
                            + " did not answer the probe within " + ClusterLoop.PEER_PROBE_TIMEOUT_S + " s"));
                }
            }, ClusterLoop.PEER_PROBE_TIMEOUT_S, TimeUnit.SECONDS);
        } else if (!peerAlive) {
            Set<String> last = new HashSet<>();
            engine.peerMaintenanceRuns().forEach(i -> last.add(loop.config().resourceGroups().get(i).key()));
            peerRuns.complete(last);
        } else {
            peerRuns.complete(Set.of());
        }
        return peerRuns;
    }

    /** Both nodes probed: refuses when a group runs on both, else applies ({@link MaintenanceOff}). */
    private void off(CompletableFuture<ClusterLoop.MaintenanceResult> f, Maintenance.Scope scope, Maintenance next,
                     Set<Integer> leaving, Map<Integer, GroupExecutor.Probe> found, Set<String> thereKeys,
                     boolean peerAlive, String notes) {
        NodeEngine engine = loop.engine();
        List<ResourceGroupDecl> gs = loop.config().resourceGroups();
        Set<Integer> here = GroupExecutor.Probe.RUNNING.in(found);
        Set<Integer> partly = GroupExecutor.Probe.PARTIAL.in(found);
        Set<Integer> there = MaintenanceOff.indicesOf(gs, thereKeys);
        List<String> twice = MaintenanceOff.runOnBoth(gs, leaving, here, partly, there);
        if (!twice.isEmpty()) {
            f.complete(new ClusterLoop.MaintenanceResult(false, "resource group(s) " + String.join(", ", twice)
                    + " run on both " + engine.me() + " and " + engine.peer() + "; stop each on the node"
                    + " it should not run on (by hand, e.g. its init script's stop), then run 'hb"
                    + " maintenance off' again; nothing changed, maintenance stays on"));
            return;
        }
        Maintenance apply = MaintenanceOff.settingToApply(engine.machine().maintenancePolicy().setting(), next, scope);
        loop.run(e -> e.onMaintenanceApplied(apply, leaving, here, partly, there, true, loop.nanoTime(),
                loop.wallMillis()));
        List<String> where = MaintenanceOff.outcome(gs, leaving, here, partly, there, peerAlive, engine.me(),
                engine.peer());
        f.complete(new ClusterLoop.MaintenanceResult(true, "maintenance " + scope.describe() + " off (now: "
                + apply.describe() + ")" + notes + "\n" + String.join("\n", where)));
    }

    /** See {@link ClusterLoop#maintenanceView}. */
    CompletableFuture<MaintenanceView> view() {
        CompletableFuture<MaintenanceView> f = new CompletableFuture<>();
        loop.answer(f, () -> {
            NodeEngine engine = loop.engine();
            TakeoverMachine m = engine.machine();
            Map<String, String> groupsIn = new LinkedHashMap<>();
            List<ResourceGroupDecl> gs = loop.config().resourceGroups();
            for (int i = 0; i < gs.size(); i++) {
                if (m.maintenancePolicy().covers(i)) {
                    groupsIn.put(gs.get(i).key(), m.maintenancePolicy().reason(i) + "; here " + m.groupState(i).displayName()
                            + (engine.peerMaintenanceRuns().contains(i) ? "; runs on " + engine.peer() : ""));
                }
            }
            groupsIn.putAll(removedInMaintenance);
            f.complete(new MaintenanceView(m.maintenancePolicy().setting(), groupsIn));
        });
        return f;
    }
}
