package org.jheartbeat.core.testkit;

import java.time.Clock;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jheartbeat.core.loop.LoopScheduler;

/**
 * A {@link LoopScheduler} for tests: fake time that moves only in {@link #advance}, and tasks that run
 * only in {@link #runPending}, {@link #advance} and what builds on them, on the test's own thread, in
 * the order of their deadlines (ties in the order they were handed over). Deterministic: nothing
 * runs behind the test's back, so a loop on it can be held, flooded and stepped exactly.
 *
 * <p>Several loops may share one (two nodes on one fake time); closing it (any loop's close) stops all.
 * Its {@link #wall()} moves with it. Tasks may be handed over from other threads (a group operation
 * completed elsewhere): they wait in the queue like the others. A task that throws propagates to the
 * test, as nothing but the loop's guarded tasks should run here.
 */
public final class ManualScheduler implements LoopScheduler {
    /** Where fake monotonic time starts, in ns: not zero, so nothing may take zero for "never". */
    public static final long START_NANOS = 1_000_000_000L;
    /** Where the fake wall clock starts, in ms (November 2023). */
    public static final long START_WALL_MILLIS = 1_700_000_000_000L;

    private record Entry(long deadline, long seq, Runnable task) { }

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> a.deadline != b.deadline
            ? Long.compare(a.deadline, b.deadline) : Long.compare(a.seq, b.seq));
    private long now = START_NANOS;
    private long seq;
    private boolean shutdown;

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    /** A wall clock that moves with this scheduler's time, from {@link #START_WALL_MILLIS}. */
    public Clock wall() {
        return new MillisClock(() -> START_WALL_MILLIS + TimeUnit.NANOSECONDS.toMillis(nanoTime() - START_NANOS));
    }

    @Override
    public synchronized Scheduled schedule(Runnable task, long delayNanos) {
        if (shutdown) {
            throw new RejectedExecutionException("manual scheduler closed");
        }
        Entry e = new Entry(now + Math.max(0, delayNanos), seq++, task);
        queue.add(e);
        return () -> {
            synchronized (this) {
                return queue.remove(e);
            }
        };
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized void close() {
        shutdown = true;
        queue.clear();
    }

    /** How many tasks wait, due or not. */
    public synchronized int waiting() {
        return queue.size();
    }

    /** The earliest deadline waiting, in ns, or {@link Long#MAX_VALUE} when nothing waits. */
    public synchronized long nextDeadline() {
        return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().deadline;
    }

    /** Takes the next task due at or before {@code until}, moving time to its deadline; null when none. */
    private synchronized Runnable next(long until) {
        Entry e = queue.peek();
        if (e == null || e.deadline - until > 0) {
            return null;
        }
        queue.poll();
        now = Math.max(now, e.deadline);
        return e.task;
    }

    /**
     * Runs every task due now, and those they post for now, without moving time.
     *
     * @return how many ran
     */
    public int runPending() {
        int ran = 0;
        for (Runnable t = next(nanoTime()); t != null; t = next(nanoTime())) {
            t.run();
            ran++;
        }
        return ran;
    }

    /**
     * Moves time forward by {@code nanos}, running every task that falls due on the way at its
     * deadline, in deadline order (tasks they schedule inside the span run too), then those due at the end.
     */
    public void advance(long nanos) {
        long until;
        synchronized (this) {
            until = now + nanos;
        }
        for (Runnable t = next(until); t != null; t = next(until)) {
            t.run();
        }
        synchronized (this) {
            now = Math.max(now, until);
        }
    }

    /** {@link #advance} by {@code millis} ms. */
    public void advanceMillis(long millis) {
        advance(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    /**
     * Runs what is due, then moves time to each next deadline in turn, until {@code condition} holds
     * (checked after every task).
     *
     * @param maxNanos how far time may move, in ns
     * @throws AssertionError if it still does not hold once time has moved that far
     */
    public void runUntil(BooleanSupplier condition, long maxNanos) {
        long until = nanoTime() + maxNanos;
        while (!condition.getAsBoolean()) {
            Runnable t = next(until);
            if (t == null) {
                throw new AssertionError("condition still false after " + TimeUnit.NANOSECONDS.toMillis(maxNanos)
                        + " ms of fake time (" + waiting() + " task(s) waiting)");
            }
            t.run();
        }
    }

    /** {@link #runUntil} with the bound in seconds of fake time. */
    public void runUntilSeconds(BooleanSupplier condition, long maxSeconds) {
        runUntil(condition, TimeUnit.SECONDS.toNanos(maxSeconds));
    }

    /**
     * The value of {@code f}, as {@link CompletableFuture#get()} gives it, running tasks and moving time
     * until it completes.
     *
     * @param maxSeconds how far time may move, in s of fake time
     * @throws AssertionError if it is not complete once time has moved that far
     */
    public <T> T get(CompletableFuture<T> f, long maxSeconds) throws ExecutionException, InterruptedException {
        runUntilSeconds(f::isDone, maxSeconds);
        return f.get();
    }

    /**
     * The value of {@code f} (a loop's answer), running the tasks due now until it completes: loop
     * requests answer on their first run, without moving time.
     *
     * @throws AssertionError if it does not complete without moving time
     */
    public <T> T join(CompletableFuture<T> f) {
        while (!f.isDone()) {
            Runnable t = next(nanoTime());
            if (t == null) {
                throw new AssertionError("not completed by the tasks due now (" + waiting() + " task(s) waiting)");
            }
            t.run();
        }
        return f.join();
    }
}
