package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class DnsCheckTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Builds an answer to {@code query}: the question echoed, one record pointing at it. */
    static byte[] answer(byte[] query, int type, byte[] rdata, int rcode) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(query[0]);
        out.write(query[1]);
        out.write(0x81);
        out.write(0x80 | rcode);
        out.write(0);
        out.write(1);
        out.write(0);
        out.write(rdata == null ? 0 : 1);
        for (int i = 0; i < 4; i++) {
            out.write(0);
        }
        out.write(query, 12, query.length - 12); // the question
        if (rdata != null) {
            out.write(0xc0);
            out.write(12); // name: pointer to the question's name
            out.write(type >> 8);
            out.write(type);
            out.write(0);
            out.write(1);
            out.write(new byte[] {0, 0, 0, 60}, 0, 4);
            out.write(rdata.length >> 8);
            out.write(rdata.length);
            out.write(rdata, 0, rdata.length);
        }
        return out.toByteArray();
    }

    /** A UDP responder on loopback answering every query with {@code respond}. */
    static final class Responder implements AutoCloseable {
        final DatagramSocket socket;
        volatile byte[] lastQuery;

        Responder(UnaryOperator<byte[]> respond) throws Exception {
            socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
            Thread t = new Thread(() -> {
                byte[] buf = new byte[1500];
                while (!socket.isClosed()) {
                    try {
                        DatagramPacket p = new DatagramPacket(buf, buf.length);
                        socket.receive(p);
                        byte[] q = Arrays.copyOf(p.getData(), p.getLength());
                        lastQuery = q;
                        byte[] a = respond.apply(q);
                        if (a != null) {
                            socket.send(new DatagramPacket(a, a.length, p.getSocketAddress()));
                        }
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "dns-responder");
            t.setDaemon(true);
            t.start();
        }

        CheckTarget target() {
            return CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort()))
                    .withProtocol("udp");
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    private static CheckResult dns(CheckTarget target, Duration timeout) throws Exception {
        return Checks.forService("negotiate", "dns").check(target, timeout);
    }

    @Test
    void anARecordEqualToReceiveIsUpAndAnotherAddressIsDownWithBoth() throws Exception {
        try (Responder r = new Responder(q -> answer(q, 1, new byte[] {(byte) 198, 18, 0, 10}, 0))) {
            CheckResult up = dns(r.target().withRequest("/www.example.test").withReceive("198.18.0.10"), TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            assertThat(DnsWire.readName(r.lastQuery, 12)).isEqualTo("www.example.test");
            CheckResult down = dns(r.target().withRequest("www.example.test").withReceive("198.18.0.11"), TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("is 198.18.0.10, not 198.18.0.11");
        }
    }

    @Test
    void anAddressRequestIsAPtrQueryOfTheReverseName() throws Exception {
        byte[] name = {4, 'h', 'o', 's', 't', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 4, 't', 'e', 's', 't', 0};
        try (Responder r = new Responder(q -> answer(q, 12, name, 0))) {
            CheckResult up = dns(r.target().withRequest("198.18.0.10").withReceive("host.example.test"), TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            assertThat(DnsWire.readName(r.lastQuery, 12)).isEqualTo("10.0.18.198.in-addr.arpa");
        }
    }

    @Test
    void nxdomainAndEmptyAnswersAreDownWithTheReason() throws Exception {
        try (Responder r = new Responder(q -> answer(q, 1, null, 3))) {
            CheckResult down = dns(r.target().withRequest("missing.example.test"), TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("NXDOMAIN");
        }
        try (Responder r = new Responder(q -> answer(q, 1, null, 0))) {
            CheckResult down = dns(r.target().withRequest("empty.example.test"), TIMEOUT);
            assertThat(down.reason()).contains("no A record");
        }
    }

    @Test
    void aSilentServerIsCutAtTheTimeoutAndALostAnswerIsAskedAgain() throws Exception {
        try (Responder r = new Responder(q -> null)) {
            CheckResult down = dns(r.target().withRequest("www.example.test"), Duration.ofMillis(400));
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("no answer within the check timeout of 400 ms");
            assertThat(down.elapsedMillis()).isLessThan(5_000);
        }
        int[] asked = {0};
        try (Responder r = new Responder(q -> ++asked[0] == 1 ? null : answer(q, 1, new byte[] {127, 0, 0, 1}, 0))) {
            CheckResult up = dns(r.target().withRequest("www.example.test").withReceive("127.0.0.1"), TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            assertThat(asked[0]).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aMalformedAnswerIsDownNotAnException() throws Exception {
        // an answer record whose name is a pointer to itself
        try (Responder r = new Responder(q -> {
            byte[] a = answer(q, 12, new byte[] {(byte) 0xc0, 0}, 0);
            int rdata = a.length - 2;
            a[rdata] = (byte) (0xc0 | (rdata >> 8));
            a[rdata + 1] = (byte) rdata;
            return a;
        })) {
            CheckResult down = dns(r.target().withRequest("198.18.0.10"), TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("compression pointer");
        }
        try (Responder r = new Responder(q -> Arrays.copyOf(answer(q, 1, new byte[] {1, 2, 3, 4}, 0), 20))) {
            CheckResult down = dns(r.target().withRequest("www.example.test"), TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("cut short");
        }
    }

    @Test
    void overTcpTheQueryIsLengthFramed() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            int n = (in.read() << 8) | in.read();
            byte[] q = in.readNBytes(n);
            byte[] a = answer(q, 1, new byte[] {(byte) 198, 18, 0, 7}, 0);
            out.write(new byte[] {(byte) (a.length >> 8), (byte) a.length});
            out.write(a);
            out.flush();
        })) {
            CheckResult up = dns(s.target().withProtocol("tcp").withRequest("www.example.test").withReceive("198.18.0.7"),
                    TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
        }
    }

    @Test
    void theEncoderRejectsOverLongLabels() {
        assertThatThrownBy(() -> DnsWire.query(1, "a".repeat(64) + ".test", 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("label");
    }
}
