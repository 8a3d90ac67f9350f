package org.jheartbeat.resources.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The monitor policy on a fake clock: restarts in place up to the limit within the window, then the group moves. */
class FailCountsTest {
    static final long S = 1_000_000_000L;
    final FailCounts counts = new FailCounts();
    final MonitorSettings def = MonitorSettings.DEFAULT;

    @Test
    void defaultsAreEvery10SecondsAndThreeRestartsWithinTenMinutes() {
        assertThat(def.interval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(def.maxRestarts()).isEqualTo(3);
        assertThat(def.window()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void threeFailuresRestartInPlaceAndTheFourthWithinTheWindowMovesTheGroup() {
        assertThat(counts.onFailure("apache", def, 0, "rc=7")).isEqualTo(MonitorVerdict.RESTART_IN_PLACE);
        assertThat(counts.onFailure("apache", def, 60 * S, "rc=7")).isEqualTo(MonitorVerdict.RESTART_IN_PLACE);
        assertThat(counts.onFailure("apache", def, 120 * S, "rc=7")).isEqualTo(MonitorVerdict.RESTART_IN_PLACE);
        assertThat(counts.failCount("apache", def, 121 * S)).isEqualTo(3);
        assertThat(counts.onFailure("apache", def, 599 * S, "rc=1")).isEqualTo(MonitorVerdict.MOVE_GROUP);
        assertThat(counts.lastFailure("apache")).hasValueSatisfying(f -> assertThat(f.detail()).isEqualTo("rc=1"));
    }

    @Test
    void failuresOlderThanTheWindowNoLongerCount() {
        counts.onFailure("db", def, 0, "x");
        counts.onFailure("db", def, 10 * S, "x");
        counts.onFailure("db", def, 20 * S, "x");
        // the first failure is exactly 10 minutes old: it no longer counts, so this is the third counted one
        assertThat(counts.onFailure("db", def, 600 * S, "x")).isEqualTo(MonitorVerdict.RESTART_IN_PLACE);
        assertThat(counts.failCount("db", def, 600 * S)).isEqualTo(3);
        assertThat(counts.failCount("db", def, 1300 * S)).isZero();
        assertThat(counts.lastFailure("db")).isPresent(); // still shown, no longer counted
    }

    @Test
    void resourcesAreCountedApartAndCleanupForgetsOne() {
        counts.onFailure("a", def, 0, "x");
        counts.onFailure("a", def, 1, "x");
        counts.onFailure("a", def, 2, "x");
        assertThat(counts.onFailure("b", def, 3, "x")).isEqualTo(MonitorVerdict.RESTART_IN_PLACE);
        counts.clear("a");
        assertThat(counts.failCount("a", def, 4)).isZero();
        assertThat(counts.lastFailure("a")).isEmpty();
        assertThat(counts.onFailure("a", def, 5, "x")).isEqualTo(MonitorVerdict.RESTART_IN_PLACE);
        assertThat(counts.failCount("b", def, 6)).isEqualTo(1);
    }

    @Test
    void zeroRestartsMovesOnTheFirstFailure() {
        MonitorSettings none = new MonitorSettings(Duration.ofSeconds(5), Duration.ofSeconds(5), 0, Duration.ofMinutes(1));
        assertThat(counts.onFailure("ip", none, 0, "x")).isEqualTo(MonitorVerdict.MOVE_GROUP);
    }

    @Test
    void settingsRefuseNonsense() {
        assertThatThrownBy(() -> new MonitorSettings(Duration.ZERO, Duration.ofSeconds(1), 3, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MonitorSettings(Duration.ofSeconds(1), Duration.ofSeconds(1), -1, Duration.ofMinutes(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
