package org.jheartbeat.core.journal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EventCodecTest {

    @Test
    void anEventSurvivesItsLine() {
        ClusterEvent e = new ClusterEvent(7, 1_796_526_724_518L, "node1", EventKind.NODE_DEAD, "node2",
                "no beat for 10000 ms", "", 10_000);
        String line = EventCodec.toJson(e);
        assertThat(line).isEqualTo("{\"seq\":7,\"time\":\"2026-12-06T03:12:04.518Z\",\"ms\":1796526724518,"
                + "\"node\":\"node1\",\"kind\":\"node-dead\",\"subject\":\"node2\",\"cause\":\"no beat for 10000 ms\","
                + "\"by\":\"\",\"duration_ms\":10000}");
        assertThat(EventCodec.parse(line)).contains(e);
    }

    @Test
    void quotesNewlinesAndLongTextStayOnOneLine() {
        ClusterEvent e = ClusterEvent.of(1, "n\"1", EventKind.RELOAD, "x", "line one\nline two\t\"q\"" + "y".repeat(900))
                .by("uid 0 (pid 1 hb)");
        String line = EventCodec.toJson(e);
        assertThat(line).doesNotContain("\n");
        ClusterEvent back = EventCodec.parse(line).orElseThrow();
        assertThat(back.cause()).startsWith("line one line two \"q\"").endsWith("...").hasSize(ClusterEvent.MAX_TEXT);
        assertThat(back.node()).isEqualTo("n\"1");
        assertThat(back.by()).isEqualTo("uid 0 (pid 1 hb)");
        assertThat(back.durationMillis()).isEqualTo(-1);
    }

    @Test
    void unknownFieldsAreSkippedAndBadLinesRefused() {
        assertThat(EventCodec.parse("{\"ms\":5,\"kind\":\"link-up\",\"extra\":{\"a\":[1]},\"subject\":\"node2/eth1\"}"))
                .hasValueSatisfying(e -> {
                    assertThat(e.kind()).isEqualTo(EventKind.LINK_UP);
                    assertThat(e.subject()).isEqualTo("node2/eth1");
                });
        assertThat(EventCodec.parse("{\"ms\":5,\"kind\":\"no-such-kind\"}")).isEmpty();
        assertThat(EventCodec.parse("{\"kind\":\"link-up\"}")).isEmpty();
        assertThat(EventCodec.parse("{\"ms\":5,\"kind\":\"link-up\"} trailing")).isEmpty();
        assertThat(EventCodec.parse("[1,2]")).isEmpty();
        assertThat(EventCodec.parse("{\"ms\":5,\"kind\":\"link-up\"")).isEmpty();
        assertThat(EventCodec.parse("")).isEmpty();
        assertThat(EventCodec.parse(null)).isEmpty();
        assertThat(EventCodec.parse("{\"ms\":5,\"kind\":\"link-up\",\"cause\":\"" + "z".repeat(EventCodec.MAX_LINE) + "\"}"))
                .isEmpty();
    }

    @Test
    void wireNamesRoundTrip() {
        for (EventKind k : EventKind.values()) {
            assertThat(EventKind.fromWire(k.wire())).contains(k);
            assertThat(k.wire()).matches("[a-z]+(-[a-z]+)*");
        }
    }
}
