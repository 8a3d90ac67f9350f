package org.jheartbeat.resources.executor;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The daemon's {@link ResourceGroupExecutor.MonitorTimer}: one daemon thread {@code hb-monitor} on a
 * {@link ScheduledExecutorService}; its tasks only enqueue checks on the groups' own queues.
 */
final class ThreadedMonitorTimer implements ResourceGroupExecutor.MonitorTimer {
    private final ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread th = new Thread(r, "hb-monitor");
        th.setDaemon(true);
        return th;
    });

    @Override
    public void schedule(long delayNanos, Runnable task) {
        try {
            t.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // closed: the daemon is going down
        }
    }

    @Override
    public void close() {
        t.shutdownNow();
    }
}
