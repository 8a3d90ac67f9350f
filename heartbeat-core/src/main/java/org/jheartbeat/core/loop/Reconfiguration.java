package org.jheartbeat.core.loop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.GroupState;

/** {@code hb reload} as the loop serves it ({@link ClusterLoop#reconfigure}); loop thread only. */
final class Reconfiguration {
    private final ClusterLoop loop;

    Reconfiguration(ClusterLoop loop) {
        this.loop = loop;
    }

    /**
     * A configuration reload ({@code hb reload}, SIGHUP): runs {@code applied} from now on
     * ({@link org.jheartbeat.core.config.ConfigReload.Plan#applied()}, whose nodes and media are the
     * running ones). When the group list changes and groups are starting or stopping (or a standby
     * exchange or fencing is in progress), waits for them, checking every 100 ms, at most
     * {@code waitNanos}. Groups removed from haresources that run here are stopped (logged; a failed
     * stop is CRIT: the group may still run and nothing manages it any more); a removed group blocked
     * here is only logged. A removed group in maintenance is neither stopped nor started (maintenance
     * means nothing does): it is left as it is, unmanaged, logged (WARN) and shown by
     * {@link ClusterLoop#maintenanceView()} until a reload adds it back. Then the engine takes the new configuration
     * ({@link NodeEngine#onReload}).
     *
     * @param waitNanos how long to wait for groups in flux, in ns
     * @return completes once applied, or exceptionally with an {@link IllegalStateException} when the
     *         groups stayed in flux ({@code waitNanos} passed; nothing applied)
     */
    CompletableFuture<Void> request(ClusterConfig applied, long waitNanos) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        long deadline = loop.nanoTime() + waitNanos;
        loop.answer(f, () -> apply(applied, deadline, f));
        return f;
    }

    private void apply(ClusterConfig applied, long deadline, CompletableFuture<Void> f) {
        List<ResourceGroupDecl> old = loop.config().resourceGroups();
        boolean regroup = !old.equals(applied.resourceGroups());
        if (regroup && !loop.engine().groupsQuiet()) {
            if (loop.nanoTime() - deadline > 0 || loop.closed()) {
                f.completeExceptionally(new IllegalStateException("resource groups are still starting or stopping"
                        + " (or a standby or fencing is in progress): nothing applied; try again"));
            } else {
                loop.schedule(loop.answering(f, () -> apply(applied, deadline, f)), 100, TimeUnit.MILLISECONDS);
            }
            return;
        }
        java.util.Set<String> kept = new java.util.HashSet<>();
        applied.resourceGroups().forEach(g -> kept.add(g.key()));
        for (int i = 0; i < old.size(); i++) {
            String key = old.get(i).key();
            if (kept.contains(key)) {
                continue;
            }
            GroupState here = loop.engine().machine().groupState(i);
            if (loop.engine().machine().maintenancePolicy().covers(i)) {
                // maintenance: nothing starts or stops it, a reload neither
                String why = "removed from haresources while in maintenance (" + loop.engine().machine().maintenancePolicy().reason(i)
                        + "); here " + here.displayName() + ": left as it is, unmanaged; stop it by hand if it runs";
                loop.maintenanceRequests().unmanaged(key, why);
                loop.log(Level.WARN, "Resource group " + key + " was " + why + ".");
            } else if (here == GroupState.RUNNING) {
                String why = GroupOpReason.REMOVED.describe(loop.engine().peer());
                loop.log(Level.INFO, "Stopping resource group " + key + " (" + why + ")");
                // journaled like every other stop, so an admin (or a script moving the group elsewhere) can wait
                // for its group-stopped event
                loop.record(EventKind.GROUP_STOPPING, key, why, -1);
                long asked = loop.nanoTime();
                loop.groups().stop(i, GroupOpReason.REMOVED).whenComplete((ok, err) -> loop.post(() -> {
                    // reported stopping to the peer until now; a failed stop leaves it BLOCKED, unmanaged (it may run
                    // here: the peer's probe and report say so)
                    boolean stopped = err == null && Boolean.TRUE.equals(ok);
                    loop.record(stopped ? EventKind.GROUP_STOPPED : EventKind.GROUP_STOP_FAILED, key,
                            ClusterLoop.failureDetail(err), Math.max(0, (loop.nanoTime() - asked) / 1_000_000));
                    loop.run(e -> e.onRemovedGroupStopped(key, stopped, loop.nanoTime(), loop.wallMillis()));
                    if (stopped) {
                        loop.log(Level.INFO, "Resource group " + key + " stopped; it is no longer in haresources.");
                    } else {
                        loop.log(Level.CRIT, "Resource group " + key + " was removed from haresources but could not be"
                                + " stopped on " + loop.engine().me() + (ClusterLoop.failureDetail(err).isEmpty() ? "" : " ("
                                + ClusterLoop.failureDetail(err) + ")") + ": it may still run"
                                + " here and nothing manages it any more; stop it by hand.");
                    }
                }));
            } else if (here == GroupState.BLOCKED) {
                loop.log(Level.CRIT, "Resource group " + key + " was removed from haresources while blocked on "
                        + loop.engine().me() + " (a stop failed): it may still run here and nothing manages it any more;"
                        + " stop it by hand.");
            }
        }
        loop.maintenanceRequests().managedAgain(kept); // back in haresources: managed again
        loop.groups().regroup(applied.resourceGroups());
        loop.configure(applied);
        loop.run(e -> e.onReload(applied, loop.nanoTime(), loop.wallMillis()));
        f.complete(null);
    }
}
