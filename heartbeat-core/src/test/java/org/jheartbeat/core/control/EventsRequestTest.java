package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code events SINCE_MS MAX}: its wire form, its refusals, and that any caller may read the journal. */
class EventsRequestTest {

    @Test
    void roundTripsAndIsReadOnly() throws Exception {
        ControlRequest.Events e = new ControlRequest.Events(1_796_526_724_518L, 5000);
        assertThat(e.toWire()).isEqualTo("events 1796526724518 5000");
        assertThat(ControlRequest.parse(e.toWire())).isEqualTo(e);
        assertThat(ControlRequest.parse("events 0 1")).isEqualTo(new ControlRequest.Events(0, 1));
        assertThat(e.changesState()).isFalse();
        assertThat(ControlAccess.ROOT_ONLY.refusal(new ControlAccess.Caller("alice", "haclient"), e)).isEmpty();
    }

    @Test
    void badArgumentsGetOneReason() {
        String why = "events takes SINCE_MS (ms since the epoch) and MAX (1..5000), decimal without leading zeros";
        for (String line : new String[] {"events", "events 0", "events 0 0", "events 0 5001", "events -1 10",
            "events 01 10", "events 0 010", "events 1e3 10", "events 0 10 x", "events 9999999999999999999 1"}) {
            assertThat(ControlRequestTest.reason(line)).as(line).isEqualTo(why);
        }
        assertThatThrownBy(() -> new ControlRequest.Events(-1, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ControlRequest.Events(0, 5001)).isInstanceOf(IllegalArgumentException.class);
    }
}
