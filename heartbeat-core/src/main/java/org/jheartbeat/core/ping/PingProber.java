package org.jheartbeat.core.ping;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jheartbeat.core.config.PingNodeDecl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ICMP edge of ping nodes: every {@code interval} (keepalive, as Heartbeat's ping media send an
 * echo request per keepalive), sends an echo request to each ping node's hosts, one after the other
 * until one answers, and reports the node to {@code answered} when one does. Silence is not reported:
 * {@link PingNodes} declares a node dead after {@code deadping} without answers.
 *
 * <p>Runs on threads of its own ({@code hb-ping-N}, one per ping node, so a silent node's timeouts
 * never delay another's probes) and never on the loop thread; each probe is bounded by
 * {@code timeout}. The default probe is {@link InetAddress#isReachable(int)}, which sends ICMP echo
 * requests when the JVM runs as root (as the daemon does, like Heartbeat) and otherwise falls back
 * to a TCP connection to port 7.
 */
public final class PingProber implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    /** One echo request: whether {@code host} answered within {@code timeout}. */
    @FunctionalInterface
    public interface Probe {
        /**
         * @throws IOException when the host name cannot be resolved or the request cannot be sent
         */
        boolean answers(String host, Duration timeout) throws IOException;
    }

    /** ICMP echo through {@link InetAddress#isReachable(int)} (root: ICMP; otherwise TCP port 7). */
    public static final Probe ICMP = (host, timeout) ->
            InetAddress.getByName(host).isReachable((int) Math.max(1, timeout.toMillis()));

    private final List<PingNodeDecl> nodes;
    private final Duration interval;
    private final Duration timeout;
    private final Probe probe;
    private final Consumer<String> answered;
    private final ScheduledExecutorService threads;

    /**
     * @param nodes    the ping nodes to probe
     * @param interval time between two probes of one node (keepalive); positive
     * @param probe    sends one echo request
     * @param answered called (on a prober thread) with a node's name each time one of its hosts answers
     */
    public PingProber(List<PingNodeDecl> nodes, Duration interval, Probe probe, Consumer<String> answered) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("probe interval must be positive");
        }
        this.nodes = List.copyOf(nodes);
        this.interval = interval;
        this.timeout = Duration.ofMillis(Math.max(100, Math.min(1000, interval.toMillis())));
        this.probe = probe;
        this.answered = answered;
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        this.threads = Executors.newScheduledThreadPool(Math.max(1, nodes.size()), r -> {
            Thread t = new Thread(r, "hb-ping-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts probing every node now, then every interval. */
    public void start() {
        for (PingNodeDecl node : nodes) {
            threads.scheduleWithFixedDelay(() -> probeOnce(node), 0, interval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void probeOnce(PingNodeDecl node) {
        for (String host : node.hosts()) {
            try {
                if (probe.answers(host, timeout)) {
                    answered.accept(node.name());
                    return;
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("ping node {}: echo request to {} failed: {}", node.name(), host, e.toString());
            }
        }
    }

    /** Stops probing; a probe under way ends within its timeout. */
    @Override
    public void close() {
        threads.shutdownNow();
    }
}
