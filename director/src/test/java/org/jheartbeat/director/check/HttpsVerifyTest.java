package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An https check against a real TLS server on loopback (the JDK's HttpsServer with a certificate made by the JDK's
 * keytool for www.example.test and 127.0.0.1): trusting any certificate by default, as ldirectord; with
 * {@code checkcafile}, only a chain to that file's CA and, with {@code virtualhost}, only a certificate naming it.
 */
class HttpsVerifyTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    @TempDir
    static Path dir;
    static HttpsServer server;
    static Path serverCa;
    static Path otherCa;

    @BeforeAll
    static void start() throws Exception {
        serverCa = certificate("srv", "www.example.test");
        otherCa = certificate("other", "other.example.test");
        SSLContext tls = LoopbackTls.serverContext(dir, "srv");
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", x -> {
            byte[] body = "healthy".getBytes(StandardCharsets.US_ASCII);
            x.sendResponseHeaders(200, body.length);
            x.getResponseBody().write(body);
            x.close();
        });
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    private static Path certificate(String alias, String name) throws Exception {
        return LoopbackTls.certificate(dir, alias, name);
    }

    private static CheckTarget target() {
        return CheckTarget.of(server.getAddress()).withRequest("/").withReceive("healthy");
    }

    private static CheckResult check(Optional<Path> ca, CheckTarget t) throws InterruptedException {
        return Checks.forService("negotiate", "https", ca).check(t, TIMEOUT);
    }

    @Test
    void withoutACaFileAnyCertificateIsAcceptedAsLdirectordDoes() throws Exception {
        CheckResult r = check(Optional.empty(), target());
        assertThat(r.up()).as(r.reason()).isTrue();
    }

    @Test
    void withACaFileOnlyAChainToItIsUpAndTheVirtualHostNameMustMatch() throws Exception {
        CheckResult trusted = check(Optional.of(serverCa), target().withVirtualHost("www.example.test"));
        assertThat(trusted.up()).as(trusted.reason()).isTrue();
        CheckResult byAddress = check(Optional.of(serverCa), target());
        assertThat(byAddress.up()).as("no virtualhost: the chain only; " + byAddress.reason()).isTrue();

        CheckResult stranger = check(Optional.of(otherCa), target());
        assertThat(stranger.up()).isFalse();
        assertThat(stranger.reason()).containsIgnoringCase("certification path");
        CheckResult wrongName = check(Optional.of(serverCa), target().withVirtualHost("mail.example.test"));
        assertThat(wrongName.up()).isFalse();
        assertThat(wrongName.reason()).contains("mail.example.test");
    }
}
