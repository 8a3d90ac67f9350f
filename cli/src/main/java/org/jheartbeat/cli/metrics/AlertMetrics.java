package org.jheartbeat.cli.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.cli.alert.AlertDispatcher;

/**
 * The alert dispatcher's figures as one counter family, {@code jheartbeat_alerts_total{outcome}}: of the events
 * the {@code alerts:} rules matched, how many were {@code sent}, {@code failed} (a script's non-zero exit, a mail
 * refused or not delivered in time), {@code timed_out} (a script killed past its timeout), {@code dropped} (its
 * rule's queue was full) or {@code rate_limited}; the outcomes are disjoint. Left out when there are no alerts.
 */
public final class AlertMetrics {
    private AlertMetrics() {
    }

    /** {@code families} with the alert family added when {@code stats} is present. */
    public static MetricSnapshots add(MetricSnapshots families, Optional<AlertDispatcher.Stats> stats) {
        if (stats.isEmpty()) {
            return families;
        }
        AlertDispatcher.Stats s = stats.get();
        List<MetricSnapshot> out = new ArrayList<>(families.stream().toList());
        CounterSnapshot.Builder b = CounterSnapshot.builder().name("jheartbeat_alerts").help("events the alerts:"
                + " rules of jheartbeat.yaml matched, by what became of them");
        point(b, "sent", s.sent());
        point(b, "failed", s.failed() - s.timedOut());
        point(b, "timed_out", s.timedOut());
        point(b, "dropped", s.dropped());
        point(b, "rate_limited", s.limited());
        out.add(b.build());
        return new MetricSnapshots(out);
    }

    private static void point(CounterSnapshot.Builder b, String outcome, long value) {
        b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value)
                .labels(Labels.of("outcome", outcome)).build());
    }
}
