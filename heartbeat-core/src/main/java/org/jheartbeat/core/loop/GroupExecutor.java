package org.jheartbeat.core.loop;

import java.util.concurrent.CompletableFuture;

/**
 * Runs resource-group operations for the loop (implemented with the resources module's group
 * runner). Operations run one at a time, in submission order, off the loop thread.
 */
public interface GroupExecutor extends AutoCloseable {

    /**
     * Starts group {@code group} (haresources index): resources left to right; on failure what was
     * started is stopped again.
     *
     * @return completes with {@code true} when the whole group runs, {@code false} or exceptionally when
     *         it failed (the exception's message then says which resource failed and why)
     */
    CompletableFuture<Boolean> start(int group);

    /**
     * Stops group {@code group}: resources right to left, with retries.
     *
     * @return completes with {@code true} when every resource stopped, {@code false} or exceptionally when
     *         one could not be stopped (the exception's message then names it and why)
     */
    CompletableFuture<Boolean> stop(int group);

    @Override
    void close();
}
