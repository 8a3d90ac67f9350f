package org.jheartbeat.stonith.fencing;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.Fencer;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's {@link Fencer}: fences the peer with this node's STONITH device on a worker thread
 * ({@code hb-stonith}), since a device may take many seconds. Logs Heartbeat's phrases
 * ({@code Resetting node X with [TYPE]}). What it asks the device is the {@link FencingPolicy}'s (jheartbeat.yaml
 * {@code stonith:}): a power-off confirmed by the device where it supports one, else Heartbeat's reset; after a
 * confirmed off it switches the node back on after the policy's delay, on the same worker, unless the node is
 * being fenced again by then (docs/design/stonith.md, "Fencing action").
 */
public final class DeviceFencer implements Fencer {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private final StonithDevice device;
    private final FencingPolicy policy;
    private final MonotonicClock clock;
    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "hb-stonith");
        t.setDaemon(true);
        return t;
    });
    /** Power-ons due after a confirmed off, by node; only touched on the worker thread. */
    private final Map<NodeName, ScheduledFuture<?>> powerOns = new HashMap<>();

    /**
     * @param device this node's STONITH device
     * @param policy off or reset, and when a node powered off comes back
     * @param clock  measures how long a fence took, for the result line
     */
    public DeviceFencer(StonithDevice device, FencingPolicy policy, MonotonicClock clock) {
        this.device = device;
        this.policy = policy;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<Result> fence(NodeName node) {
        return CompletableFuture.supplyAsync(() -> {
            ScheduledFuture<?> pending = powerOns.remove(node);
            if (pending != null && pending.cancel(false)) {
                LOG.warn("Power-on of node {} cancelled: it is being fenced again", node);
            }
            ResetRequest request = policy.requestFor(device);
            LOG.info("Resetting node {} with [{}]{}", node, device.type(), request == ResetRequest.POWER_OFF
                    ? " (power off, confirmed by the device; jheartbeat.yaml stonith: action " + policy.action().word()
                    + ")" : "");
            long t0 = clock.nanoTime();
            StonithResult r = call(request, node);
            long ms = (clock.nanoTime() - t0) / 1_000_000;
            if (r.ok() && request == ResetRequest.POWER_OFF) {
                policy.powerOnAfter().ifPresentOrElse(after -> powerOns.put(node, worker.schedule(() -> powerOn(node),
                        after.toMillis(), TimeUnit.MILLISECONDS)), () -> LOG.warn("Node {} stays powered off"
                        + " (jheartbeat.yaml stonith: power_on never); switch it on by hand to bring it back", node));
            }
            return new Result(r.ok(), device.type() + " " + request.word() + " " + node + ": " + r + explain(r)
                    + " after " + ms + " ms" + (r.ok() && request == ResetRequest.POWER_OFF
                    ? policy.powerOnAfter().map(d -> "; power-on in " + d.toMillis() + " ms").orElse("; stays off")
                    : ""));
        }, worker);
    }

    private StonithResult call(ResetRequest request, NodeName node) {
        try {
            return device.reset(request, node.value());
        } catch (RuntimeException e) {
            LOG.error("STONITH device {} failed: {}", device.type(), e.toString());
            return StonithResult.OOPS;
        }
    }

    /** The policy's power-on after a confirmed off (worker thread). */
    private void powerOn(NodeName node) {
        powerOns.remove(node);
        LOG.info("Powering node {} back on with [{}] (jheartbeat.yaml stonith: power_on)", node, device.type());
        StonithResult r = call(ResetRequest.POWER_ON, node);
        if (r.ok()) {
            LOG.info("node {} powered on.", node);
        } else {
            LOG.error(org.jheartbeat.core.loop.ClusterLoop.CRIT, "Power-on of node {} failed: {}{}; it stays off:"
                    + " switch it on by hand", node, r, explain(r));
        }
    }

    /** Asks the device for its status on the same worker as the resets, so they never overlap on its line. */
    @Override
    public CompletableFuture<Result> status() {
        return CompletableFuture.supplyAsync(() -> {
            StonithResult r;
            try {
                r = device.status();
            } catch (RuntimeException e) {
                r = StonithResult.OOPS;
            }
            return new Result(r.ok(), device.type() + ": " + r + explain(r) + "; can fence " + device.hostList());
        }, worker);
    }

    /** What a cluster-glue result code usually means, for the CRIT line an operator reads. */
    static String explain(StonithResult r) {
        return switch (r) {
            case OK -> "";
            case OOPS -> " (the device did not answer or failed: check its cable and power)";
            case TIMEOUT -> " (the device did not finish in time)";
            case RESETFAIL -> " (the device refused or failed the reset)";
            case BADHOST -> " (the device cannot fence this node: check its host list)";
            case ACCESS -> " (the device refused access or answered garbage)";
            case BADCONFIG, INVAL -> " (the device's parameters are wrong)";
            case ISOFF -> " (the device reports the outlet already off)";
        };
    }

    @Override
    public void close() {
        if (worker.isShutdown()) {
            return;
        }
        CompletableFuture.runAsync(() -> powerOns.forEach((node, f) -> {
            if (f.cancel(false)) {
                LOG.warn("Node {} stays powered off: this daemon stops before its power-on was due; switch it on"
                        + " by hand", node);
            }
        }), worker).orTimeout(1, TimeUnit.SECONDS).exceptionally(e -> null).join();
        worker.shutdownNow();
        device.close();
    }
}
