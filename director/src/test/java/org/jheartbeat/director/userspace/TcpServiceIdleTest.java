package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.EventLoopGroup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
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
 * The idle timeout of a proxied TCP connection (IPVS's {@code tcp} timeout, {@code idleTimeout}) decided on the
 * clock the service is given: a pair with no traffic for the timeout is closed, traffic either way postpones it,
 * and the event loop's wake-ups alone close nothing while that clock stands still. The clock here is a fake that
 * counts its reads, so the test waits for the idle timer to have looked (two reads with no traffic) rather
 * than for a time.
 */
class TcpServiceIdleTest {
    static final InetAddress LO = InetAddress.getLoopbackAddress();
    /** The idle timeout: also how often the event loop wakes the timer while the fake clock stands still. */
    static final Duration IDLE = Duration.ofMillis(200);

    /** A fake monotonic clock, safe to read from the event loop, counting its reads. */
    static final class CountingClock implements MonotonicClock {
        final AtomicLong nanos = new AtomicLong(1_000_000_000L);
        final AtomicLong reads = new AtomicLong();

        @Override
        public long nanoTime() {
            reads.incrementAndGet();
            return nanos.get();
        }

        void advance(Duration d) {
            nanos.addAndGet(d.toNanos());
        }

        /** Waits until the clock has been read twice more (with no traffic: the idle timer's checks). */
        void awaitTimerChecks() {
            long from = reads.get();
            await().atMost(Duration.ofSeconds(20)).until(() -> reads.get() >= from + 2);
        }
    }

    /** A real server that echoes each line. */
    static void echo(ServerSocket ss) {
        Thread t = new Thread(() -> {
            while (!ss.isClosed()) {
                try (Socket s = ss.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                            StandardCharsets.UTF_8));
                    OutputStream out = s.getOutputStream();
                    for (String line; (line = in.readLine()) != null; ) {
                        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                    }
                } catch (IOException e) {
                    // the next one, or closed
                }
            }
        }, "echo");
        t.setDaemon(true);
        t.start();
    }

    static String roundTrip(Socket s, BufferedReader in, String line) throws IOException {
        s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        return in.readLine();
    }

    @Test
    void anIdlePairIsClosedOnTheGivenClockAndTrafficPostponesIt() throws Exception {
        Transport transport = new Transport(false);
        EventLoopGroup group = transport.group(1);
        CountingClock clock = new CountingClock();
        try (ServerSocket ss = new ServerSocket(0, 64, LO)) {
            echo(ss);
            int vport;
            try (ServerSocket probe = new ServerSocket(0, 1, LO)) {
                vport = probe.getLocalPort();
            }
            ServiceKey key = ServiceKey.of(Protocol.TCP, new Endpoint(LO, vport));
            ServiceSpec spec = new ServiceSpec(key, "rr", Optional.empty(), Optional.empty(), false, Optional.empty());
            UserspaceOptions options = UserspaceOptions.defaults().withTimeouts(Duration.ofSeconds(5), IDLE,
                    Duration.ofHours(1), Duration.ofSeconds(5));
            TcpService svc = new TcpService(new TestRoundRobinScheduling(spec), group, transport, options,
                    new TcpAdmission(1000, 1000), new AtomicLong(), clock);
            svc.addReal(new RealSpec(new Endpoint(LO, ss.getLocalPort()), Forward.MASQ, 1, 0, 0));
            svc.bind(new InetSocketAddress(LO, vport));
            try (Socket s = new Socket(LO, vport)) {
                s.setSoTimeout(20_000);
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
                        StandardCharsets.UTF_8));
                assertThat(roundTrip(s, in, "a")).isEqualTo("a");

                // the loop's timer wakes (every 200 ms of real time) but the clock stands still: not idle
                clock.awaitTimerChecks();
                assertThat(svc.open()).isEqualTo(1);
                assertThat(roundTrip(s, in, "b")).as("still relayed").isEqualTo("b");

                // 150 ms of the clock later, traffic: the timeout counts again from here
                clock.advance(Duration.ofMillis(150));
                assertThat(roundTrip(s, in, "c")).isEqualTo("c");
                clock.advance(Duration.ofMillis(150)); // 300 ms since "b", 150 ms since "c"
                clock.awaitTimerChecks();
                assertThat(svc.open()).as("traffic 150 ms ago: not idle yet").isEqualTo(1);
                assertThat(roundTrip(s, in, "d")).isEqualTo("d");

                clock.advance(IDLE); // 200 ms since "d": idle
                await().atMost(Duration.ofSeconds(20)).until(() -> svc.open() == 0);
                assertThat(in.read()).as("the client's connection is closed").isEqualTo(-1);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> TcpServiceCloseTest.timers(group.next()) == 0);
            svc.close();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
