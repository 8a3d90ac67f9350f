package org.jheartbeat.core.loop;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@link LoopScheduler#thread()}: a single-thread {@link ScheduledExecutorService} on one non-daemon
 * thread. A task that throws would be swallowed into its future (the thread lives on); the loop's
 * tasks are wrapped in its {@link LoopGuard}, which counts and logs what they throw.
 */
final class ThreadLoopScheduler implements LoopScheduler {
    private final ScheduledExecutorService executor;

    ThreadLoopScheduler(String threadName) {
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(false);
            return t;
        });
    }

    @Override
    public long nanoTime() {
        return System.nanoTime(); // what the executor measures its delays on
    }

    @Override
    public Scheduled schedule(Runnable task, long delayNanos) {
        ScheduledFuture<?> f = executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public boolean isShutdown() {
        return executor.isShutdown();
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
