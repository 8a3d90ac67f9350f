package org.jheartbeat.sync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class CronScheduleTest {
    private static final ZonedDateTime T = ZonedDateTime.parse("2026-03-01T10:02:30Z");

    @Test
    void fiveFieldsAreUnixCron() {
        CronSchedule s = CronSchedule.parse("  */5   * * * * ");
        assertThat(s.expression()).isEqualTo("*/5 * * * *");
        assertThat(s.nextAfter(T)).contains(ZonedDateTime.parse("2026-03-01T10:05:00Z"));
        assertThat(CronSchedule.parse("0-59/5 * * * *").nextAfter(T)).contains(ZonedDateTime.parse("2026-03-01T10:05:00Z"));
        assertThat(CronSchedule.parse("0 3 * * 1").nextAfter(T)).contains(ZonedDateTime.parse("2026-03-02T03:00:00Z"));
    }

    @Test
    void sixFieldsHaveLeadingSeconds() {
        assertThat(CronSchedule.parse("*/10 * * * * *").nextAfter(T)).contains(ZonedDateTime.parse("2026-03-01T10:02:40Z"));
    }

    @Test
    void badExpressionsAreRefused() {
        assertThatThrownBy(() -> CronSchedule.parse("* * *")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("has 3 fields, expected 5 (minute hour day month weekday) or 6 (with leading seconds)");
        assertThatThrownBy(() -> CronSchedule.parse("61 * * * *")).isInstanceOf(IllegalArgumentException.class);
    }
}
