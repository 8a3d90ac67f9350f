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

    private final MetricsEndpoint.Sources sources = sources(() -> answer.get());

    /** Sources whose observation comes from {@code observe}, with no sync jobs, backups or lost log lines. */
    static MetricsEndpoint.Sources sources(java.util.function.Supplier<CompletableFuture<ClusterLoop.Observation>> observe) {
        return new MetricsEndpoint.Sources() {
            @Override
            public CompletableFuture<ClusterLoop.Observation> observe() {
                return observe.get();
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
    }

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
    void theJournalsDroppedEventsAreACounter() throws Exception {
        answer.set(CompletableFuture.completedFuture(ClusterMetricsTest.observation("active", "up")));
        MetricsEndpoint.Sources dropping = new MetricsEndpoint.Sources() {
            @Override
            public CompletableFuture<ClusterLoop.Observation> observe() {
                return sources.observe();
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

            @Override
            public long journalDropped() {
                return 3;
            }
        };
        Clock clock = Clock.fixed(ClusterMetricsTest.NOW, ZoneOffset.UTC);
        assertThat(ClusterMetricsTest.text(MetricsEndpoint.scrape(dropping, clock)).lines())
                .contains("jheartbeat_journal_events_dropped_total 3.0");
        assertThat(ClusterMetricsTest.text(MetricsEndpoint.scrape(sources, clock)).lines())
                .contains("jheartbeat_journal_events_dropped_total 0.0");
    }

    @Test
    void anAddressInUseIsAnIOException() throws Exception {
        Clock clock = Clock.systemUTC();
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources, clock)) {
            assertThatThrownBy(() -> MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", m.port()), sources, clock))
                    .isInstanceOf(IOException.class);
        }
    }

    private static HttpResponse<String> request(int port, String path, String method, String authorization)
            throws IOException, InterruptedException {
        HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(60)).method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return c.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long openDescriptors() throws IOException {
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(java.nio.file.Path.of(
                "/proc/self/fd"))) {
            return s.count();
        }
    }

    @Test
    void aStalledClientAndTwoThousandIdleConnectionsNeitherKeepAScrapeOutNorHoldMoreThanTheCap() throws Exception {
        answer.set(CompletableFuture.completedFuture(ClusterMetricsTest.observation("active", "up")));
        List<java.nio.channels.SocketChannel> idle = new java.util.ArrayList<>();
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources,
                Clock.systemUTC())) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", m.port());
            long before = openDescriptors();
            java.nio.channels.SocketChannel stalled = java.nio.channels.SocketChannel.open(at);
            idle.add(stalled);
            stalled.write(java.nio.ByteBuffer.wrap("G".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            for (int i = 0; i < 2_000; i++) {
                idle.add(java.nio.channels.SocketChannel.open(at));
            }
            // the endpoint has seen them all once it has reset all but its cap of them
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (m.refusedConnections() < idle.size() - MetricsGate.MAX_CONNECTIONS && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(m.refusedConnections()).isGreaterThanOrEqualTo(idle.size() - MetricsGate.MAX_CONNECTIONS);
            assertThat(m.openConnections()).isLessThanOrEqualTo(MetricsGate.MAX_CONNECTIONS);
            // this test's own 2,001 client sockets, plus at most the cap on the endpoint's side (and a few the
            // JDK's HTTP client and the JVM open meanwhile)
            assertThat(openDescriptors() - before).isLessThanOrEqualTo(idle.size() + MetricsGate.MAX_CONNECTIONS + 16);

            long start = System.nanoTime();
            HttpResponse<String> r = request(m.port(), "/metrics", "GET", null);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("jheartbeat_up 1.0\n");
            System.out.printf("scrape beside 2,001 idle connections answered in %d ms%n",
                    (System.nanoTime() - start) / 1_000_000);
        } finally {
            for (java.nio.channels.SocketChannel c : idle) {
                c.close();
            }
        }
    }

    @Test
    void withATokenOnlyABearerRequestIsServedAndOnlyGetMetricsExists() throws Exception {
        answer.set(CompletableFuture.completedFuture(ClusterMetricsTest.observation("active", "up")));
        String token = "0123456789abcdef0123456789abcdef";
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources,
                Clock.systemUTC(), Optional.of(token))) {
            HttpResponse<String> none = request(m.port(), "/metrics", "GET", null);
            assertThat(none.statusCode()).isEqualTo(401);
            assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"jheartbeat\"");
            assertThat(none.body()).doesNotContain("jheartbeat_up");
            assertThat(request(m.port(), "/metrics", "GET", "Bearer " + token + "x").statusCode()).isEqualTo(401);
            assertThat(request(m.port(), "/metrics", "GET", "Basic " + token).statusCode()).isEqualTo(401);
            HttpResponse<String> ok = request(m.port(), "/metrics", "GET", "Bearer " + token);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).contains("jheartbeat_up 1.0\n");
            assertThat(request(m.port(), "/", "GET", "Bearer " + token).statusCode()).isEqualTo(404);
            assertThat(request(m.port(), "/metrics", "POST", "Bearer " + token).statusCode()).isEqualTo(405);
            HttpResponse<String> head = request(m.port(), "/metrics?x=1", "HEAD", "Bearer " + token);
            assertThat(head.statusCode()).isEqualTo(200);
            assertThat(head.body()).isEmpty();
        }
    }
}
