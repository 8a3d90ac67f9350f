package org.jheartbeat.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The text form of an event: local time to the ms, node, kind, subject, then cause, who asked and duration. */
class EventTextTest {
    @Test
    void aLineHasWhatIsKnownAndNothingElse() {
        ClusterEvent dead = new ClusterEvent(7, 1_796_526_724_518L, "node1", EventKind.NODE_DEAD, "node2",
                "no beat for 10000 ms", "", 10_000);
        assertThat(EventText.line(dead, ZoneOffset.UTC))
                .isEqualTo("2026-12-06 03:12:04.518 node1 node-dead node2 (no beat for 10000 ms) took 10.000 s");
        assertThat(EventText.line(dead, ZoneId.of("Europe/Paris"))).startsWith("2026-12-06 04:12:04.518 node1");
        ClusterEvent standby = new ClusterEvent(9, 1_796_526_724_000L, "node1", EventKind.STANDBY, "all", "",
                "user root (group root), uid 0, pid 9 (hb)", 3_120);
        assertThat(EventText.line(standby, ZoneOffset.UTC)).isEqualTo("2026-12-06 03:12:04.000 node1 standby all by"
                + " user root (group root), uid 0, pid 9 (hb) took 3.120 s");
        assertThat(EventText.line(ClusterEvent.of(0, "", EventKind.RELOAD, "", ""), ZoneOffset.UTC))
                .isEqualTo("1970-01-01 00:00:00.000 - reload");
    }
}
