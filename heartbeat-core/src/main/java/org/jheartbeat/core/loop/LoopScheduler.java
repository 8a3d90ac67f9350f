package org.jheartbeat.core.loop;

import java.util.concurrent.RejectedExecutionException;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * Where the cluster loop's tasks run and what time it is for them: one thread of execution, on which
 * tasks run one at a time, in the order of their deadlines (tasks due at the same time in the order
 * they were handed over). The production one is {@link #thread()}; the tests' one is the testkit's
 * {@code ManualScheduler}, whose time moves only when the test says so and whose tasks run on the
 * test's own thread.
 *
 * <p>A task that throws is the caller's business: the loop hands over only tasks wrapped in its
 * {@link LoopGuard}, so nothing reaches the scheduler. {@link #nanoTime()} is the clock the deadlines
 * are measured on. Thread-safe: any thread may post and schedule.
 */
public interface LoopScheduler extends MonotonicClock, AutoCloseable {

    /** A task handed over and not yet run. */
    @FunctionalInterface
    interface Scheduled {
        /**
         * Keeps the task from running if it has not started yet.
         *
         * @return whether it was kept from running (false: it ran, runs now, or was cancelled before)
         */
        boolean cancel();
    }

    /**
     * Runs {@code task} once after {@code delayNanos} (at once when zero or negative), after the tasks
     * due before or at the same time.
     *
     * @param delayNanos how long from {@link #nanoTime()} on, in ns
     * @throws RejectedExecutionException once {@link #close()}d
     */
    Scheduled schedule(Runnable task, long delayNanos);

    /**
     * Runs {@code task} once at {@code deadlineNanos} (on {@link #nanoTime()}'s clock; at once if past).
     *
     * @throws RejectedExecutionException once {@link #close()}d
     */
    default Scheduled scheduleAt(Runnable task, long deadlineNanos) {
        return schedule(task, deadlineNanos - nanoTime());
    }

    /**
     * Runs {@code task} as soon as the tasks already due have run.
     *
     * @throws RejectedExecutionException once {@link #close()}d
     */
    default void post(Runnable task) {
        schedule(task, 0);
    }

    /** Whether {@link #close()} was called (tasks handed over from then on are rejected). */
    boolean isShutdown();

    /**
     * Stops: rejects new tasks, drops the waiting ones, and waits at most 2 s for the one running.
     * Idempotent.
     */
    @Override
    void close();

    /**
     * The production scheduler: one non-daemon thread named {@code hb-loop}, on a
     * {@link java.util.concurrent.ScheduledThreadPoolExecutor}, measuring deadlines on
     * {@link System#nanoTime()}. Non-daemon so that the JVM lives as long as the loop beats.
     */
    static LoopScheduler thread() {
        return new ThreadLoopScheduler("hb-loop");
    }
}
