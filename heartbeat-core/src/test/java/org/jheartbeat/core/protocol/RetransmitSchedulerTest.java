package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The NS_rexmit schedule on explicit times: first request 50..250 ms after a gap, then every 250 ms. */
class RetransmitSchedulerTest {
    static final long MS = 1_000_000L;
    final RetransmitScheduler s = new RetransmitScheduler();

    @Test
    void aGapIsRequestedWithin250msThenEvery250msUntilItCloses() {
        assertThat(s.track(List.of(7L), 0)).isFalse();
        long first = s.nextDeadlineNanos();
        assertThat(first).isBetween(50 * MS, 250 * MS);
        assertThat(s.dueNow(first - 1)).isEmpty();
        assertThat(s.dueNow(first)).containsExactly(7L);
        assertThat(s.nextDeadlineNanos()).isEqualTo(first + 250 * MS);
        assertThat(s.dueNow(first + 249 * MS)).isEmpty();
        assertThat(s.dueNow(first + 250 * MS)).containsExactly(7L);
        assertThat(s.track(List.of(), first + 300 * MS)).as("the last gap closed").isTrue();
        assertThat(s.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(s.track(List.of(), first + 400 * MS)).as("nothing was missing").isFalse();
    }

    @Test
    void atMostFiftyRequestsPerTickLowestFirstAndGivenUpNumbersAreForgotten() {
        s.track(LongStream.rangeClosed(1, 120).boxed().toList(), 0);
        List<Long> now = s.dueNow(1_000 * MS);
        assertThat(now).hasSize(RetransmitScheduler.PER_TICK).startsWith(1L, 2L).endsWith(50L);
        assertThat(s.dueNow(1_000 * MS)).startsWith(51L);
        s.giveUp(120);
        s.clear();
        assertThat(s.isEmpty()).isTrue();
    }
}
