package org.jheartbeat.cli.metrics;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.RealServer;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.table.TableReal;
import org.jheartbeat.director.table.TableService;
import org.jheartbeat.director.table.TableSnapshot;

/**
 * The families of the director's endpoint ({@code hb lvs daemon}, jheartbeat.yaml {@code director: metrics:}),
 * built from its status: the configured virtual services and real servers, the check states the director holds,
 * and the table as {@code hb lvs status --json} shows it. Every real series is labelled {@code protocol}
 * ({@code tcp}, {@code udp}, {@code fwm}), {@code virtual} ({@code VIP:PORT}, or the mark) and {@code real}
 * ({@code RIP:PORT}); only configured reals are listed (the fallback server is not one).
 * <ul>
 *   <li>{@code jheartbeat_director_up}: 1 when the director answered with its table, else 0 and nothing else;</li>
 *   <li>{@code jheartbeat_director_real_up}: 1 when the real is in the table with a weight above 0; 0 when it is
 *       quiesced (weight 0) or out of the table;</li>
 *   <li>{@code jheartbeat_director_real_check_up}: the director's last verdict of its check (1 passing);</li>
 *   <li>{@code jheartbeat_director_real_weight}: its weight in the table (0 when out);</li>
 *   <li>{@code jheartbeat_director_real_connections{state="active|inactive"}}: ActiveConn and InActConn.</li>
 * </ul>
 * The director keeps no total of check failures (only the consecutive ones that {@code failurecount} compares),
 * so there is no failure counter; the journal's {@code real-down} events count the transitions.
 */
public final class DirectorMetrics {
    private DirectorMetrics() {
    }

    /**
     * What one scrape read of the director.
     *
     * @param virtuals the configuration in force
     * @param checks   service → real → the check's last verdict (up)
     * @param table    the table, as {@code hb lvs status} reads it
     */
    public record Status(List<VirtualService> virtuals, Map<ServiceKey, Map<Endpoint, Boolean>> checks,
                         TableSnapshot table) {
        public Status {
            virtuals = List.copyOf(virtuals);
            checks = Map.copyOf(checks);
            java.util.Objects.requireNonNull(table, "table");
        }
    }

    /** The families; {@code status} empty: the director did not answer in time. */
    public static MetricSnapshots of(Optional<Status> status) {
        List<MetricSnapshot> out = new ArrayList<>();
        out.add(gauge("jheartbeat_director_up", "1 when the director answered this scrape with its table",
                List.of(point(status.isPresent() ? 1 : 0))));
        if (status.isEmpty()) {
            return new MetricSnapshots(out);
        }
        List<GaugeDataPointSnapshot> up = new ArrayList<>();
        List<GaugeDataPointSnapshot> check = new ArrayList<>();
        List<GaugeDataPointSnapshot> weight = new ArrayList<>();
        List<GaugeDataPointSnapshot> conns = new ArrayList<>();
        for (VirtualService v : status.get().virtuals()) {
            Optional<TableService> service = status.get().table().service(v.key());
            Map<Endpoint, Boolean> verdicts = status.get().checks().getOrDefault(v.key(), Map.of());
            String protocol = v.key().protocol().name().toLowerCase(Locale.ROOT);
            for (RealServer r : v.reals()) {
                Optional<TableReal> in = service.flatMap(s -> s.reals().stream()
                        .filter(t -> t.spec().endpoint().equals(r.endpoint())).findFirst());
                String[] labels = {"protocol", protocol, "real", r.endpoint().toString(), "virtual", v.key().address()};
                int w = in.map(t -> t.spec().weight()).orElse(0);
                up.add(point(w > 0 ? 1 : 0, labels));
                weight.add(point(w, labels));
                check.add(point(Boolean.TRUE.equals(verdicts.get(r.endpoint())) ? 1 : 0, labels));
                conns.add(point(in.map(TableReal::activeConns).orElse(0L), with(labels, "active")));
                conns.add(point(in.map(TableReal::inactConns).orElse(0L), with(labels, "inactive")));
            }
        }
        out.add(gauge("jheartbeat_director_real_up", "1 when the real server is in the table with a weight above 0;"
                + " 0 when quiesced (weight 0) or out", up));
        out.add(gauge("jheartbeat_director_real_check_up", "1 when the director's last check of the real server"
                + " passed", check));
        out.add(gauge("jheartbeat_director_real_weight", "the real server's weight in the table (0 when out)",
                weight));
        out.add(gauge("jheartbeat_director_real_connections", "the real server's connections in the table, by"
                + " state (ActiveConn, InActConn)", conns));
        return new MetricSnapshots(out);
    }

    private static String[] with(String[] labels, String state) {
        String[] l = java.util.Arrays.copyOf(labels, labels.length + 2);
        l[labels.length] = "state";
        l[labels.length + 1] = state;
        return l;
    }

    private static GaugeSnapshot gauge(String name, String help, List<GaugeDataPointSnapshot> points) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        points.forEach(b::dataPoint);
        return b.build();
    }

    private static GaugeDataPointSnapshot point(double value, String... labels) {
        return GaugeDataPointSnapshot.builder().value(value).labels(Labels.of(labels)).build();
    }
}
