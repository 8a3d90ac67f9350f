package org.jheartbeat.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Log lines of jheartbeat and of Heartbeat 3.0.6 kept by their time; lines without one go with the line before. */
class LogWindowTest {
    @Test
    void keepsTheLinesOfTheWindowWithTheirContinuations() {
        TimeSpec.Window w = new TimeSpec.Window(Instant.parse("2026-12-06T03:12:00Z"), Instant.parse("2026-12-06T03:13:00Z"));
        LogWindow lw = new LogWindow(w, ZoneId.of("UTC"));
        List<String> log = List.of(
                "2026/12/06_03:11:59.999 node2 hb[42]: info: before",
                "2026/12/06_03:12:00.000 node2 hb[42]: WARN: node node1: is dead",
                "java.lang.IllegalStateException: x",
                "\tat org.jheartbeat.X.y(X.java:1)",
                "heartbeat[99]: 2026/12/06_03:12:30 info: a real Heartbeat line",
                "2026/12/06_03:13:00.001 node2 hb[42]: info: after");
        List<String> kept = log.stream().filter(lw::keep).toList();
        assertThat(kept).containsExactly(log.get(1), log.get(2), log.get(3), log.get(4));
        assertThat(new LogWindow(w, ZoneId.of("UTC")).pastEnd(log.get(5))).isTrue();
        assertThat(new LogWindow(w, ZoneId.of("UTC")).pastEnd(log.get(2))).isFalse();
    }

    @Test
    void theDaemonsZoneGivesTheInstant() {
        assertThat(LogWindow.time("2026/12/06_04:12:04.5 node1 hb[1]: info: x", ZoneId.of("Europe/Berlin")))
                .contains(Instant.parse("2026-12-06T03:12:04.500Z").toEpochMilli());
        assertThat(LogWindow.time("no time here", ZoneId.of("UTC"))).isEmpty();
    }
}
