package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** What the cluster loop's guard does with what a step throws: count, go on, or end the process on an Error. */
class LoopGuardTest {
    record ExitCall(int status, String where, Error error) { }

    final List<ExitCall> exits = new ArrayList<>();
    final LoopGuard guard = new LoopGuard();

    LoopGuardTest() {
        guard.onFatal((status, where, error) -> exits.add(new ExitCall(status, where, error)));
    }

    @Test
    void anExceptionIsCountedByKindAndTheCallerGoesOn() {
        assertThat(guard.run("executing StartGroup", () -> {
            throw new IllegalStateException("x");
        })).isFalse();
        guard.run("executing StartGroup", () -> {
            throw new IllegalStateException("y");
        });
        guard.run("sending on eth1", () -> {
            throw new NullPointerException();
        });
        assertThat(guard.run("executing LogLine", () -> { })).isTrue();
        assertThat(guard.errors()).isEqualTo(3);
        assertThat(guard.errorsByKind()).containsExactly(
                java.util.Map.entry("IllegalStateException executing StartGroup", 2L),
                java.util.Map.entry("NullPointerException sending on eth1", 1L));
        assertThat(exits).isEmpty();
    }

    @Test
    void anErrorGoesToTheExitHandlerWithANonZeroStatus() {
        StackOverflowError overflow = new StackOverflowError();
        guard.run("in an engine step (event dropped)", () -> {
            throw overflow;
        });
        assertThat(exits).containsExactly(new ExitCall(LoopGuard.FATAL_EXIT_STATUS, "in an engine step (event dropped)",
                overflow));
        assertThat(LoopGuard.FATAL_EXIT_STATUS).isNotZero();
        assertThat(guard.errors()).isEqualTo(1);
    }

    @Test
    void kindsAreBoundedTheRestCountedTogether() {
        for (int i = 0; i < LoopGuard.MAX_KINDS + 5; i++) {
            int n = i;
            guard.run("place " + n, () -> {
                throw new IllegalArgumentException();
            });
        }
        assertThat(guard.errorsByKind()).hasSize(LoopGuard.MAX_KINDS + 1)
                .containsEntry(LoopGuard.OTHER_KINDS, 5L)
                .containsEntry("IllegalArgumentException place 0", 1L);
        assertThat(guard.errors()).isEqualTo(LoopGuard.MAX_KINDS + 5);
    }

    @Test
    void aValueThatThrowsGivesTheFallback() {
        assertThat(guard.value("computing the next wake-up", () -> {
            throw new ArithmeticException();
        }, 100L)).isEqualTo(100L);
        assertThat(guard.value("computing the next wake-up", () -> 7L, 100L)).isEqualTo(7L);
        assertThat(guard.errors()).isEqualTo(1);
    }

    @Test
    void anOperationThatThrowsOrGivesNoFutureEndsInAFailedFuture() {
        CompletableFuture<Boolean> threw = guard.start("executing StartGroup", () -> {
            throw new IllegalStateException("executor broken");
        });
        CompletableFuture<Boolean> none = guard.start("executing StopGroup", () -> null);
        assertThat(threw).isCompletedExceptionally();
        assertThat(none).isCompletedExceptionally();
        assertThatThrownBy(threw::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class).hasRootCauseMessage("executor broken");
        assertThatThrownBy(none::get).hasRootCauseMessage("executing StopGroup: no result");
        // a null future is not an exception thrown: only the throw is an internal error
        assertThat(guard.errorsByKind()).containsOnlyKeys("IllegalStateException executing StartGroup");
        CompletableFuture<Boolean> ok = CompletableFuture.completedFuture(true);
        assertThat(guard.start("executing StartGroup", () -> ok)).isSameAs(ok);
    }
}
