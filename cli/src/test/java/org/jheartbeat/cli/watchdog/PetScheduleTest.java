package org.jheartbeat.cli.watchdog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PetScheduleTest {
    @Test
    void petsAtOnceThenOncePerInterval() {
        PetSchedule s = new PetSchedule(1_000);
        assertThat(s.due(5_000)).as("the first chance").isTrue();
        assertThat(s.due(5_000)).isFalse();
        assertThat(s.due(5_999)).isFalse();
        assertThat(s.due(6_000)).as("one interval later").isTrue();
        assertThat(s.due(6_500)).isFalse();
        assertThat(s.due(9_000)).as("late: pets, and counts from now").isTrue();
        assertThat(s.due(9_999)).isFalse();
        assertThat(s.due(10_000)).isTrue();
    }

    @Test
    void worksAcrossTheSignOfTheMonotonicClock() {
        PetSchedule s = new PetSchedule(1_000);
        assertThat(s.due(Long.MAX_VALUE - 500)).isTrue();
        assertThat(s.due(Long.MAX_VALUE)).isFalse();
        assertThat(s.due(Long.MIN_VALUE + 499)).as("1000 ns later, past the overflow").isTrue();
    }

    @Test
    void theIntervalMustBePositive() {
        assertThatThrownBy(() -> new PetSchedule(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("interval must be > 0 ns: 0");
    }
}
