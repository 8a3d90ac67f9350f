package org.jheartbeat.core.loop;

import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.config.NodeName;

/**
 * Fences (STONITH) a node for the loop, off the loop thread: implemented by the daemon with the
 * stonith module's device. Core never imports that module; this port is the seam.
 */
public interface Fencer extends AutoCloseable {

    /** The end of one fencing attempt. @param fenced device confirmed @param detail one line for logs */
    record Result(boolean fenced, String detail) { }

    /** No device configured: every request fails (the machine never asks then). */
    Fencer NONE = node -> CompletableFuture.completedFuture(new Result(false, "no STONITH device configured"));

    /** Resets (power-cycles or powers off) {@code node}; completes when the device answered or gave up. */
    CompletableFuture<Result> fence(NodeName node);

    /**
     * Asks the device whether it answers (cluster-glue's status), off the loop thread: what
     * {@code hb stonith status} and {@code hb config check} ask a running daemon, which holds the
     * device (a serial UPS line is locked by it). By default there is no device.
     *
     * @return completes with {@code fenced} = the device answered, and a one-line detail
     */
    default CompletableFuture<Result> status() {
        return CompletableFuture.completedFuture(new Result(false, "no STONITH device configured"));
    }

    /**
     * Resets this node, because a resource could not be stopped and the admin asked for self-fencing
     * (Heartbeat's reboot on a stop failure; {@code hb daemon --self-fence-command}). Never called
     * otherwise. Returns at once; the command runs off the loop thread. By default nothing is
     * configured and the group stays blocked.
     *
     * @param reason one line: the group and why its stop failed
     */
    default void fenceSelf(String reason) {
    }

    @Override
    default void close() {
    }
}
