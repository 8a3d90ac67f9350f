package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.Forward;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.config.ServiceKey;
import org.jheartbeat.director.table.RealSpec;
import org.jheartbeat.director.table.TableCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The user-space director against a stranger on loopback: clients from many addresses of 127/8 (each address
 * a different source, as forged ones would be) fill the UDP flow table, and one source opens TCP connections
 * until refused; a real client from another address is served in both cases. Bounds only catch hangs.
 */
class UserspaceAbuseTest {
    static final InetAddress LO = InetAddress.getLoopbackAddress();
    final List<AutoCloseable> closeMe = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() {
        for (AutoCloseable c : closeMe) {
            try {
                c.close();
            } catch (Exception e) {
                // best effort
            }
        }
    }

    private static InetAddress lo(int host) throws IOException {
        return InetAddress.getByAddress(new byte[] {127, 0, (byte) (host >> 8), (byte) host});
    }

    private UserspaceBackend backend(UserspaceOptions o) {
        UserspaceBackend b = new UserspaceBackend(TestRoundRobinScheduling::new, o);
        closeMe.add(b);
        return b;
    }

    private void daemon(Runnable r) {
        Thread t = new Thread(r, "abuse-real");
        t.setDaemon(true);
        t.start();
    }

    @Test
    void aHundredForgedSourcesFillingTheFlowTableDoNotLockARealClientOut() throws Exception {
        DatagramSocket real = new DatagramSocket(0, LO);
        closeMe.add(real);
        daemon(() -> {
            byte[] buf = new byte[2048];
            while (!real.isClosed()) {
                try {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    real.receive(p);
                    real.send(new DatagramPacket(p.getData(), p.getLength(), p.getSocketAddress()));
                } catch (IOException e) {
                    return;
                }
            }
        });
        int vport;
        try (DatagramSocket probe = new DatagramSocket(0, LO)) {
            vport = probe.getLocalPort();
        }
        ServiceKey key = ServiceKey.of(Protocol.UDP, new Endpoint(LO, vport));
        UserspaceBackend be = backend(UserspaceOptions.defaults().withMaxUdpFlows(100));
        be.apply(List.of(new TableCommand.AddService(UserspaceBackendTest.service(key, Optional.empty())),
                new TableCommand.SetReal(key, new RealSpec(new Endpoint(LO, real.getLocalPort()), Forward.MASQ, 1, 0,
                        0), false, true)));
        byte[] junk = "x".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 100; i++) {
            DatagramSocket forged = new DatagramSocket(0, lo(10 + i));
            closeMe.add(forged); // never reads what comes back, as a forged source cannot
            forged.send(new DatagramPacket(junk, junk.length, LO, vport));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> be.figures().udpFlows() == 100);
        try (DatagramSocket c = new DatagramSocket(0, lo(200))) {
            c.setSoTimeout(5_000);
            byte[] q = "query".getBytes(StandardCharsets.US_ASCII);
            c.send(new DatagramPacket(q, q.length, LO, vport));
            DatagramPacket ans = new DatagramPacket(new byte[100], 100);
            c.receive(ans);
            assertThat(new String(ans.getData(), 0, ans.getLength(), StandardCharsets.US_ASCII)).isEqualTo("query");
        }
        assertThat(be.figures().udpFlows()).isEqualTo(100);
        assertThat(be.figures().dropped()).isZero();
    }

    @Test
    void oneSourceOpeningConnectionsUntilRefusedDoesNotStopAnother() throws Exception {
        ServerSocket real = new ServerSocket(0, 1024, LO);
        closeMe.add(real);
        daemon(() -> {
            while (!real.isClosed()) {
                try {
                    Socket s = real.accept();
                    closeMe.add(s);
                    daemon(() -> {
                        try (s) {
                            s.getOutputStream().write("hello\n".getBytes(StandardCharsets.US_ASCII));
                            s.getInputStream().read(); // held open until the client goes
                        } catch (IOException e) {
                            // the client went
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
        int vport;
        try (ServerSocket probe = new ServerSocket(0, 1, LO)) {
            vport = probe.getLocalPort();
        }
        ServiceKey key = UserspaceBackendTest.tcp(vport);
        UserspaceBackend be = backend(UserspaceOptions.defaults().withMaxConnections(40).withMaxPerSource(10));
        be.apply(List.of(new TableCommand.AddService(UserspaceBackendTest.service(key, Optional.empty())),
                new TableCommand.SetReal(key, new RealSpec(new Endpoint(LO, real.getLocalPort()), Forward.MASQ, 1, 0,
                        0), false, true)));
        assertThat(be.figures().maxTcp()).isEqualTo(40);
        assertThat(be.figures().maxPerSource()).isEqualTo(10);
        List<Socket> greedy = new ArrayList<>();
        int served = 0;
        for (int i = 0; i < 40; i++) {
            Socket s = new Socket();
            closeMe.add(s);
            s.bind(new InetSocketAddress(lo(20), 0));
            s.connect(new InetSocketAddress(LO, vport), 10_000);
            s.setSoTimeout(10_000);
            greedy.add(s);
            if (firstLine(s.getInputStream()).equals("hello")) {
                served++;
            }
        }
        assertThat(served).isEqualTo(10);
        assertThat(be.figures().openTcp()).isEqualTo(10);
        assertThat(be.dataPath()).get().asString().contains(": 10 TCP connections open, at most 40 (10 per client"
                + " address); 0 UDP flows, at most 65536 per service (10 per client address); 30 clients refused,"
                + " 0 datagrams dropped");
        try (Socket other = new Socket()) {
            other.bind(new InetSocketAddress(lo(21), 0));
            other.connect(new InetSocketAddress(LO, vport), 10_000);
            other.setSoTimeout(10_000);
            assertThat(firstLine(other.getInputStream())).isEqualTo("hello");
        }
        for (Socket s : greedy) {
            s.close();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> be.figures().openTcp() == 0);
    }

    /** The first line, or "" when the director closed the connection (refused). */
    private static String firstLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        try {
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                b.append((char) c);
            }
        } catch (SocketTimeoutException e) {
            return "timeout";
        } catch (IOException e) {
            return ""; // reset: refused
        }
        return b.toString();
    }

    @Test
    void theConnectionBoundIsLoweredToWhatTheDescriptorLimitHolds() {
        UserspaceOptions o = UserspaceOptions.defaults();
        assertThat(o.connectionsWithin(1_048_576)).isEqualTo(100_000);
        assertThat(o.connectionsWithin(20_000)).isEqualTo((20_000 - UserspaceOptions.RESERVED_DESCRIPTORS) / 2);
        assertThat(o.connectionsWithin(100)).isEqualTo(1);
    }
}
