package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link LoopScheduler#thread()}, the production scheduler, on its real thread (nothing else tests
 * the thread the daemon's loop runs on): one non-daemon {@code hb-loop} thread, tasks in deadline
 * order, cancel, a task that throws ending only itself, and nothing accepted once closed. Delays are
 * 50 to 100 ms; bounds only catch hangs.
 */
class ThreadLoopSchedulerTest {

    @Test
    void tasksRunInDeadlineOrderOnOneNonDaemonThreadNamedHbLoop() throws Exception {
        LoopScheduler s = LoopScheduler.thread();
        List<String> ran = new CopyOnWriteArrayList<>();
        CompletableFuture<Thread> thread = new CompletableFuture<>();
        CountDownLatch done = new CountDownLatch(1);
        try {
            CountDownLatch hold = new CountDownLatch(1);
            s.post(() -> {
                thread.complete(Thread.currentThread());
                await(hold); // the rest are handed over while this runs: their order is the scheduler's
            });
            s.schedule(() -> {
                ran.add("late");
                done.countDown();
            }, TimeUnit.MILLISECONDS.toNanos(100));
            s.scheduleAt(() -> ran.add("early"), s.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
            s.post(() -> ran.add("first"));
            s.post(() -> ran.add("second"));
            LoopScheduler.Scheduled cancelled = s.schedule(() -> ran.add("cancelled"), TimeUnit.MILLISECONDS.toNanos(75));
            assertThat(cancelled.cancel()).isTrue();
            hold.countDown();
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).containsExactly("first", "second", "early", "late");
            assertThat(thread.get().getName()).isEqualTo("hb-loop");
            assertThat(thread.get().isDaemon()).isFalse();
        } finally {
            s.close();
        }
        assertThat(s.isShutdown()).isTrue();
        thread.get().join(TimeUnit.SECONDS.toMillis(10));
        assertThat(thread.get().isAlive()).as("the thread ends on close").isFalse();
        assertThatThrownBy(() -> s.post(() -> { })).isInstanceOf(RejectedExecutionException.class);
        s.close(); // idempotent
    }

    /** As the executor it replaces: a task that throws ends only itself (the loop's tasks are guarded besides). */
    @Test
    void aTaskThatThrowsLeavesTheThreadRunningTheNextOnes() throws Exception {
        LoopScheduler s = LoopScheduler.thread();
        CompletableFuture<String> next = new CompletableFuture<>();
        try {
            s.post(() -> {
                throw new IllegalStateException("task broken (test)");
            });
            s.post(() -> next.complete(Thread.currentThread().getName()));
            assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo("hb-loop");
        } finally {
            s.close();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
