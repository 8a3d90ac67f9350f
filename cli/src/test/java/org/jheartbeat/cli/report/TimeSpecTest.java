package org.jheartbeat.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The forms of {@code --from}/{@code --to} on a fixed "now" and zone. */
class TimeSpecTest {
    static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    static Instant p(String s) {
        return TimeSpec.parse(s, NOW, BERLIN);
    }

    @Test
    void isoWithAnOffsetIsThatInstant() {
        assertThat(p("2026-12-06T03:12:04Z")).isEqualTo(Instant.parse("2026-12-06T03:12:04Z"));
        assertThat(p("2026-12-06T04:12:04.518+01:00")).isEqualTo(Instant.parse("2026-12-06T03:12:04.518Z"));
        assertThat(p("2026-12-06 03:12:04Z")).isEqualTo(Instant.parse("2026-12-06T03:12:04Z"));
    }

    @Test
    void withoutAnOffsetItIsLocalTime() {
        assertThat(p("2026-12-06T04:12")).isEqualTo(Instant.parse("2026-12-06T03:12:00Z"));
        assertThat(p("2026-12-06 04:12:04")).isEqualTo(Instant.parse("2026-12-06T03:12:04Z"));
        assertThat(p("2026-12-06 04:12:04.5")).isEqualTo(Instant.parse("2026-12-06T03:12:04.500Z"));
        assertThat(p("2026-12-06")).isEqualTo(Instant.parse("2026-12-05T23:00:00Z"));
        // summer time: the zone's rules, not a fixed offset
        assertThat(p("2026-07-01T12:00")).isEqualTo(Instant.parse("2026-07-01T10:00:00Z"));
    }

    @Test
    void agoEpochAndNow() {
        assertThat(p("2h")).isEqualTo(NOW.minusSeconds(7200));
        assertThat(p("1h30m")).isEqualTo(NOW.minusSeconds(5400));
        assertThat(p("90s")).isEqualTo(NOW.minusSeconds(90));
        assertThat(p("1d")).isEqualTo(NOW.minusSeconds(86_400));
        assertThat(p("2H")).isEqualTo(NOW.minusSeconds(7200));
        // hb events' spellings too: one parser for every command
        assertThat(p("30min")).isEqualTo(NOW.minusSeconds(1800));
        assertThat(p("1w")).isEqualTo(NOW.minusSeconds(7 * 86_400));
        assertThat(p("90sec")).isEqualTo(NOW.minusSeconds(90));
        assertThat(p("1500ms")).isEqualTo(NOW.minusMillis(1500));
        assertThat(p("1w2d3h4min5s")).isEqualTo(NOW.minusSeconds(9 * 86_400 + 3 * 3600 + 4 * 60 + 5));
        assertThat(p("@1796526724518")).isEqualTo(Instant.ofEpochMilli(1796526724518L));
        assertThat(p("now")).isEqualTo(NOW);
    }

    @Test
    void theWindowDefaultsToTheLastHour() {
        assertThat(TimeSpec.window(null, null, NOW, BERLIN))
                .isEqualTo(new TimeSpec.Window(NOW.minusSeconds(3600), NOW));
        assertThat(TimeSpec.window("3h", null, NOW, BERLIN))
                .isEqualTo(new TimeSpec.Window(NOW.minusSeconds(3 * 3600), NOW));
        assertThat(TimeSpec.window(null, "2026-12-06T05:00:00Z", NOW, BERLIN))
                .isEqualTo(new TimeSpec.Window(Instant.parse("2026-12-06T04:00:00Z"), Instant.parse("2026-12-06T05:00:00Z")));
        TimeSpec.Window w = TimeSpec.window("@1000", "@2000", NOW, BERLIN);
        assertThat(w.contains(1000)).isTrue();
        assertThat(w.contains(2000)).isTrue();
        assertThat(w.contains(2001)).isFalse();
        assertThat(w.contains(999)).isFalse();
    }

    @Test
    void wrongTimesSayWhatIsAccepted() {
        assertThatThrownBy(() -> p("yesterday")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'yesterday' is not a time (not a date and time); use ISO-8601 (2026-12-06T03:12:00Z, or"
                        + " 2026-12-06 03:12 in local time), a time ago (2h, 30m, 1d2h, 1w) or @MS (milliseconds since the"
                        + " epoch)");
        assertThatThrownBy(() -> p("120")).hasMessageContaining("a number needs a unit (2h, 30m, 90s, 1d)");
        assertThatThrownBy(() -> p("")).hasMessageContaining("it is empty");
        assertThatThrownBy(() -> p("2026-13-01")).hasMessageContaining("not a date and time");
        assertThatThrownBy(() -> p("99999999999d")).hasMessageContaining("more than 36525 days back");
        assertThatThrownBy(() -> p("2 h")).hasMessageContaining("not a date and time");
        assertThatThrownBy(() -> TimeSpec.window("1h", "2h", NOW, BERLIN)).hasMessage("--from 1h"
                + " (2026-12-06T09:00:00Z) is after --to 2h (2026-12-06T08:00:00Z); give a start before the end");
    }

    @Test
    void aNumberTooLargeIsTooFarBackHoweverManyDigits() {
        for (String far : List.of("9999999999999h", "100000000w", "36526d", "99999999999999999999999999ms",
                "000000000000000000000000037000d", "36525d1ms")) {
            assertThatThrownBy(() -> p(far)).as(far).hasMessageStartingWith("'" + far + "' is not a time (more than"
                    + " 36525 days back)");
        }
        assertThat(p("36525d")).isEqualTo(NOW.minus(Duration.ofDays(36_525)));
        assertThat(p("0000000000000001h")).isEqualTo(NOW.minusSeconds(3600));
        assertThat(p("1000000000000ms")).isEqualTo(NOW.minusMillis(1_000_000_000_000L));
    }

    @Test
    void aNegativeOrOverlongEpochIsRefused() {
        for (String bad : List.of("@-1", "@-1796526724518", "@", "@12345678901234567", "@1h")) {
            assertThatThrownBy(() -> p(bad)).as(bad).hasMessageStartingWith("'" + bad + "' is not a time (@ takes"
                    + " milliseconds since 1970-01-01T00:00:00Z: 1 to 16 digits, no sign)");
        }
        assertThat(p("@0")).isEqualTo(Instant.EPOCH);
        // hb report's --from/--to read the same way
        assertThatThrownBy(() -> TimeSpec.window("@-1", null, NOW, BERLIN)).hasMessageContaining("@ takes");
        assertThatThrownBy(() -> TimeSpec.window(null, "9999999999999h", NOW, BERLIN))
                .hasMessageContaining("more than 36525 days back");
    }
}
