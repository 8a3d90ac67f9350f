package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.jheartbeat.cli.error.UserException;
import org.junit.jupiter.api.Test;

/** {@code hb events --since}: a time ago, ISO-8601 (local unless it names an offset) or @epoch-ms. */
class EventsSinceTest {
    static final Instant NOW = Instant.parse("2026-12-06T10:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    static long since(String w) throws UserException {
        return EventsCommand.sinceMillis(w, CLOCK, PARIS);
    }

    @Test
    void everyFormNamesTheInstant() throws UserException {
        assertThat(since("2h")).isEqualTo(NOW.minusSeconds(7200).toEpochMilli());
        assertThat(since("30min")).isEqualTo(NOW.minusSeconds(1800).toEpochMilli());
        assertThat(since("90s")).isEqualTo(NOW.minusSeconds(90).toEpochMilli());
        assertThat(since("1w")).isEqualTo(NOW.minusSeconds(7 * 86400).toEpochMilli());
        assertThat(since("@1796526724518")).isEqualTo(1_796_526_724_518L);
        assertThat(since("2026-12-06T03:00:00Z")).isEqualTo(Instant.parse("2026-12-06T03:00:00Z").toEpochMilli());
        assertThat(since("2026-12-06T04:00+01:00")).isEqualTo(Instant.parse("2026-12-06T03:00:00Z").toEpochMilli());
        // local: Paris is UTC+1 in December
        assertThat(since("2026-12-06T04:00")).isEqualTo(Instant.parse("2026-12-06T03:00:00Z").toEpochMilli());
        assertThat(since("2026-12-06 04:00:00.5")).isEqualTo(Instant.parse("2026-12-06T03:00:00.5Z").toEpochMilli());
        assertThat(since("2026-12-06")).isEqualTo(Instant.parse("2026-12-05T23:00:00Z").toEpochMilli());
        // hb report's forms too: one parser for both commands
        assertThat(since("1h30m")).isEqualTo(NOW.minusSeconds(5400).toEpochMilli());
        assertThat(since("now")).isEqualTo(NOW.toEpochMilli());
    }

    @Test
    void anythingElseIsAUsageError() {
        for (String bad : new String[] {"", "2 h", "-2h", "2y", "@", "2026-13-01", "12:00", "99999999999d"}) {
            assertThatThrownBy(() -> since(bad)).as(bad).isInstanceOf(UserException.class)
                    .hasMessageContaining("is not a time");
        }
    }
}
