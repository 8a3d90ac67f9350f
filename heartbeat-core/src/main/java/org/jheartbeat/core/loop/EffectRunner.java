package org.jheartbeat.core.loop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.StartOutcome;

/**
 * The loop's I/O edge: carries out each {@link Effect} the engine returns. Packets go out on every medium (one
 * broken medium does not silence the others), group operations and fencing run off the loop thread and post
 * their outcome back to the engine, log lines go to the {@link LoopLog}. Called on the loop thread, each
 * effect under the {@link LoopGuard}; never blocks.
 */
final class EffectRunner {
    private final ClusterLoop loop;
    private final List<Medium> media;
    private final GroupExecutor groups;
    private final Fencer fencer;
    private final LoopGuard guard;
    private final CompletableFuture<Void> exited;
    private final MaintenanceRequests maintenance;

    EffectRunner(ClusterLoop loop, List<Medium> media, GroupExecutor groups, Fencer fencer, LoopGuard guard,
                 CompletableFuture<Void> exited, MaintenanceRequests maintenance) {
        this.loop = loop;
        this.media = media;
        this.groups = groups;
        this.fencer = fencer;
        this.guard = guard;
        this.exited = exited;
        this.maintenance = maintenance;
    }

    void execute(Effect ef) {
        if (ef instanceof Effect.Transmit t) {
            for (Medium m : media) { // one broken medium must not silence the others
                guard.run("sending on " + m.linkName(), () -> m.send(t.packet(), t.traffic()));
            }
        } else if (ef instanceof Effect.LogLine l) {
            loop.log(l.level(), l.text());
        } else if (ef instanceof Effect.PeerLost p) {
            groups.peerLost(p.node(), p.how());
        } else if (ef instanceof Effect.StartGroup s) {
            String key = loop.key(s.group());
            String why = s.reason().describe(loop.engine().peer());
            loop.log(Level.INFO, "Starting resource group " + key + " (" + why + ")");
            loop.record(EventKind.GROUP_STARTING, key, why, -1);
            long asked = loop.nanoTime();
            guard.start("executing StartGroup", () -> groups.start(s.group(), s.reason()))
                    .handle((r, err) -> err == null && r != null ? r
                            : GroupExecutor.StartResult.failed(false, ClusterLoop.failureDetail(err)))
                    .thenAccept(r -> loop.post(() -> {
                        boolean ok = r.outcome() == StartOutcome.STARTED;
                        loop.record(ok ? EventKind.GROUP_STARTED : EventKind.GROUP_START_FAILED, key, r.detail(),
                                since(asked));
                        loop.run(e -> e.onGroupStarted(s.group(), r.outcome(), r.detail(), loop.nanoTime(),
                                loop.wallMillis()));
                    }));
        } else if (ef instanceof Effect.StopGroup s) {
            String why = s.reason().describe(loop.engine().peer());
            loop.log(Level.INFO, "Stopping resource group " + loop.key(s.group()) + " (" + why + ")");
            loop.record(EventKind.GROUP_STOPPING, loop.key(s.group()), why, -1);
            stopDone(s.group(), loop.key(s.group()), loop.nanoTime(),
                    guard.start("executing StopGroup", () -> groups.stop(s.group(), s.reason())));
        } else if (ef instanceof Effect.SelfFence sf) {
            fencer.fenceSelf(sf.reason());
        } else if (ef instanceof Effect.FencePeer f) {
            loop.record(EventKind.FENCE_ASKED, f.node().value(), "before taking over its resources", -1);
            long asked = loop.nanoTime();
            guard.start("executing FencePeer", () -> fencer.fence(f.node())).whenComplete((r, err) -> loop.post(() -> {
                boolean fenced = err == null && r.fenced();
                String detail = err != null ? "fencing failed: " + err : r.detail();
                loop.record(fenced ? EventKind.FENCE_CONFIRMED : EventKind.FENCE_FAILED, f.node().value(), detail,
                        since(asked));
                loop.run(e -> e.onFenceDone(fenced, detail, loop.nanoTime(), loop.wallMillis()));
            }));
        } else if (ef instanceof Effect.Exit) {
            exited.complete(null);
        } else if (ef instanceof Effect.WatchGroup w) {
            groups.watch(w.group(), w.on());
        } else if (ef instanceof Effect.PersistMaintenance pm) {
            maintenance.persist(pm.setting());
        } else if (ef instanceof Effect.ProbeForPeer pp) {
            maintenance.probeForPeer(pp.request());
        } else if (ef instanceof Effect.PeerProbed pp) {
            maintenance.peerProbed(pp.request(), pp.runs());
        } else if (ef instanceof Effect.ProbeThenApply pa) {
            maintenance.probeThenApply(pa);
        }
    }

    /**
     * Records the end of stop {@code op} of group {@code key}, asked at {@code asked} (ns, the loop's clock), and
     * posts it back to the engine (a failure, when it completes with null).
     */
    private void stopDone(int group, String key, long asked, CompletableFuture<Boolean> op) {
        op.whenComplete((ok, err) -> loop.post(() -> {
            boolean stopped = err == null && Boolean.TRUE.equals(ok);
            String detail = ClusterLoop.failureDetail(err);
            loop.record(stopped ? EventKind.GROUP_STOPPED : EventKind.GROUP_STOP_FAILED, key, detail, since(asked));
            loop.run(e -> e.onGroupDone(group, false, stopped, detail, loop.nanoTime(), loop.wallMillis()));
        }));
    }

    /** Milliseconds on the loop's monotonic clock since {@code asked} (ns). */
    private long since(long asked) {
        return Math.max(0, (loop.nanoTime() - asked) / 1_000_000);
    }
}
