package org.jheartbeat.cli.daemon;

import org.jheartbeat.cli.alert.AlertDispatcher;
import java.util.function.Supplier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.logging.DaemonLog;
import org.jheartbeat.cli.metrics.MetricsEndpoint;
import org.jheartbeat.cli.metrics.MetricsTls;
import org.jheartbeat.cli.metrics.MetricsToken;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.resources.executor.ResourceGroupExecutor;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the daemon's metrics endpoint as jheartbeat.yaml {@code metrics:} says, or explains why not. */
public final class MetricsStartup {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private MetricsStartup() {
    }

    /**
     * The Prometheus endpoint when jheartbeat.yaml lists this node under {@code metrics: listen:}; an
     * address that cannot be bound is logged as an error and the node runs without metrics (metrics
     * never stop a cluster node). A token file or TLS files that cannot be used keep the endpoint off rather than
     * open; a non-loopback address without a token, or without TLS, is a warning.
     *
     * @param wall wall time, for the replica and backup ages
     * @param alerts the alert dispatcher's figures (empty without alerts)
     * @param journalDropped events the event journal dropped so far
     */
    static Optional<MetricsEndpoint> start(JheartbeatYaml settings, NodeName me, ClusterLoop loop, SyncRuntime sync,
                                           DaemonLog log, ResourceGroupExecutor groups, java.time.Clock wall,
                                           Supplier<Optional<AlertDispatcher.Stats>> alerts,
                                           java.util.function.LongSupplier journalDropped) {
        Optional<java.net.InetSocketAddress> at = settings.metricsListen(me);
        if (at.isEmpty()) {
            return Optional.empty();
        }
        String where = at.get().getAddress().getHostAddress() + ":" + at.get().getPort();
        Optional<String> token = Optional.empty();
        if (settings.metricsTokenFile().isPresent()) {
            try {
                token = Optional.of(MetricsToken.read(settings.metricsTokenFile().get()));
            } catch (MetricsToken.Refused e) {
                LOG.error("Metrics endpoint not started: {} ({} metrics: token_file:); running without metrics"
                        + " (fix the file and restart the daemon)", e.getMessage(), JheartbeatYaml.NAME);
                return Optional.empty();
            }
        }
        Optional<io.netty.handler.ssl.SslContext> tls = Optional.empty();
        if (settings.metricsTls().isPresent()) {
            try {
                tls = Optional.of(MetricsTls.load(settings.metricsTls().get().certFile(),
                        settings.metricsTls().get().keyFile()));
            } catch (MetricsTls.Refused e) {
                LOG.error("Metrics endpoint not started: {} ({} metrics: tls_cert_file:/tls_key_file:); running"
                        + " without metrics (fix the file and restart the daemon)", e.getMessage(), JheartbeatYaml.NAME);
                return Optional.empty();
            }
        }
        warnings(where, at.get().getAddress().isLoopbackAddress(), token.isPresent(), tls.isPresent())
                .forEach(LOG::warn);
        try {
            MetricsEndpoint m = MetricsEndpoint.start(at.get(), new DaemonMetricsSources(loop, sync, log, groups, alerts,
                    journalDropped), wall, token, tls);
            LOG.info("Metrics endpoint: {}://{}/metrics ({} metrics: listen{})", tls.isPresent() ? "https" : "http",
                    where, JheartbeatYaml.NAME, token.isPresent() ? "; bearer token required" : "");
            return Optional.of(m);
        } catch (IOException e) {
            LOG.error("Metrics endpoint cannot listen on {} ({} metrics: listen: {}): {}; running without metrics"
                    + " (fix the address and restart the daemon)", where, JheartbeatYaml.NAME, me, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * What start warns about an endpoint reachable from the network: no token (anyone who reaches it reads the
     * cluster's state), no TLS (the scrape, and the token, cross the network in clear text). None on loopback.
     *
     * @param where ADDRESS:PORT for the messages
     */
    public static List<String> warnings(String where, boolean loopback, boolean token, boolean tls) {
        List<String> out = new ArrayList<>();
        if (!loopback && !token) {
            out.add("Metrics endpoint on " + where + " without a token: anyone who can reach that address reads this"
                    + " cluster's state; set " + JheartbeatYaml.NAME + " metrics: token_file:, or listen on 127.0.0.1");
        }
        if (!loopback && !tls) {
            out.add("Metrics endpoint on " + where + " without TLS: " + (token ? "the scrape and its token cross"
                    : "the scrape crosses") + " the network in clear text; set " + JheartbeatYaml.NAME
                    + " metrics: tls_cert_file: and tls_key_file:, or listen on 127.0.0.1");
        }
        return out;
    }
}
