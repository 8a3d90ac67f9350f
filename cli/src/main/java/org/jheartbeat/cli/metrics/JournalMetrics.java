package org.jheartbeat.cli.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;

/**
 * The event journal's loss as one counter, {@code jheartbeat_journal_events_dropped_total}: events the daemon's
 * journal dropped rather than block the cluster loop (its queue full, or closed), since start. Such events are
 * missing from {@code hb events} and were not handed to the alerts. 0 when the daemon has no journal.
 */
public final class JournalMetrics {
    private JournalMetrics() {
    }

    /** {@code families} with the journal's counter added. */
    public static MetricSnapshots add(MetricSnapshots families, long dropped) {
        List<MetricSnapshot> out = new ArrayList<>(families.stream().toList());
        out.add(CounterSnapshot.builder().name("jheartbeat_journal_events_dropped").help("events the event journal"
                + " dropped (its queue full) since start; missing from hb events and the alerts")
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(dropped).build()).build());
        return new MetricSnapshots(out);
    }
}
