package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.TakeoverEvent;

/**
 * How {@link NodeEngine} routes a configuration reload to its parts: the timings to the detector and the
 * beat, new authkeys to the stamper, a changed group list (only while {@link Regrouping#quiet}) to
 * {@link ConfigAgreement}, {@link MaintenanceCoordination}, {@code rsc_hold} and the takeover machine, the
 * disputes computed again and our new {@code jhb-config} sent when comm is up. Routing only. Not
 * thread-safe (the engine's thread owns it).
 */
final class ReloadPath {
    private final NodeEngine e;

    ReloadPath(NodeEngine engine) {
        this.e = engine;
    }

    /** {@link NodeEngine#groupsQuiet}. */
    boolean groupsQuiet() {
        return Regrouping.quiet(e.machine.state(), e.config.resourceGroups().size(), e.machine::groupState)
                && !e.machine.reload().removedStopping();
    }

    /** {@link NodeEngine#onReload}. */
    List<Effect> onReload(ClusterConfig applied, long nowNanos, long wallMillis) {
        List<Effect> out = new ArrayList<>();
        // a reload read first after a pause of this process must not act on the view from before it
        e.membership.awake(out, nowNanos, wallMillis);
        List<org.jheartbeat.core.config.ResourceGroupDecl> oldGroups = e.config.resourceGroups();
        boolean regroup = !oldGroups.equals(applied.resourceGroups());
        if (regroup && !groupsQuiet()) {
            throw new IllegalStateException("resource groups are in flux (" + e.machine.state() + ")");
        }
        e.config = applied;
        e.timing = applied.timing();
        e.detector.retime(e.timing);
        e.stamper.rekey(new org.jheartbeat.core.auth.MessageAuthenticator(applied.authKeys()));
        if (regroup) {
            e.agreement.regrouped(oldGroups, e::groupIndex);
            // what the peer last said runs there, and our last probe for it, are indices into the old list
            e.maint.regrouped(oldGroups, e::groupIndex);
            e.rscHold.groupsChanged(Regrouping.prefersAny(applied.resourceGroups(), e.me),
                    Regrouping.prefersAny(applied.resourceGroups(), e.peer));
            java.util.Set<String> left = e.machine.reload().removedLeftRunning();
            e.machineFeed.apply(e.machine.reload().regroup(applied.resourceGroups(), e.rscHold.value(), e::peerReport), out,
                    nowNanos, wallMillis);
            out.addAll(Regrouping.watchedAgain(left, applied.resourceGroups(), e.machine.maintenancePolicy()::covers,
                    e.machine::groupState)); // managed again: watched, as when adopted
        }
        e.agreement.reloaded(applied, e.peerSeq.generation(), out).ifPresent(g -> {
            e.counters.disputed(g, i -> applied.resourceGroups().get(i).key(), e.agreement::disputeReason, wallMillis);
            e.machineFeed.on(new TakeoverEvent.GroupsDisputed(g), out, nowNanos, wallMillis);
        });
        e.counters.filesDiffer(e.agreement.check().takeWarned(), e.peer.value(), wallMillis);
        if (regroup) {
            // reconciles: a new group wanted here starts now (unless disputed)
            e.machineFeed.on(new TakeoverEvent.GroupsDisputed(e.agreement.disputed()), out, nowNanos, wallMillis);
        }
        if (e.local.active()) {
            e.agreement.resendDigest();
            e.sendConfigDigestIfNew(out, wallMillis);
        }
        return out;
    }
}
