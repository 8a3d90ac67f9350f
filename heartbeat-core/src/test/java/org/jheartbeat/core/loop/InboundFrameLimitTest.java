package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The bound on frames waiting for the loop, and its rate-limited report, on explicit times. */
class InboundFrameLimitTest {
    static final long S = 1_000_000_000L;

    @Test
    void framesBeyondTheBoundAreDroppedAndCountedUntilOneIsTaken() {
        InboundFrameLimit limit = new InboundFrameLimit(3);
        assertThat(limit.admit()).isTrue();
        assertThat(limit.admit()).isTrue();
        assertThat(limit.admit()).isTrue();
        assertThat(limit.admit()).isFalse();
        assertThat(limit.admit()).isFalse();
        assertThat(limit.waiting()).isEqualTo(3);
        assertThat(limit.dropped()).isEqualTo(2);
        limit.taken();
        assertThat(limit.admit()).isTrue();
        assertThat(limit.admit()).isFalse();
        assertThat(limit.dropped()).isEqualTo(3);
    }

    @Test
    void dropsAreReportedAtOnceThenAtMostEveryTenSecondsWithTheirCount() {
        InboundFrameLimit limit = new InboundFrameLimit(1);
        assertThat(limit.report(0)).isEmpty();
        limit.admit();
        limit.admit();
        limit.admit();
        assertThat(limit.report(5 * S)).contains("Dropped 2 received frame(s): 1 were already waiting for the"
                + " cluster loop (a flood on a medium, or the loop is slowed down) [2 dropped since start]");
        assertThat(limit.report(6 * S)).isEmpty();
        limit.admit();
        assertThat(limit.report(14 * S)).isEmpty();
        limit.admit();
        assertThat(limit.report(15 * S)).hasValueSatisfying(l -> assertThat(l).startsWith("Dropped 2 received")
                .endsWith("[4 dropped since start]"));
        assertThat(limit.report(40 * S)).isEmpty();
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> new InboundFrameLimit(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
