package org.jheartbeat.core.membership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.membership.SequenceTracker.Verdict.ACCEPT;
import static org.jheartbeat.core.membership.SequenceTracker.Verdict.DUPLICATE;
import static org.jheartbeat.core.membership.SequenceTracker.Verdict.REPLAY;
import static org.jheartbeat.core.membership.SequenceTracker.Verdict.RESTART;
import static org.jheartbeat.core.membership.SequenceTracker.Verdict.STALE;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {
    final SequenceTracker t = new SequenceTracker();

    @Test
    void secondCopyFromOtherLinkIsDuplicate() {
        assertThat(t.offer(5, 1)).isEqualTo(ACCEPT);
        assertThat(t.offer(5, 1)).isEqualTo(DUPLICATE);
        assertThat(t.offer(5, 2)).isEqualTo(ACCEPT);
        assertThat(t.offer(5, 2)).isEqualTo(DUPLICATE);
    }

    @Test
    void outOfOrderFillsGapOnce() {
        t.offer(5, 1);
        assertThat(t.offer(5, 3)).isEqualTo(ACCEPT);
        assertThat(t.missingCount()).isEqualTo(1);
        assertThat(t.offer(5, 2)).isEqualTo(ACCEPT);
        assertThat(t.missingCount()).isZero();
        assertThat(t.offer(5, 2)).isEqualTo(DUPLICATE);
    }

    @Test
    void newerGenerationIsRestartOlderIsReplay() {
        t.offer(5, 40);
        assertThat(t.offer(6, 1)).isEqualTo(RESTART);
        assertThat(t.generation()).isEqualTo(6);
        assertThat(t.offer(5, 41)).isEqualTo(REPLAY);
        assertThat(t.offer(6, 2)).isEqualTo(ACCEPT);
    }

    @Test
    void hugeGapResetsTracking() {
        t.offer(5, 1);
        assertThat(t.offer(5, 1000)).isEqualTo(ACCEPT);
        assertThat(t.lastSeq()).isEqualTo(1000);
        assertThat(t.offer(5, 2)).isEqualTo(STALE);
    }

    @Test
    void farBehindTheWindowIsStaleNotDuplicate() {
        for (long s = 1; s <= 600; s++) {
            t.offer(5, s);
        }
        assertThat(t.offer(5, 100)).as("500 or more below the newest").isEqualTo(STALE);
        assertThat(t.offer(5, 599)).as("a recent copy from the other link").isEqualTo(DUPLICATE);
        assertThat(t.offer(5, 601)).isEqualTo(ACCEPT);
    }

    @Test
    void olderThanARestartOfTheSameGenerationIsStale() {
        t.offer(5, 10);
        assertThat(t.offer(6, 20)).isEqualTo(RESTART);
        assertThat(t.offer(6, 15)).as("below the frame that reset tracking, never missing").isEqualTo(STALE);
        assertThat(t.offer(6, 21)).isEqualTo(ACCEPT);
        assertThat(t.offer(6, 20)).isEqualTo(DUPLICATE);
    }
}
