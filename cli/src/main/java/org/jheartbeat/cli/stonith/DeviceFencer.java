package org.jheartbeat.cli.stonith;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.Fencer;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's {@link Fencer}: resets the peer with this node's STONITH device on a worker thread
 * ({@code hb-stonith}), since a device may take many seconds. Logs Heartbeat's phrases
 * ({@code Resetting node X with [TYPE]}).
 */
public final class DeviceFencer implements Fencer {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private final StonithDevice device;
    private final MonotonicClock clock;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "hb-stonith");
        t.setDaemon(true);
        return t;
    });

    /** @param device this node's STONITH device; durations measured on the system clock */
    public DeviceFencer(StonithDevice device) {
        this(device, MonotonicClock.system());
    }

    /**
     * @param device this node's STONITH device
     * @param clock  measures how long a reset took, for the result line
     */
    public DeviceFencer(StonithDevice device, MonotonicClock clock) {
        this.device = device;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<Result> fence(NodeName node) {
        return CompletableFuture.supplyAsync(() -> {
            LOG.info("Resetting node {} with [{}]", node, device.type());
            long t0 = clock.nanoTime();
            StonithResult r;
            try {
                r = device.reset(ResetRequest.GENERIC_RESET, node.value());
            } catch (RuntimeException e) {
                LOG.error("STONITH device {} failed: {}", device.type(), e.toString());
                r = StonithResult.OOPS;
            }
            long ms = (clock.nanoTime() - t0) / 1_000_000;
            return new Result(r.ok(), device.type() + " reset " + node + ": " + r + explain(r) + " after " + ms + " ms");
        }, worker);
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
        worker.shutdownNow();
        device.close();
    }
}
