package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class DropReportPolicyTest {
    private static final long S = 1_000_000_000L;
    private final DropReportPolicy policy = new DropReportPolicy(60 * S);

    @Test
    void nothingDroppedNothingSaid() {
        assertThat(policy.due(0, 0)).isEmpty();
        assertThat(policy.due(0, 600 * S)).isEmpty();
    }

    @Test
    void theFirstDropIsReportedAtOnceThenAtMostOncePerIntervalWithTheNewDropsOnly() {
        long t = 5 * S;
        assertThat(policy.due(3, t)).isEqualTo(OptionalLong.of(3));
        assertThat(policy.due(10, t + S)).isEmpty();
        assertThat(policy.due(500, t + 59 * S)).isEmpty();
        assertThat(policy.due(700, t + 60 * S)).isEqualTo(OptionalLong.of(697));
        assertThat(policy.due(700, t + 200 * S)).as("no growth, no warning").isEmpty();
        assertThat(policy.due(701, t + 201 * S)).isEqualTo(OptionalLong.of(1));
    }

    @Test
    void worksAcrossANegativeClockOrigin() {
        long t = Long.MIN_VALUE + 10;
        assertThat(policy.due(1, t)).isEqualTo(OptionalLong.of(1));
        assertThat(policy.due(2, t + 59 * S)).isEmpty();
        assertThat(policy.due(2, t + 60 * S)).isEqualTo(OptionalLong.of(1));
    }

    @Test
    void refusesANonPositiveInterval() {
        assertThatThrownBy(() -> new DropReportPolicy(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
