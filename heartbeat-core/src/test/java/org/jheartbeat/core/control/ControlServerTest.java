package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.time.MonotonicClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control server on a real Unix socket: clients are served concurrently, a silent client or a
 * waiting hand-over delays nobody, excess clients get one error line, bad requests get one error
 * line and the server keeps serving. Bounds only catch hangs; measured times are printed.
 */
class ControlServerTest {
    @TempDir
    Path dir;

    /** Answers status at once; a hand-over waits until {@link #release} is counted down. */
    final CountDownLatch release = new CountDownLatch(1);

    ControlResponse handle(ControlRequest r) {
        if (r instanceof ControlRequest.Handover) {
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ControlResponse.ok("handed over\n");
        }
        return ControlResponse.ok(r.toWire() + " answered\n");
    }

    ControlServer start(ControlServer.Limits limits) throws IOException {
        ControlServer s = new ControlServer(dir.resolve("control.sock"), this::handle, limits, MonotonicClock.system());
        s.start();
        return s;
    }

    SocketChannel connect() throws IOException {
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(dir.resolve("control.sock")));
        return ch;
    }

    /** Sends raw bytes and ends its side (as {@code socat} does), reads the whole answer (blocking; the server closes). */
    String raw(byte[] request) throws IOException {
        try (SocketChannel ch = connect()) {
            try {
                ch.write(ByteBuffer.wrap(request));
                ch.shutdownOutput();
            } catch (IOException e) {
                // a turned-away client may find the socket closed already; its error line is still there to read
            }
            return readAll(ch);
        }
    }

    static String readAll(SocketChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(4096);
        try {
            while (ch.read(b) >= 0) {
                out.write(b.array(), 0, b.position());
                b.clear();
            }
        } catch (java.net.SocketException e) {
            // closed with part of an overlong request unread: the answer came first
            if (out.size() == 0) {
                throw e;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    long millisFor(ControlRequest r) throws IOException {
        long t0 = System.nanoTime();
        assertThat(ControlClient.request(dir.resolve("control.sock"), r).body()).isEqualTo(r.toWire() + " answered\n");
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    void statusIsAnsweredWhileAHandoverWaitsAndWhileAClientSendsNothing() throws Exception {
        try (ControlServer s = start(ControlServer.Limits.DEFAULT); SocketChannel silent = connect()) {
            CompletableFuture<ControlResponse> handover = CompletableFuture.supplyAsync(() -> {
                try {
                    return ControlClient.request(dir.resolve("control.sock"), ControlRequest.parse("standby all 60"));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            List<Long> ms = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ms.add(millisFor(new ControlRequest.Status(false)));
                ms.add(millisFor(new ControlRequest.ClStatus(List.of("rscstatus"))));
            }
            System.out.println("control server: status/cl_status during a waiting hand-over and a silent client: " + ms + " ms");
            assertThat(ms).allMatch(m -> m < 10_000, "no request waits for the hand-over or the silent client");
            assertThat(handover).isNotDone();
            release.countDown();
            assertThat(handover.get(30, TimeUnit.SECONDS).body()).isEqualTo("handed over\n");
        }
    }

    @Test
    void aSilentClientIsDroppedWithOneErrorLineAndCounted() throws Exception {
        try (ControlServer s = start(new ControlServer.Limits(4, 300, 1_000)); SocketChannel silent = connect()) {
            long t0 = System.nanoTime();
            String answer = readAll(silent);
            System.out.println("control server: silent client dropped after " + (System.nanoTime() - t0) / 1_000_000
                    + " ms (read timeout 300 ms)");
            assertThat(answer).isEqualTo("ERR no request line within 300 ms\n");
            assertThat(s.stats().silent()).isEqualTo(1);
            assertThat(raw("status\n".getBytes(StandardCharsets.US_ASCII))).isEqualTo("OK\nstatus answered\n");
        }
    }

    @Test
    void excessClientsGetOneErrorLineAndNeverQueue() throws Exception {
        try (ControlServer s = start(new ControlServer.Limits(2, 60_000, 1_000));
             SocketChannel a = connect(); SocketChannel b = connect()) {
            // a and b hold both slots (they send nothing); the third is turned away at once
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
                String third = raw("status\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(third).isEqualTo("ERR too many control clients (2 at once); try again\n");
            });
            assertThat(s.stats().busy()).isPositive();
            a.close();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(raw("status\n".getBytes(StandardCharsets.US_ASCII))).isEqualTo("OK\nstatus answered\n"));
        }
    }

    @Test
    void aGoodRequestIsAnsweredRightAfterAHundredBadOnes() throws Exception {
        List<byte[]> bad = List.of(new byte[0], "\n".getBytes(StandardCharsets.US_ASCII),
                ("x".repeat(2000) + "\n").getBytes(StandardCharsets.US_ASCII),
                "frobnicate\n".getBytes(StandardCharsets.US_ASCII), "standby nothing 60\n".getBytes(StandardCharsets.US_ASCII),
                "takeover all soon\n".getBytes(StandardCharsets.US_ASCII), "st\u00e4tus\n".getBytes(StandardCharsets.UTF_8),
                new byte[] {'s', 0, 1, 27, '\n'}, "a b c d e f g h i j k l m n o p\n".getBytes(StandardCharsets.US_ASCII),
                "cl_status 1 2 3 4 5 6 7 8 9\n".getBytes(StandardCharsets.US_ASCII));
        try (ControlServer s = start(ControlServer.Limits.DEFAULT)) {
            for (int i = 0; i < 100; i++) {
                String answer = raw(bad.get(i % bad.size()));
                assertThat(answer).startsWith("ERR bad request: ").endsWith("\n");
                assertThat(answer.lines().count()).as(answer).isEqualTo(1);
            }
            assertThat(s.stats().malformed()).isEqualTo(100);
            assertThat(raw("status\n".getBytes(StandardCharsets.US_ASCII))).isEqualTo("OK\nstatus answered\n");
            assertThat(raw("status\r\n".getBytes(StandardCharsets.US_ASCII))).isEqualTo("OK\nstatus answered\n");
            assertThat(raw("status".getBytes(StandardCharsets.US_ASCII))).as("EOF ends the line").isEqualTo("OK\nstatus answered\n");
        }
    }

    @Test
    void aHandlerThatThrowsIsAnsweredWithOneErrorLine() throws Exception {
        try (ControlServer s = new ControlServer(dir.resolve("control.sock"), r -> {
            throw new IllegalStateException("boom");
        })) {
            s.start();
            ControlResponse r = ControlClient.request(dir.resolve("control.sock"), new ControlRequest.Status(true));
            assertThat(r.ok()).isFalse();
            assertThat(r.error()).isEqualTo("internal error: java.lang.IllegalStateException: boom");
        }
    }

    @Test
    void aRefusalTravelsAsItsOwnKind() throws Exception {
        try (ControlServer s = new ControlServer(dir.resolve("control.sock"),
                r -> ControlResponse.refused("standby in progress (standby [all])"))) {
            s.start();
            ControlResponse r = ControlClient.request(dir.resolve("control.sock"), ControlRequest.parse("takeover all 5"));
            assertThat(r.refused()).isTrue();
            assertThat(r.error()).isEqualTo("standby in progress (standby [all])");
        }
    }
}
