package org.jheartbeat.core.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.HaMessage;

/**
 * How {@link NodeEngine} routes maintenance ({@code hb maintenance}, {@code jhb-maint}) to its parts: a
 * setting applied here goes to the takeover machine, the state directory and, when it is an operator's
 * change, the peer ({@link MaintenanceCoordination#announcement}), or, when it is the peer's, the journal; our
 * setting goes to a peer generation that has not had it; the probe exchange with the peer is passed through.
 * Routing only. Not thread-safe (the engine's thread owns it).
 */
final class MaintenanceRouting {
    private final NodeEngine e;

    MaintenanceRouting(NodeEngine engine) {
        this.e = engine;
    }

    /** {@link NodeEngine#onMaintenanceApplied}. */
    List<Effect> onMaintenanceApplied(Maintenance next, Set<Integer> probed, Set<Integer> runsHere,
                                      Set<Integer> partly, Set<Integer> runsPeer, boolean announce, long now,
                                      long wall) {
        List<Effect> out = new ArrayList<>();
        e.membership.awake(out, now, wall);
        applyMaintenance(next, probed, runsHere, partly, runsPeer, announce, out, now, wall);
        return out;
    }

    /** Applies a setting: see {@link NodeEngine#onMaintenanceApplied}. */
    void applyMaintenance(Maintenance next, Set<Integer> probed, Set<Integer> runsHere, Set<Integer> partly,
                          Set<Integer> runsPeer, boolean announce, List<Effect> out, long now, long wall) {
        if (!announce) {
            // the peer's setting (announce is for this node's operator, whose request the daemon journals)
            e.counters.peerMaintenance(e.machine.maintenancePolicy().setting(), next, e.peer.value(), wall);
        }
        e.machineFeed.on(new TakeoverEvent.MaintenanceSet(next, probed, runsHere, partly, runsPeer), out, now, wall);
        out.add(new Effect.PersistMaintenance(next));
        if (announce && e.detector.status(e.peer).isAlive()) {
            e.transmit(out, e.maint.announcement(next, probed, runsPeer, e.config.resourceGroups(), e.runningKeys(),
                    e.peerSeq.generation()), wall);
        }
    }

    /** {@link NodeEngine#onProbedForPeer}. */
    List<Effect> onProbedForPeer(long request, Set<Integer> fully, Set<Integer> partly, long wall) {
        List<Effect> out = new ArrayList<>();
        e.transmit(out, e.maint.probedForPeer(request, fully, partly, e.config.resourceGroups(),
                e.machine.reload().removedLeftRunning()), wall);
        return out;
    }

    /** Sends our maintenance setting to a peer generation that has not had it (comm up, a restarted peer). */
    void sendMaintenanceIfNew(List<Effect> out, long wall) {
        e.maint.settingToSend(e.machine.maintenancePolicy().setting(), e.peerSeq.generation(), e::runningKeys)
                .ifPresent(m -> e.transmit(out, m, wall));
    }

    /** {@code jhb-maint} from the peer: a probe request, its answer, or its setting (the newer one wins). */
    void onMaintenanceMessage(HaMessage m, List<Effect> out, long now, long wall) {
        MaintenanceMessages.Decoded d = MaintenanceMessages.decode(m);
        if (d instanceof MaintenanceMessages.Decoded.Malformed bad) {
            e.bad(out, e.peer.value(), bad.reason(), now);
        } else if (d instanceof MaintenanceMessages.Decoded.Probe p) {
            out.add(new Effect.ProbeForPeer(p.request()));
        } else if (d instanceof MaintenanceMessages.Decoded.Runs r) {
            out.add(new Effect.PeerProbed(r.request(), r.runs()));
        } else if (d instanceof MaintenanceMessages.Decoded.Set set) {
            e.maint.onSet(set, e.machine.maintenancePolicy().setting(), e.machine.maintenancePolicy()::leaving, e::groupIndex,
                    e.peerSeq.generation(), e::runningKeys, out, msg -> e.transmit(out, msg, wall)).ifPresent(a ->
                    applyMaintenance(a.next(), a.probed(), a.runsHere(), a.partly(), a.runsPeer(), false, out, now,
                            wall));
        }
    }
}
