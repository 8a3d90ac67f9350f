package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class SyslogFormatTest {
    private static final ZonedDateTime DEC_1 = ZonedDateTime.of(2026, 12, 1, 9, 5, 7, 123_000_000, ZoneOffset.UTC);

    @Test
    void aRecordIsWhatGlibcSyslogWritesToDevLog() {
        byte[] r = SyslogFormat.record(SyslogFacility.LOCAL0, SyslogFormat.Severity.WARN, DEC_1, "jheartbeat", 4242,
                "WARN: node node2: is dead");
        // <PRI>, "Mmm dd hh:mm:ss" with the day padded by a blank, IDENT[PID]: , no host, no newline
        assertThat(new String(r, StandardCharsets.UTF_8))
                .isEqualTo("<132>Dec  1 09:05:07 jheartbeat[4242]: WARN: node node2: is dead");
        byte[] later = SyslogFormat.record(SyslogFacility.DAEMON, SyslogFormat.Severity.INFO,
                DEC_1.withDayOfMonth(21).withHour(23), "jheartbeat", 1, "x");
        assertThat(new String(later, StandardCharsets.UTF_8)).isEqualTo("<30>Dec 21 23:05:07 jheartbeat[1]: x");
    }

    @Test
    void priorityIsFacilityTimesEightPlusSeverity() {
        // RFC 3164 4.1.1: local0 is 16; crit 2, err 3, warning 4, info 6, debug 7
        assertThat(List.of(SyslogFormat.Severity.values()).stream()
                .map(s -> SyslogFormat.priority(SyslogFacility.LOCAL0, s)).toList())
                .containsExactly(130, 131, 132, 134, 135);
        assertThat(SyslogFormat.priority(SyslogFacility.DAEMON, SyslogFormat.Severity.INFO)).isEqualTo(30);
        assertThat(SyslogFormat.priority(SyslogFacility.LOCAL7, SyslogFormat.Severity.DEBUG)).isEqualTo(191);
        assertThat(SyslogFormat.priority(SyslogFacility.KERN, SyslogFormat.Severity.CRIT)).isEqualTo(2);
    }

    @Test
    void everyHaCfFacilityNameMapsToItsGlibcCode() {
        String[] names = {"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron",
            "authpriv", "ftp", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"};
        int[] codes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23};
        for (int i = 0; i < names.length; i++) {
            assertThat(SyslogFacility.fromHaCf(names[i])).as(names[i]).isPresent();
            assertThat(SyslogFacility.fromHaCf(names[i]).get().code()).as(names[i]).isEqualTo(codes[i]);
            assertThat(SyslogFacility.fromHaCf(names[i]).get().haCfName()).isEqualTo(names[i]);
        }
        assertThat(SyslogFacility.fromHaCf("security")).contains(SyslogFacility.AUTH);
        assertThat(SyslogFacility.fromHaCf("none")).isEmpty();
        assertThat(SyslogFacility.fromHaCf("LOCAL0")).isEmpty(); // Heartbeat compares case-sensitively
    }

    @Test
    void aLongMessageIsCutAtACharacterBoundaryAndMarked() {
        String message = "é".repeat(SyslogFormat.MAX_RECORD_BYTES); // two bytes each
        byte[] r = SyslogFormat.record(SyslogFacility.LOCAL0, SyslogFormat.Severity.INFO, DEC_1, "jheartbeat", 7,
                message);
        assertThat(r.length).isLessThanOrEqualTo(SyslogFormat.MAX_RECORD_BYTES);
        String text = new String(r, StandardCharsets.UTF_8);
        assertThat(text).startsWith("<134>Dec  1 09:05:07 jheartbeat[7]: éé").endsWith("é...").doesNotContain("\uFFFD");
        byte[] exact = SyslogFormat.record(SyslogFacility.LOCAL0, SyslogFormat.Severity.INFO, DEC_1, "jheartbeat", 7,
                "x".repeat(SyslogFormat.MAX_RECORD_BYTES - "<134>Dec  1 09:05:07 jheartbeat[7]: ".length()));
        assertThat(exact.length).isEqualTo(SyslogFormat.MAX_RECORD_BYTES);
        assertThat(new String(exact, StandardCharsets.UTF_8)).endsWith("xxx");
    }
}
