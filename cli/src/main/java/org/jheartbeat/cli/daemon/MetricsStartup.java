package org.jheartbeat.cli.daemon;

import java.io.IOException;
import java.util.Optional;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.logging.DaemonLog;
import org.jheartbeat.cli.metrics.MetricsEndpoint;
import org.jheartbeat.cli.metrics.MetricsToken;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.resources.executor.ResourceGroupExecutor;
import org.jheartbeat.sync.cluster.SyncRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the daemon's metrics endpoint as jheartbeat.yaml {@code metrics:} says, or explains why not. */
final class MetricsStartup {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private MetricsStartup() {
    }

    /**
     * The Prometheus endpoint when jheartbeat.yaml lists this node under {@code metrics: listen:}; an
     * address that cannot be bound is logged as an error and the node runs without metrics (metrics
     * never stop a cluster node). A token file that cannot be used keeps the endpoint off rather than open.
     *
     * @param wall wall time, for the replica and backup ages
     */
    static Optional<MetricsEndpoint> start(JheartbeatYaml settings, NodeName me, ClusterLoop loop, SyncRuntime sync,
                                           DaemonLog log, ResourceGroupExecutor groups, java.time.Clock wall) {
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
        } else if (!at.get().getAddress().isLoopbackAddress()) {
            LOG.warn("Metrics endpoint on {} without a token: anyone who can reach that address reads this"
                    + " cluster's state; set {} metrics: token_file:, or listen on 127.0.0.1", where,
                    JheartbeatYaml.NAME);
        }
        try {
            MetricsEndpoint m = MetricsEndpoint.start(at.get(), new DaemonMetricsSources(loop, sync, log, groups),
                    wall, token);
            LOG.info("Metrics endpoint: http://{}/metrics ({} metrics: listen{})", where, JheartbeatYaml.NAME,
                    token.isPresent() ? "; bearer token required" : "");
            return Optional.of(m);
        } catch (IOException e) {
            LOG.error("Metrics endpoint cannot listen on {} ({} metrics: listen: {}): {}; running without metrics"
                    + " (fix the address and restart the daemon)", where, JheartbeatYaml.NAME, me, e.getMessage());
            return Optional.empty();
        }
    }

}
