package org.jheartbeat.cli.metrics;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.loop.ClusterLoop;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.replication.JobState;

/**
 * The optional Prometheus endpoint of {@code hb daemon} (jheartbeat.yaml {@code metrics: listen:}) on
 * {@code http://ADDRESS:PORT/metrics}, in the Prometheus text exposition format. HTTP is parsed by Netty's
 * codec on the endpoint's own I/O thread ({@code hb-metrics-io}, never the media's), and a stranger who can
 * reach the port can exhaust nothing of the daemon's ({@link MetricsGate}):
 * <ul>
 *   <li>at most {@link MetricsGate#MAX_CONNECTIONS} connections are open at once, so idle or stalled clients
 *       cost a fixed number of descriptors; a new one takes the place of the oldest that has not sent its
 *       request, so they never keep a scrape out either;</li>
 *   <li>each connection must deliver its whole request within {@link MetricsGate#REQUEST_TIMEOUT} and is closed
 *       after one answer (scrapers open one connection per scrape);</li>
 *   <li>requests are bounded (4 KiB request line, 8 KiB of headers, no body);</li>
 *   <li>scrapes run one at a time on {@code hb-metrics}, with at most {@link #MAX_WAITING_SCRAPES} waiting;
 *       more get {@code 503} at once;</li>
 *   <li>with a token file ({@code metrics: token_file:}), only {@code Authorization: Bearer TOKEN} is served,
 *       as Prometheus's {@code authorization: credentials_file:} sends it; others get {@code 401}.</li>
 * </ul>
 * With {@code metrics: tls_cert_file:} and {@code tls_key_file:} ({@link MetricsTls}), every connection speaks TLS
 * first ({@code https://ADDRESS:PORT/metrics}; Netty's {@link SslHandler} in front of the codec) and plain HTTP gets
 * no answer. The bounds hold as they are: a TLS handshake is part of the request, so a client that stalls in it
 * has not sent its request and is evicted or timed out as an idle one.
 * A scrape asks the cluster loop for a snapshot and the event counts ({@link ClusterLoop#observe()}, a short
 * task queued on the loop) and waits for the answer at most {@link #LOOP_ANSWER_TIMEOUT_MS}, so a scrape never
 * blocks the loop and a busy loop never hangs a scrape (it answers {@code jheartbeat_up 0}); then it reads the
 * sync and backup states (small files; one that cannot be read leaves those families out of the scrape) and
 * builds the families ({@link ClusterMetrics}).
 */
public final class MetricsEndpoint implements AutoCloseable {
    /** The longest a scrape waits for the cluster loop's answer, in ms. */
    public static final long LOOP_ANSWER_TIMEOUT_MS = 2_000;
    /** Scrapes that may wait behind the running one; a further one is answered 503. */
    public static final int MAX_WAITING_SCRAPES = 4;

    /** What a scrape reads; every method is called on the endpoint's scrape thread. */
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

        /** Monitoring: group key → its watched resources with their fail counts; none by default. */
        default Map<String, List<org.jheartbeat.resources.monitor.GroupMonitor.ResourceWatch>> monitor() {
            return Map.of();
        }

        /** Events the event journal dropped since start; 0 (the default) without a journal. */
        default long journalDropped() {
            return 0;
        }

