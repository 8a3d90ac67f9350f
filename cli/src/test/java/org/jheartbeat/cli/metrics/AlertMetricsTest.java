package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.cli.alert.AlertDispatcher;
import org.junit.jupiter.api.Test;

class AlertMetricsTest {
    @Test
    void theDispatchersFiguresAreOneCounterFamilyWithDisjointOutcomes() {
        MetricSnapshots none = new MetricSnapshots(List.of());
        assertThat(AlertMetrics.add(none, Optional.empty()).size()).isZero();
        String text = new String(ClusterMetrics.text(AlertMetrics.add(none,
                Optional.of(new AlertDispatcher.Stats(7, 3, 2, 1, 4)))), StandardCharsets.UTF_8);
        assertThat(text).contains("jheartbeat_alerts_total{outcome=\"sent\"} 7.0",
                "jheartbeat_alerts_total{outcome=\"failed\"} 1.0", "jheartbeat_alerts_total{outcome=\"timed_out\"} 2.0",
                "jheartbeat_alerts_total{outcome=\"dropped\"} 1.0", "jheartbeat_alerts_total{outcome=\"rate_limited\"} 4.0");
    }
}
