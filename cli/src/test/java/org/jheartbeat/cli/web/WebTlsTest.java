package org.jheartbeat.cli.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.jheartbeat.cli.metrics.MetricsTls;
import org.jheartbeat.core.control.ControlResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console over TLS with the self-signed pair the .deb's postinst makes (its openssl line, run here): the pair
 * loads, the login answers over https and its cookie is Secure.
 */
class WebTlsTest {
    @Test
    void thePostinstsSelfSignedPairServesHttpsAndTheCookieIsSecure(@TempDir Path dir) throws Exception {
        Path postinst = Path.of(System.getProperty("project.root", "..")).resolve("packaging/src/deb/control/postinst");
        assumeTrue(Files.exists(postinst), "the packaging sources");
        assumeTrue(new ProcessBuilder("sh", "-c", "command -v openssl").start().waitFor() == 0, "openssl");
        // the postinst's web_certificate function, pointed at this directory
        String fn = Files.readString(postinst).replaceAll("(?s).*?(web_certificate\\(\\) \\{.*?\\n\\}\\n).*", "$1")
                .replace("/var/lib/jheartbeat", dir.toString());
        Process p = new ProcessBuilder("sh", "-c", fn + "\nweb_certificate").redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(new String(p.getInputStream().readAllBytes())).contains("web console certificate");
        var tls = MetricsTls.load(dir.resolve("web.crt"), dir.resolve("web.key"));

        Path users = dir.resolve("users");
        WebUsers.put(users, "root", "root-secret".toCharArray(), new SecureRandom());
        Console console = new Console(new Console.Settings(users, Optional.empty(), dir.resolve("passwd"),
                dir.resolve("group"), ZoneOffset.UTC), new Sessions(Clock.systemUTC(), new SecureRandom()),
                PagesTest::snapshot, r -> ControlResponse.ok(""), l -> { }, () -> { });
        try (WebServer s = WebServer.start(new InetSocketAddress("127.0.0.1", 0), Optional.of(tls), console)) {
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] c, String a) { }

                @Override
                public void checkServerTrusted(X509Certificate[] c, String a) { }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            HttpClient http = HttpClient.newBuilder().sslContext(trustAll).connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + s.port() + "/login"))
                    .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("user=root&password=root-secret")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(303);
            assertThat(r.headers().allValues("set-cookie")).singleElement().asString().contains("Secure")
                    .containsIgnoringCase("HttpOnly").contains("SameSite=Strict");
            assertThat(List.of(r.uri().getScheme())).containsExactly("https");
        }
    }
}
