package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The endpoint over TLS with an openssl-made key and certificate, scraped by a real curl: the right CA gets the
 * scrape (with the token), plain HTTP and a client trusting another CA get nothing, and handshakes that stall are
 * evicted like idle connections. A bad key file is one line, {@code FILE:LINE: what; the openssl command}.
 */
class MetricsTlsTest {
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";
    @TempDir
    Path dir;

    private final MetricsEndpoint.Sources sources = MetricsEndpointTest.sources(
            () -> CompletableFuture.completedFuture(ClusterMetricsTest.observation("active", "up")));

    /** Runs a command; its exit code and output (stdout and stderr). */
    private record Run(int exit, String out) {
    }

    private static Run run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", argv)).isTrue();
        return new Run(p.exitValue(), out);
    }

    private static void ok(String... argv) throws Exception {
        Run r = run(argv);
        assertThat(r.exit()).as(String.join(" ", argv) + ": " + r.out()).isZero();
    }

    /** An EC key as openssl genpkey writes it (PKCS#8), mode 600, and a self-signed certificate for 127.0.0.1. */
    private Path[] keyAndCertificate(String name) throws Exception {
        Path key = dir.resolve(name + ".key");
        Path cert = dir.resolve(name + ".crt");
        ok("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key.toString());
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        ok("openssl", "req", "-x509", "-new", "-key", key.toString(), "-subj", "/CN=" + name, "-addext",
                "subjectAltName=IP:127.0.0.1,DNS:localhost", "-days", "2", "-out", cert.toString());
        return new Path[] {key, cert};
    }

    private static Run curl(String url, String... options) throws Exception {
        List<String> argv = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30"));
        argv.addAll(List.of(options));
        argv.add(url);
        return run(argv.toArray(new String[0]));
    }

    @Test
    void aTlsClientWithTheRightCaGetsTheScrapeAndPlainHttpOrAnotherCaGetsNothing() throws Exception {
        Path[] mine = keyAndCertificate("metrics");
        Path[] other = keyAndCertificate("other");
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources,
                Clock.systemUTC(), Optional.of(TOKEN), Optional.of(MetricsTls.load(mine[1], mine[0])))) {
            String https = "https://127.0.0.1:" + m.port() + "/metrics";
            Run scrape = curl(https, "--cacert", mine[1].toString(), "-H", "Authorization: Bearer " + TOKEN);
            assertThat(scrape.exit()).as(scrape.out()).isZero();
            assertThat(scrape.out()).contains("jheartbeat_up 1.0\n");

            Run noToken = curl(https, "--cacert", mine[1].toString(), "-w", "%{http_code}");
            assertThat(noToken.out()).endsWith("401").doesNotContain("jheartbeat_up");
            Run plain = curl("http://127.0.0.1:" + m.port() + "/metrics", "-H", "Authorization: Bearer " + TOKEN);
            assertThat(plain.exit()).as(plain.out()).isNotZero();
            assertThat(plain.out()).doesNotContain("jheartbeat_");
            Run stranger = curl(https, "--cacert", other[1].toString(), "-H", "Authorization: Bearer " + TOKEN);
            assertThat(stranger.exit()).as(stranger.out()).isEqualTo(60); // curl: peer certificate not trusted
            assertThat(stranger.out()).doesNotContain("jheartbeat_");
        }
    }

    @Test
    void handshakesThatStallAreEvictedLikeIdleConnectionsAndNeverKeepAScrapeOut() throws Exception {
        Path[] mine = keyAndCertificate("metrics");
        List<SocketChannel> stalled = new ArrayList<>();
        try (MetricsEndpoint m = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), sources,
                Clock.systemUTC(), Optional.empty(), Optional.of(MetricsTls.load(mine[1], mine[0])))) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", m.port());
            int clients = 4 * MetricsGate.MAX_CONNECTIONS;
            for (int i = 0; i < clients; i++) {
                SocketChannel c = SocketChannel.open(at);
                // a TLS record header announcing a 512-byte ClientHello that never comes
                c.write(ByteBuffer.wrap(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01}));
                stalled.add(c);
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (m.refusedConnections() < clients - MetricsGate.MAX_CONNECTIONS && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(m.refusedConnections()).isGreaterThanOrEqualTo(clients - MetricsGate.MAX_CONNECTIONS);
            assertThat(m.openConnections()).isLessThanOrEqualTo(MetricsGate.MAX_CONNECTIONS);
            Run scrape = curl("https://127.0.0.1:" + m.port() + "/metrics", "--cacert", mine[1].toString());
            assertThat(scrape.exit()).as(scrape.out()).isZero();
            assertThat(scrape.out()).contains("jheartbeat_up 1.0\n");
        } finally {
            for (SocketChannel c : stalled) {
                c.close();
            }
        }
    }

    /** The message of loading {@code key} with {@code cert}, checked to be one line without a stack trace. */
    private static String refusal(Path cert, Path key) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> MetricsTls.load(cert, key));
        assertThat(t).isInstanceOf(MetricsTls.Refused.class);
        assertThat(t.getStackTrace()).isEmpty();
        assertThat(t.getMessage()).doesNotContain("\n", "Exception");
        return t.getMessage();
    }

    @Test
    void aPkcs1OrEncryptedKeyIsOneLineWithFileLineAndTheOpensslCommandThatConvertsIt() throws Exception {
        Path cert = keyAndCertificate("metrics")[1];
        Path pkcs1 = dir.resolve("rsa.key");
        ok("openssl", "genrsa", "-traditional", "-out", pkcs1.toString(), "2048");
        Files.setPosixFilePermissions(pkcs1, PosixFilePermissions.fromString("rw-------"));
        assertThat(refusal(cert, pkcs1)).isEqualTo(pkcs1 + ":1: the key is in the older PKCS#1 format (-----BEGIN"
                + " RSA PRIVATE KEY-----), not PKCS#8; convert it with: openssl pkcs8 -topk8 -nocrypt -in " + pkcs1
                + " -out " + pkcs1 + ".pk8, then chmod 600 and use that file");
        // the command it gives works (the converted key is another key than the certificate's, hence that message)
        ok("openssl", "pkcs8", "-topk8", "-nocrypt", "-in", pkcs1.toString(), "-out", pkcs1 + ".pk8");
        Path converted = Path.of(pkcs1 + ".pk8");
        Files.setPosixFilePermissions(converted, PosixFilePermissions.fromString("rw-------"));
        assertThat(refusal(cert, converted)).startsWith(converted + ": is not the key of the certificate in " + cert);

        Path encrypted = dir.resolve("encrypted.key");
        ok("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-aes-128-cbc", "-pass",
                "pass:secret", "-out", encrypted.toString());
        Files.setPosixFilePermissions(encrypted, PosixFilePermissions.fromString("rw-------"));
        assertThat(refusal(cert, encrypted)).startsWith(encrypted + ":1: the key is encrypted with a passphrase")
                .contains("openssl pkcs8 -topk8 -nocrypt -in " + encrypted);
        Path notKey = Files.copy(cert, dir.resolve("cert-as.key"));
        Files.setPosixFilePermissions(notKey, PosixFilePermissions.fromString("rw-------"));
        assertThat(refusal(cert, notKey)).startsWith(notKey + ":1: the first PEM block is CERTIFICATE, not PRIVATE"
                + " KEY");
    }

    @Test
    void theKeyMustBePrivateToTheDaemonsUserAndTheCertificateFileMustHoldOne() throws Exception {
        Path[] mine = keyAndCertificate("metrics");
        Files.setPosixFilePermissions(mine[0], PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(refusal(mine[1], mine[0])).isEqualTo(mine[0] + ": is mode rw-r--r--, open to others than its"
                + " owner, who could read the key; run chmod 600 " + mine[0]);
        Files.setPosixFilePermissions(mine[0], PosixFilePermissions.fromString("rw-------"));
        int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (self == 0) { // root can give the file away: another owner may not hold the daemon's key
            Files.setAttribute(mine[0], "unix:uid", 65534);
            assertThat(refusal(mine[1], mine[0])).startsWith(mine[0] + ": is owned by uid 65534, not by the"
                    + " daemon's user (uid 0)").endsWith("run chown root " + mine[0]);
            Files.setAttribute(mine[0], "unix:uid", 0);
        }
        assertThat(refusal(mine[0], mine[0])).startsWith(mine[0] + ": holds no PEM certificate");
        assertThat(refusal(dir.resolve("none.crt"), mine[0])).startsWith(dir.resolve("none.crt") + ": does not"
                + " exist");
        assertThat(refusal(mine[1], dir.resolve("none.key"))).startsWith(dir.resolve("none.key") + ": does not"
                + " exist; write a key with: openssl genpkey");
    }
}
