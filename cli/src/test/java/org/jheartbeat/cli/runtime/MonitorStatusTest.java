package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.resources.monitor.GroupMonitor.ResourceWatch;
import org.jheartbeat.resources.monitor.MonitorSettings;
import org.junit.jupiter.api.Test;

/** The monitoring section of {@code hb status}, text and JSON. */
class MonitorStatusTest {
    @Test
    void textAndJsonShowFailCountsAndLastFailures() {
        Map<String, List<ResourceWatch>> w = new LinkedHashMap<>();
        MonitorSettings s = new MonitorSettings(Duration.ofSeconds(2), Duration.ofSeconds(20), 1, Duration.ofMinutes(10));
        w.put("198.18.0.100", List.of(
                new ResourceWatch("lsb:lighttpd", s, 1, "not running (\"stopped\")", Duration.ofMillis(3500)),
                new ResourceWatch("lsb:cron", MonitorSettings.DEFAULT, 0, "", Duration.ZERO)));
        assertThat(MonitorStatus.render(w)).isEqualTo("Monitoring (fail count: restarts within the window; cleared by"
                + " hb resources cleanup GROUP):\n"
                + "  lsb:lighttpd (group 198.18.0.100): every 2 s, fail count 1 of 1 within 10 min; last failure 3 s ago:"
                + " not running (\"stopped\")\n"
                + "  lsb:cron (group 198.18.0.100): every 10 s, fail count 0 of 3 within 10 min\n");
        assertThat(json(w)).isEqualTo("{\"monitor\":["
                + "{\"group\":\"198.18.0.100\",\"resource\":\"lsb:lighttpd\",\"interval_ms\":2000,"
                + "\"fail_count\":1,\"restart_limit\":1,\"window_ms\":600000,\"last_failure\":\"not running (\\\"stopped\\\")\","
                + "\"last_failure_age_ms\":3500},"
                + "{\"group\":\"198.18.0.100\",\"resource\":\"lsb:cron\",\"interval_ms\":10000,"
                + "\"fail_count\":0,\"restart_limit\":3,\"window_ms\":600000,\"last_failure\":null,"
                + "\"last_failure_age_ms\":null}]}");
        assertThat(MonitorStatus.render(Map.of())).isEmpty();
        assertThat(json(Map.of())).isEqualTo("{\"monitor\":[]}");
    }

    private static String json(Map<String, List<ResourceWatch>> w) {
        return org.jheartbeat.core.control.JsonText.write(g -> {
            g.writeStartObject();
            MonitorStatus.write(g, w);
            g.writeEndObject();
        });
    }
}
