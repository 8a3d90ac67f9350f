package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.replication.JobState;
import org.junit.jupiter.api.Test;

/** The endpoint on loopback, port chosen by the system: what an HTTP scrape gets. */
class MetricsEndpointTest {
    private final AtomicReference<CompletableFuture<ClusterLoop.Observation>> answer = new AtomicReference<>();

    private final MetricsEndpoint.Sources sources = new MetricsEndpoint.Sources() {
        @Override
        public CompletableFuture<ClusterLoop.Observation> observe() {
            return answer.get();
        }

        @Override
        public List<JobState> jobs() {
            return List.of();
        }

        @Override
        public Optional<Duration> replicaAge(String job) {
            return Optional.empty();
        }

        @Override
        public List<BackupState> backups() {
            return List.of();
        }

        @Override
        public long logDropped() {
            return 0;
        }

        @Override
        public long syslogRecordsLost() {
            return 0;
        }
    };

    private static String get(int port) throws IOException, InterruptedException {
        HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).get().asString().startsWith("text/plain");
        return r.body();
    }

    @Test
    void aScrapeShowsTheLoopsSnapshotAndALoopThatDoesNotAnswerGivesUpZero() throws Exception {
        Clock clock = Clock.fixed(ClusterMetricsTest.NOW, ZoneOffset.UTC);
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources, clock)) {
            answer.set(CompletableFuture.completedFuture(ClusterMetricsTest.observation("dead", "dead")));
            assertThat(get(m.port())).contains("jheartbeat_up 1.0\n")
                    .contains("jheartbeat_node_status{local=\"false\",node=\"node2\",status=\"dead\"} 1.0\n");
            answer.set(new CompletableFuture<>()); // a loop that never answers: the scrape gives up, the loop waits for nothing
            assertThat(get(m.port())).contains("jheartbeat_up 0.0\n").doesNotContain("jheartbeat_node_status");
        }
    }

    @Test
    void anAddressInUseIsAnIOException() throws Exception {
        Clock clock = Clock.systemUTC();
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources, clock)) {
            assertThatThrownBy(() -> MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", m.port()), sources, clock))
                    .isInstanceOf(IOException.class);
        }
    }
}
