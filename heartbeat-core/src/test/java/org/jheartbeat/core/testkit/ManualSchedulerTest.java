package org.jheartbeat.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** {@link ManualScheduler}: fake time, deadline order, ties in order, cancel, close. */
class ManualSchedulerTest {

    @Test
    void advanceRunsDueTasksAtTheirDeadlinesInDeadlineOrder() {
        ManualScheduler s = new ManualScheduler();
        List<String> ran = new ArrayList<>();
        long t0 = s.nanoTime();
        assertThat(t0).isEqualTo(ManualScheduler.START_NANOS);
        s.schedule(() -> ran.add("b@" + (s.nanoTime() - t0)), 200);
        s.schedule(() -> ran.add("a@" + (s.nanoTime() - t0)), 100);
        s.scheduleAt(() -> ran.add("c@" + (s.nanoTime() - t0)), t0 + 200); // same deadline as b: after it
        s.post(() -> ran.add("now@" + (s.nanoTime() - t0)));
        s.schedule(() -> {
            ran.add("d@" + (s.nanoTime() - t0));
            s.schedule(() -> ran.add("e@" + (s.nanoTime() - t0)), 50); // falls inside the span
            s.schedule(() -> ran.add("f@" + (s.nanoTime() - t0)), 500); // does not
        }, 150);
        assertThat(s.runPending()).isEqualTo(1);
        assertThat(ran).containsExactly("now@0");
        s.advance(250);
        assertThat(ran).containsExactly("now@0", "a@100", "d@150", "b@200", "c@200", "e@200");
        assertThat(s.nanoTime()).isEqualTo(t0 + 250);
        assertThat(s.waiting()).isEqualTo(1);
        assertThat(s.nextDeadline()).isEqualTo(t0 + 650);
        assertThat(s.wall().millis()).isEqualTo(ManualScheduler.START_WALL_MILLIS);
        s.advanceMillis(1);
        assertThat(ran).endsWith("f@650");
        assertThat(s.wall().millis()).isEqualTo(ManualScheduler.START_WALL_MILLIS + 1);
    }

    @Test
    void cancelCloseAndTheWaits() throws Exception {
        ManualScheduler s = new ManualScheduler();
        List<String> ran = new ArrayList<>();
        var cancelled = s.schedule(() -> ran.add("x"), 10);
        assertThat(cancelled.cancel()).isTrue();
        assertThat(cancelled.cancel()).isFalse();
        CompletableFuture<String> f = new CompletableFuture<>();
        s.schedule(() -> f.complete("done"), 1_000_000_000L);
        assertThatThrownBy(() -> s.join(f)).isInstanceOf(AssertionError.class); // not due without time moving
        assertThatThrownBy(() -> s.runUntil(f::isDone, 999_999_999L)).isInstanceOf(AssertionError.class);
        assertThat(s.get(f, 1)).isEqualTo("done");
        assertThat(ran).isEmpty();
        s.close();
        assertThat(s.isShutdown()).isTrue();
        assertThatThrownBy(() -> s.post(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }
}
