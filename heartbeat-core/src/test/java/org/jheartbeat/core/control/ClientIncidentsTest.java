package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import org.jheartbeat.core.control.ClientIncidents.Kind;
import org.junit.jupiter.api.Test;

/** Incident log lines: one per kind per 10 s, with the suppressed and total counts. */
class ClientIncidentsTest {
    static final long S = 1_000_000_000L;

    @Test
    void oneLinePerKindPerTenSecondsWithCounts() {
        ClientIncidents c = new ClientIncidents();
        assertThat(c.record(Kind.MALFORMED, "bad request: empty request", 0))
                .contains("control socket: bad request: empty request [1 so far]");
        for (int i = 0; i < 99; i++) {
            assertThat(c.record(Kind.MALFORMED, "bad request: x", i * 50_000_000L)).isEmpty();
        }
        assertThat(c.record(Kind.SILENT, "dropped a silent client", 5 * S)).as("kinds are limited apart")
                .contains("control socket: dropped a silent client [1 so far]");
        assertThat(c.record(Kind.MALFORMED, "bad request: y", 10 * S))
                .contains("control socket: bad request: y (99 more suppressed) [101 so far]");
        assertThat(c.count(Kind.MALFORMED)).isEqualTo(101);
        assertThat(c.count(Kind.BUSY)).isZero();
    }
}
