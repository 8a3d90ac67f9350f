package org.jheartbeat.cli.command;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.config.DirectorSection;
import org.jheartbeat.cli.config.JheartbeatYaml;
import org.jheartbeat.cli.daemon.MetricsStartup;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.metrics.DirectorMetrics;
import org.jheartbeat.cli.metrics.MetricsEndpoint;
import org.jheartbeat.cli.metrics.MetricsTls;
import org.jheartbeat.cli.metrics.MetricsToken;
import org.jheartbeat.director.runtime.Director;
import org.jheartbeat.director.table.ListView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The director's Prometheus endpoint ({@code hb lvs daemon} on a node listed under jheartbeat.yaml
 * {@code director: metrics: listen:}), served by {@link MetricsEndpoint#serve} with the daemon's bounds, token and
 * TLS. A scrape asks the director for its configuration, check verdicts and table on a thread of its own and waits
 * at most {@link MetricsEndpoint#LOOP_ANSWER_TIMEOUT_MS}: a director busy applying a change answers
 * {@code jheartbeat_director_up 0} rather than hanging the scrape, and a question still pending is not asked twice.
 * As for the daemon, metrics never stop a director: an invalid jheartbeat.yaml, a token or TLS file that cannot be
 * used, or an address that cannot be bound is one error in the director's log and it runs without metrics.
 */
final class LvsMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("org.jheartbeat.director");

    private final MetricsEndpoint endpoint;
    private final ExecutorService asker;

    private LvsMetrics(MetricsEndpoint endpoint, ExecutorService asker) {
        this.endpoint = endpoint;
        this.asker = asker;
    }

    /** The port it listens on. */
    int port() {
        return endpoint.port();
    }

    /**
     * Starts the endpoint when jheartbeat.yaml in {@code configDir} lists {@code node} under
     * {@code director: metrics: listen:}; empty otherwise, or after logging why it could not start.
     */
    static Optional<LvsMetrics> start(Path configDir, String node, Director director) {
        Optional<DirectorSection.Endpoint> cfg;
        try {
            cfg = DirectorSection.load(configDir, node);
        } catch (UserException e) {
            for (String line : e.getMessage().split("\n")) {
                LOG.error("{}", line);
            }
            LOG.error("Director metrics endpoint not started: {} has errors (above); running without metrics (fix"
                    + " the file and restart the director)", configDir.resolve(JheartbeatYaml.NAME));
            return Optional.empty();
        }
        if (cfg.isEmpty()) {
            return Optional.empty();
        }
        DirectorSection.Endpoint at = cfg.get();
        Optional<String> token = Optional.empty();
        Optional<io.netty.handler.ssl.SslContext> tls = Optional.empty();
        try {
            if (at.tokenFile().isPresent()) {
                token = Optional.of(MetricsToken.read(at.tokenFile().get()));
            }
            if (at.tls().isPresent()) {
                tls = Optional.of(MetricsTls.load(at.tls().get().certFile(), at.tls().get().keyFile()));
            }
        } catch (MetricsToken.Refused | MetricsTls.Refused e) {
            LOG.error("Director metrics endpoint not started: {} ({} metrics:); running without metrics (fix the"
                    + " file and restart the director)", e.getMessage(), JheartbeatYaml.NAME);
            return Optional.empty();
        }
        String where = at.listen().getAddress().getHostAddress() + ":" + at.listen().getPort();
        MetricsStartup.warnings(where, at.listen().getAddress().isLoopbackAddress(), token.isPresent(),
                tls.isPresent()).forEach(LOG::warn);
        ExecutorService asker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lvs-metrics");
            t.setDaemon(true);
            return t;
        });
        Asker ask = new Asker(director, asker);
        try {
            MetricsEndpoint m = MetricsEndpoint.serve(at.listen(), () -> DirectorMetrics.of(ask.status()), token, tls);
            LOG.info("Director metrics endpoint: {}://{}/metrics ({} director: metrics: listen{})",
                    tls.isPresent() ? "https" : "http", where, JheartbeatYaml.NAME,
                    token.isPresent() ? "; bearer token required" : "");
            return Optional.of(new LvsMetrics(m, asker));
        } catch (IOException e) {
            asker.shutdownNow();
            LOG.error("Director metrics endpoint cannot listen on {} ({} director: metrics: listen: {}): {}; running"
                    + " without metrics (fix the address and restart the director)", where, JheartbeatYaml.NAME, node,
                    e.getMessage());
            return Optional.empty();
        }
    }

    /** Asks the director on its own thread, one question at a time. */
    private static final class Asker {
        private final Director director;
        private final ExecutorService thread;
        private Future<DirectorMetrics.Status> pending;

        Asker(Director director, ExecutorService thread) {
            this.director = director;
            this.thread = thread;
        }

        /** Called on the endpoint's single scrape thread. */
        Optional<DirectorMetrics.Status> status() {
            if (pending == null || pending.isDone()) {
                pending = thread.submit(() -> new DirectorMetrics.Status(director.config().virtuals(),
                        director.upStates(), director.status(ListView.DEFAULT, false)));
            }
            try {
                return Optional.of(pending.get(MetricsEndpoint.LOOP_ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } catch (Exception e) {
                // not answered in time, or the table could not be read: the director is not up for this scrape
                return Optional.empty();
            }
        }
    }

    @Override
    public void close() {
        endpoint.close();
        asker.shutdownNow();
    }
}
