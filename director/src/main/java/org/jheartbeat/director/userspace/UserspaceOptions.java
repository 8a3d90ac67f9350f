package org.jheartbeat.director.userspace;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How the user-space data path behaves.
 *
 * @param connectTimeout  bound of the TCP connect to a real server; at the bound the client's
 *                        connection is closed
 * @param idleTimeout     a TCP connection with no traffic either way for this long is closed (the
 *                        kernel's IPVS {@code tcp} timeout, 900 s by default, {@code ipvsadm --set})
 * @param finTimeout      after one side closed (FIN), the other has this long to finish (IPVS
 *                        {@code tcpfin}, 120 s)
 * @param udpTimeout      a UDP flow with no datagram either way for this long is forgotten (IPVS
 *                        {@code udp}, 300 s)
 * @param maxConnections  TCP connections open at once over all services; a client beyond it is
 *                        closed at accept. The backend lowers it to what the descriptor limit allows
 *                        ({@link #connectionsWithin(long)})
 * @param maxUdpFlows     UDP flows per service; a new client beyond it takes the place of an older
 *                        flow ({@code UdpFlowTable})
 * @param maxPerSource    TCP connections over all services, and UDP flows per service, of one client
 *                        address; beyond it that address's new connections are closed at accept and
 *                        its datagrams from new ports dropped
 * @param proxyProtocol   the real servers (address and port) that are sent a PROXY protocol v1
 *                        header first, so they see the client's address
 * @param nio             use Java NIO even where Netty's epoll transport loads
 * @param ioThreads       event-loop threads (0: one per core)
 */
public record UserspaceOptions(Duration connectTimeout, Duration idleTimeout, Duration finTimeout,
        Duration udpTimeout, int maxConnections, int maxUdpFlows, int maxPerSource,
        Set<InetSocketAddress> proxyProtocol, boolean nio, int ioThreads) {

    /** Descriptors kept back from the connection bound for the listeners, health checks and the daemon's files. */
    public static final int RESERVED_DESCRIPTORS = 512;

    public UserspaceOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(finTimeout, "finTimeout");
        Objects.requireNonNull(udpTimeout, "udpTimeout");
        proxyProtocol = Set.copyOf(proxyProtocol);
        if (maxConnections < 1 || maxUdpFlows < 1 || maxPerSource < 1 || ioThreads < 0) {
            throw new IllegalArgumentException("maxConnections, maxUdpFlows and maxPerSource must be at least 1,"
                    + " ioThreads >= 0");
        }
    }

    /**
     * The defaults: connect 5 s, IPVS's timeouts (tcp 900 s, tcpfin 120 s, udp 300 s), 100,000
     * connections, 65,536 UDP flows per service, 1,000 of either per client address, no PROXY protocol,
     * epoll where it loads.
     */
    public static UserspaceOptions defaults() {
        return new UserspaceOptions(Duration.ofSeconds(5), Duration.ofSeconds(900), Duration.ofSeconds(120),
                Duration.ofSeconds(300), 100_000, 65_536, 1_000, Set.of(), false, 0);
    }

    /**
     * The TCP connection bound this process can keep: each proxied connection holds two descriptors (client
     * and real server), and {@link #RESERVED_DESCRIPTORS} stay free so health checks and files never fail for
     * lack of one.
     *
     * @param descriptorLimit the process's open-file limit ({@code RLIMIT_NOFILE})
     * @return {@code maxConnections}, or less when the limit cannot hold that many; at least 1
     */
    public int connectionsWithin(long descriptorLimit) {
        return (int) Math.max(1, Math.min(maxConnections, (descriptorLimit - RESERVED_DESCRIPTORS) / 2));
    }

    /** The same options with another bound per client address. */
    public UserspaceOptions withMaxPerSource(int max) {
        return new UserspaceOptions(connectTimeout, idleTimeout, finTimeout, udpTimeout, maxConnections, maxUdpFlows,
                max, proxyProtocol, nio, ioThreads);
    }

    /** The same options with another UDP flow bound. */
    public UserspaceOptions withMaxUdpFlows(int max) {
        return new UserspaceOptions(connectTimeout, idleTimeout, finTimeout, udpTimeout, maxConnections, max,
                maxPerSource, proxyProtocol, nio, ioThreads);
    }

    /** The same options with these timeouts. */
    public UserspaceOptions withTimeouts(Duration connect, Duration idle, Duration fin, Duration udp) {
        return new UserspaceOptions(connect, idle, fin, udp, maxConnections, maxUdpFlows,
                maxPerSource, proxyProtocol, nio, ioThreads);
    }

    /** The same options with another connection bound. */
    public UserspaceOptions withMaxConnections(int max) {
        return new UserspaceOptions(connectTimeout, idleTimeout, finTimeout, udpTimeout, max, maxUdpFlows,
                maxPerSource, proxyProtocol, nio, ioThreads);
    }

    /** The same options sending the PROXY protocol to these real servers. */
    public UserspaceOptions withProxyProtocol(Set<InetSocketAddress> reals) {
        return new UserspaceOptions(connectTimeout, idleTimeout, finTimeout, udpTimeout, maxConnections, maxUdpFlows,
                maxPerSource, reals, nio, ioThreads);
    }

    /** The same options with the transport and thread count chosen. */
    public UserspaceOptions withTransport(boolean useNio, int threads) {
        return new UserspaceOptions(connectTimeout, idleTimeout, finTimeout, udpTimeout, maxConnections, maxUdpFlows,
                maxPerSource, proxyProtocol, useNio, threads);
    }
}
