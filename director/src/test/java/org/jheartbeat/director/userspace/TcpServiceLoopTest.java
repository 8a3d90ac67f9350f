package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.junit.jupiter.api.Test;

/**
 * Where a connection's work runs (epoll, two event loops, real sockets on loopback): each accepted client is
 * registered on the loop of the listener that accepted it, so its pair never hops to another loop (one listener
 * per loop, {@code SO_REUSEPORT}: {@link TcpListeners}); both sides keep {@code TCP_NODELAY} from Netty's default
 * now that the director no longer sets it a second time; and a port already held by a socket without
 * {@code SO_REUSEPORT} is still refused, leaving nothing bound.
 */
class TcpServiceLoopTest {
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, LO)) {
            return probe.getLocalPort();
        }
    }

    static TcpService service(EventLoopGroup group, Transport transport, int vport, int realPort) {
        ServiceKey key = ServiceKey.of(Protocol.TCP, new Endpoint(LO, vport));
        ServiceSpec spec = new ServiceSpec(key, "rr", Optional.empty(), Optional.empty(), false, Optional.empty());
        TcpService svc = new TcpService(new TestRoundRobinScheduling(spec), group, transport,
                UserspaceOptions.defaults(), new TcpAdmission(1000, 1000), new AtomicLong(), MonotonicClock.system());
        svc.addReal(new RealSpec(new Endpoint(LO, realPort), Forward.MASQ, 1, 0, 0));
        return svc;
    }

    @Test
    void eachConnectionStaysOnTheLoopOfTheListenerThatAcceptedIt() throws Exception {
        Transport transport = new Transport(false);
        assumeTrue(transport.epoll, "Netty's epoll transport is not available here");
        EventLoopGroup group = transport.group(2);
        List<Socket> held = new CopyOnWriteArrayList<>();
        List<Socket> clients = new ArrayList<>();
        try (ServerSocket real = new ServerSocket(0, 64, LO)) {
            Thread t = new Thread(() -> {
                while (!real.isClosed()) {
                    try {
                        held.add(real.accept()); // held open: the pairs stay up while the test looks at them
                    } catch (IOException e) {
                        // closed
                    }
                }
            }, "real");
            t.setDaemon(true);
            t.start();
            int vport = freePort();
            TcpService svc = service(group, transport, vport, real.getLocalPort());
            svc.bind(new InetSocketAddress(LO, vport));
            int n = 16;
            for (int i = 0; i < n; i++) {
                Socket s = new Socket(LO, vport);
                clients.add(s);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> svc.open() == n && held.size() == n);
            for (List<Channel> pair : svc.pairChannels()) {
                Channel client = pair.get(0);
                Channel toReal = pair.get(1);
                assertThat(client.eventLoop()).as("client %s: the accepting listener's loop", client)
                        .isSameAs(client.parent().eventLoop());
                assertThat(toReal.eventLoop()).as("the real server's side on the client's loop").isSameAs(
                        client.eventLoop());
                for (Channel side : pair) {
                    assertThat(side.config().getOption(ChannelOption.TCP_NODELAY)).as("TCP_NODELAY on %s", side)
                            .isTrue();
                }
            }
            svc.close();
        } finally {
            for (Socket s : clients) {
                s.close();
            }
            for (Socket s : held) {
                s.close();
            }
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPortHeldWithoutReusePortIsRefusedAndNothingStaysBound() throws Exception {
        Transport transport = new Transport(false);
        assumeTrue(transport.epoll, "Netty's epoll transport is not available here");
        EventLoopGroup group = transport.group(2);
        try {
            int vport;
            try (ServerSocket other = new ServerSocket(0, 1, LO)) { // another service on the port
                vport = other.getLocalPort();
                TcpService svc = service(group, transport, vport, 9);
                assertThatThrownBy(() -> svc.bind(new InetSocketAddress(LO, vport)))
                        .hasMessageContaining("in use");
            }
            // nothing of ours holds the port: a socket without SO_REUSEPORT binds it again
            try (ServerSocket again = new ServerSocket()) {
                again.bind(new InetSocketAddress(LO, vport));
                assertThat(again.isBound()).isTrue();
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
