package org.jheartbeat.cli.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.replication.JobState;

/**
 * The optional Prometheus endpoint of {@code hb daemon} (jheartbeat.yaml {@code metrics: listen:}),
 * served by the Prometheus Java client's {@link HTTPServer} on {@code http://ADDRESS:PORT/metrics}
 * in the text exposition format. Each scrape runs on the endpoint's one thread ({@code hb-metrics}):
 * it asks the cluster loop for a snapshot and the event counts ({@link ClusterLoop#observe()}, a
 * short task queued on the loop) and waits for the answer at most {@link #LOOP_ANSWER_TIMEOUT_MS},
 * so a scrape never blocks the loop and a busy loop never hangs a scrape (it answers
 * {@code jheartbeat_up 0}); then reads the sync and backup states (small files; one that cannot be
 * read leaves those families out of the scrape) and builds the families ({@link ClusterMetrics}).
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** The longest a scrape waits for the cluster loop's answer, in ms. */
    public static final long LOOP_ANSWER_TIMEOUT_MS = 2_000;

    /** What a scrape reads; every method is called on the endpoint's thread. */
    public interface Sources {
        /** The loop's snapshot and counts, answered on the loop thread. */
        CompletableFuture<ClusterLoop.Observation> observe();

        /** Replication jobs' states. */
        List<JobState> jobs();

        /** Age of job {@code job}'s replica on this node, when known. */
        Optional<Duration> replicaAge(String job);

        /** Backups' states. */
        List<BackupState> backups();

        /** Log lines dropped since start. */
        long logDropped();

        /** Syslog records lost since start. */
        long syslogRecordsLost();
    }

    private final HTTPServer server;
    private final ExecutorService thread;

    private MetricsEndpoint(HTTPServer server, ExecutorService thread) {
        this.server = server;
        this.thread = thread;
    }

    /**
     * Binds and starts serving.
     *
     * @param at      address and port from jheartbeat.yaml
     * @param sources what scrapes read
     * @param clock   wall clock for the ages
     * @return the running endpoint; close it at shutdown
     * @throws IOException when the address cannot be bound (in use, not an address of this machine)
     */
    public static MetricsEndpoint start(InetSocketAddress at, Sources sources, Clock clock) throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register((MultiCollector) () -> scrape(sources, clock));
        ThreadPoolExecutor thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "hb-metrics");
                    t.setDaemon(true);
                    return t;
                });
        try {
            HTTPServer server = HTTPServer.builder().inetAddress(at.getAddress()).port(at.getPort()).registry(registry)
                    .executorService(thread).buildAndStart();
            return new MetricsEndpoint(server, thread);
        } catch (IOException | RuntimeException e) {
            thread.shutdownNow();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    /** One scrape's families (see the class comment). */
    static MetricSnapshots scrape(Sources sources, Clock clock) {
        Optional<ClusterLoop.Observation> loop;
        try {
            loop = Optional.of(sources.observe().get(LOOP_ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loop = Optional.empty();
        } catch (Exception e) {
            loop = Optional.empty();
        }
        List<JobState> jobs = List.of();
        Map<String, Optional<Duration>> ages = new java.util.HashMap<>();
        List<BackupState> backups = List.of();
        try {
            jobs = sources.jobs();
            jobs.forEach(j -> ages.put(j.job(), sources.replicaAge(j.job())));
            backups = sources.backups();
        } catch (RuntimeException e) {
            // a state file that cannot be read: those families are left out of this scrape, the rest is served
        }
        return ClusterMetrics.of(new ClusterMetrics.Inputs(loop, jobs, ages, backups, sources.logDropped(),
                sources.syslogRecordsLost(), clock.instant()));
    }

    /** The port it listens on. */
    public int port() {
        return server.getPort();
    }

    /** Stops listening and the endpoint's thread. */
    @Override
    public void close() {
        server.close();
        thread.shutdownNow();
    }
}
