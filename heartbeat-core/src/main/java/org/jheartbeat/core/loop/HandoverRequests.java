package org.jheartbeat.core.loop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverMachine;

/**
 * {@code hb standby} and {@code hb takeover} as the loop serves them: the request handed to the engine, then
 * its exchange watched every 100 ms until it ends (loop thread only; {@link ClusterLoop#handover}).
 */
final class HandoverRequests {
    private final ClusterLoop loop;

    HandoverRequests(ClusterLoop loop) {
        this.loop = loop;
    }

    /**
     * Operator standby ({@code takeover == false}: hand {@code set} of our groups to the peer) or
     * takeover ({@code true}: ask the peer to hand us {@code set}). Completes when the exchange has
     * finished, was refused or was cancelled; the caller applies its own timeout. A request while
     * an operator hand-over of this node is in progress is refused at once and never reaches the
     * machine, so the one in progress goes on and its caller still learns how it ends (Heartbeat
     * 3.0.6 {@code hb_resource.c}: "Standby in progress- new request from NODE ignored").
     */
    CompletableFuture<ClusterLoop.HandoverResult> request(boolean takeover, ResourceSet set) {
        CompletableFuture<ClusterLoop.HandoverResult> f = new CompletableFuture<>();
        loop.answer(f, () -> {
            loop.run(e -> e.onOperatorCommand(loop.nanoTime(), loop.wallMillis())); // a pause first
            TakeoverMachine m = loop.engine().machine();
            if (m.handovers().outcome() == TakeoverMachine.Handover.IN_PROGRESS) {
                loop.log(Level.WARN, "Standby in progress- new request from " + loop.engine().me() + " ignored ["
                        + (takeover ? "takeover " : "standby ") + set + "; " + m.handovers().detail() + " in progress]");
                f.complete(new ClusterLoop.HandoverResult(false, "standby in progress (" + m.handovers().detail()
                        + "); new request ignored", TakeoverMachine.Handover.REFUSED));
                return;
            }
            loop.run(e -> takeover ? e.onTakeoverRequested(set, loop.nanoTime(), loop.wallMillis())
                    : e.onStandbyRequested(set, loop.nanoTime(), loop.wallMillis()));
            watch(m.handovers().serial(), f);
        });
        return f;
    }

    private void watch(long serial, CompletableFuture<ClusterLoop.HandoverResult> f) {
        TakeoverMachine m = loop.engine().machine();
        if (f.isDone()) {
            return;
        }
        if (m.handovers().serial() != serial) {
            f.complete(new ClusterLoop.HandoverResult(false, "superseded by another standby or takeover request",
                    TakeoverMachine.Handover.CANCELLED));
        } else if (m.handovers().outcome() != TakeoverMachine.Handover.IN_PROGRESS) {
            f.complete(new ClusterLoop.HandoverResult(m.handovers().outcome() == TakeoverMachine.Handover.DONE, m.handovers().detail(),
                    m.handovers().outcome()));
        } else if (!loop.closed()) {
            loop.schedule(loop.answering(f, () -> watch(serial, f)), 100, TimeUnit.MILLISECONDS);
        }
    }
}
