package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.ServiceSpec;
import org.junit.jupiter.api.Test;

/**
 * A client that sends its request and its FIN at once (before the director's connection to the real server is up:
 * Netty's epoll transport reads at a FIN even with auto-read off) has the request delivered whole, the FIN
 * passed on, and the real's answer back; 20 such connections in a row. And what a closed TCP connection leaves
 * on its event loop: nothing. The {@code finTimeout} bound armed at the first
 * FIN (IPVS's 120 s) is cancelled when the pair closes; left armed, every connection of a burst stayed reachable
 * from the loop's timer queue for two minutes (at 5,000 connections a second, 600,000 pairs and their channels in
 * a 128 MB heap). Read through Netty's timer queue of the one event loop.
 */
class TcpServiceCloseTest {
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    /** A real server that answers "bye" to the client's FIN, then closes. */
    static Thread real(ServerSocket ss) {
        Thread t = new Thread(() -> {
            while (!ss.isClosed()) {
                try (Socket s = ss.accept(); InputStream in = s.getInputStream()) {
                    RECEIVED.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    s.getOutputStream().write("bye\n".getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    // the next one, or closed
                }
            }
        }, "real");
        t.setDaemon(true);
        t.start();
        return t;
    }

    static int timers(EventLoop loop) throws Exception {
        return loop.submit(() -> {
            Class<?> c = io.netty.util.concurrent.AbstractScheduledEventExecutor.class;
            Field f = c.getDeclaredField("scheduledTaskQueue");
            f.setAccessible(true);
            Collection<?> q = (Collection<?>) f.get(loop);
            return q == null ? 0 : q.size();
        }).get(10, TimeUnit.SECONDS);
    }

    /** The real server's copy of what each client sent. */
    static final java.util.List<String> RECEIVED = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Test
    void aRequestSentWithItsFinIsDeliveredWholeAndClosedConnectionsLeaveNoTimerBehind() throws Exception {
        Transport transport = new Transport(false);
        EventLoopGroup group = transport.group(1);
        try (ServerSocket ss = new ServerSocket(0, 64, LO)) {
            real(ss);
            int vport;
            try (ServerSocket probe = new ServerSocket(0, 1, LO)) {
                vport = probe.getLocalPort();
            }
            ServiceKey key = ServiceKey.of(Protocol.TCP, new Endpoint(LO, vport));
            ServiceSpec spec = new ServiceSpec(key, "rr", Optional.empty(), Optional.empty(), false, Optional.empty());
            UserspaceOptions options = UserspaceOptions.defaults().withTimeouts(Duration.ofSeconds(5),
                    Duration.ofHours(1), Duration.ofHours(1), Duration.ofSeconds(5));
            AtomicLong refused = new AtomicLong();
            TcpService svc = new TcpService(new TestRoundRobinScheduling(spec), group, transport, options,
                    new TcpAdmission(1000, 1000), refused, org.jheartbeat.core.time.MonotonicClock.system());
            svc.addReal(new RealSpec(new Endpoint(LO, ss.getLocalPort()), Forward.MASQ, 1, 0, 0));
            svc.bind(new InetSocketAddress(LO, vport));
            for (int i = 0; i < 20; i++) {
                try (Socket s = new Socket(LO, vport)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("x\n".getBytes(StandardCharsets.UTF_8));
                    s.shutdownOutput(); // the first FIN arms the finTimeout bound
                    String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(answer).as("connection %d, %d refused", i, refused.get()).isEqualTo("bye\n");
                }
            }
            assertThat(RECEIVED).hasSize(20).containsOnly("x\n");
            assertThat(svc.bootstraps()).as("one Bootstrap for the loop's connections, not one each").isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> svc.open() == 0);
            await().atMost(Duration.ofSeconds(10)).until(() -> timers(group.next()) == 0);
            svc.close();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void oneEventLoopPerCoreByDefault() {
        EventLoopGroup group = new Transport(false).group(0);
        try {
            int loops = 0;
            for (var ignored : group) {
                loops++;
            }
            // as HAProxy's nbthread: more loops than cores only adds switches between them
            assertThat(loops).isEqualTo(Runtime.getRuntime().availableProcessors());
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