        /** The alert dispatcher's figures; empty (the default) when there are no alerts. */
        default Optional<org.jheartbeat.cli.alert.AlertDispatcher.Stats> alerts() {
            return Optional.empty();
        }
    }

    private final Channel listener;
    private final EventLoopGroup io;
    private final ThreadPoolExecutor scrapes;
    private final MetricsGate gate;

    private MetricsEndpoint(Channel listener, EventLoopGroup io, ThreadPoolExecutor scrapes, MetricsGate gate) {
        this.listener = listener;
        this.io = io;
        this.scrapes = scrapes;
        this.gate = gate;
    }

    /**
     * Binds and starts serving, without a token.
     *
     * @see #start(InetSocketAddress, Sources, Clock, Optional)
     */
    public static MetricsEndpoint start(InetSocketAddress at, Sources sources, Clock clock) throws IOException {
        return start(at, sources, clock, Optional.empty());
    }

    /**
     * Binds and starts serving.
     *
     * @param at      address and port from jheartbeat.yaml
     * @param sources what scrapes read
     * @param clock   wall clock for the ages
     * @param token   the bearer token a request must carry (read from {@code metrics: token_file:}), if any
     * @return the running endpoint; close it at shutdown
     * @throws IOException when the address cannot be bound (in use, not an address of this machine)
     */
    public static MetricsEndpoint start(InetSocketAddress at, Sources sources, Clock clock, Optional<String> token)
            throws IOException {
        return start(at, sources, clock, token, Optional.empty());
    }

    /**
     * Binds and starts serving, over TLS when {@code tls} is given.
     *
     * @param tls the server context from {@link MetricsTls#load}, or empty for plain HTTP
     * @see #start(InetSocketAddress, Sources, Clock, Optional)
     */
    public static MetricsEndpoint start(InetSocketAddress at, Sources sources, Clock clock, Optional<String> token,
                                        Optional<SslContext> tls) throws IOException {
        return serve(at, () -> scrape(sources, clock), token, tls);
    }

    /**
     * Binds and serves {@code families} with the same bounds, token and TLS as the daemon's endpoint (the class
     * comment); the director's endpoint ({@code hb lvs daemon}) serves its own families this way.
     *
     * @param families one scrape's families, called on the scrape thread; it must not block for long
     * @throws IOException when the address cannot be bound (in use, not an address of this machine)
     */
    public static MetricsEndpoint serve(InetSocketAddress at,
                                        java.util.function.Supplier<io.prometheus.metrics.model.snapshots.MetricSnapshots> families,
                                        Optional<String> token, Optional<SslContext> tls) throws IOException {
        ThreadPoolExecutor scrapes = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(MAX_WAITING_SCRAPES), r -> {
                    Thread t = new Thread(r, "hb-metrics");
                    t.setDaemon(true);
                    return t;
                });
        EventLoopGroup io = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("hb-metrics-io", true),
                NioIoHandler.newFactory());
        MetricsGate gate = new MetricsGate(token, () -> ClusterMetrics.text(families.get()), scrapes);
        try {
            Channel ch = new ServerBootstrap().group(io).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            if (!gate.admit(c)) {
                                return;
                            }
                            if (tls.isPresent()) {
                                SslHandler handshake = tls.get().newHandler(c.alloc());
                                handshake.setHandshakeTimeoutMillis(MetricsGate.REQUEST_TIMEOUT.toMillis());
                                c.pipeline().addLast(handshake);
                            }
                            c.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192),
                                    new HttpObjectAggregator(0), gate.handler());
                        }
                    }).bind(at).sync().channel();
            return new MetricsEndpoint(ch, io, scrapes, gate);
        } catch (Exception e) {
            io.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            scrapes.shutdownNow();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IOException io2 ? io2 : new IOException(e.getMessage(), e);
        }
    }

    /** One scrape's families (see the class comment). */
    static io.prometheus.metrics.model.snapshots.MetricSnapshots scrape(Sources sources, Clock clock) {
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
        return JournalMetrics.add(AlertMetrics.add(ClusterMetrics.of(new ClusterMetrics.Inputs(loop, jobs, ages, backups,
                sources.logDropped(), sources.syslogRecordsLost(), clock.instant(), sources.monitor())), sources.alerts()),
                sources.journalDropped());
    }

    /** The port it listens on. */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Connections open now (at most {@link MetricsGate#MAX_CONNECTIONS}). */
    public int openConnections() {
        return gate.open();
    }

    /** Connections reset to stay within {@link MetricsGate#MAX_CONNECTIONS} (evicted or refused), since start. */
    public long refusedConnections() {
        return gate.refused();
    }

    /** Stops listening, closes every connection and stops the endpoint's threads. */
    @Override
    public void close() {
        listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        scrapes.shutdownNow();
    }
}
