package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class HttpCheckTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration SHORT = Duration.ofMillis(250);


    private static ScriptedServer http(String answer) throws Exception {
        ScriptedServer[] self = new ScriptedServer[1];
        self[0] = new ScriptedServer((client, in, out) -> {
            String line;
            while ((line = ScriptedServer.readLine(in)) != null && !line.isEmpty()) {
                self[0].seen.add(line);
            }
            ScriptedServer.write(out, answer);
        });
        return self[0];
    }

    private static HealthCheck check(String service) {
        return Checks.forService("negotiate", service);
    }

    @Test
    void a200WithTheReceiveTextIsUpAndHostIsTheServerAddressByDefault() throws Exception {
        try (ScriptedServer s = http("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world")) {
            CheckResult r = check("http").check(s.target().withRequest("/index.html").withReceive("wor.d"), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
            assertThat(s.seen).contains("GET /index.html HTTP/1.1", "Host: 127.0.0.1");
        }
    }

    @Test
    void virtualHostAndHeadAreSentAndARequestWithoutSlashGetsOne() throws Exception {
        try (ScriptedServer s = http("HTTP/1.0 200 OK\r\n\r\n")) {
            CheckResult r = check("http").check(s.target().withRequest("health").withVirtualHost("www.example.test")
                    .withHttpMethod("HEAD"), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
            assertThat(s.seen).contains("HEAD /health HTTP/1.1", "Host: www.example.test");
        }
    }

    @Test
    void aNon2xxStatusIsDownWithTheStatusLine() throws Exception {
        try (ScriptedServer s = http("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")) {
            CheckResult r = check("http").check(s.target(), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("503 Service Unavailable");
        }
    }

    @Test
    void aBodyWithoutTheReceiveMatchIsDownWithTheReason() throws Exception {
        try (ScriptedServer s = http("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nmaintenance page")) {
            CheckResult r = check("http").check(s.target().withReceive("^all good"), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("receive \"^all good\" not found");
        }
    }

    @Test
    void aChunkedBodyIsDecodedBeforeMatching() throws Exception {
        try (ScriptedServer s = http("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4\r\nall \r\n5\r\ngood!\r\n0\r\n\r\n")) {
            CheckResult r = check("http").check(s.target().withReceive("all good!"), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
        }
    }

    @Test
    void aRelativeRedirectIsFollowedOnTheSameServerAndAnotherHostIsNot() throws Exception {
        ScriptedServer[] self = new ScriptedServer[1];
        self[0] = new ScriptedServer((client, in, out) -> {
            String first = ScriptedServer.readLine(in);
            while (!ScriptedServer.readLine(in).isEmpty()) {
                // skip headers
            }
            self[0].seen.add(first);
            if (first.startsWith("GET /old")) {
                ScriptedServer.write(out, "HTTP/1.1 301 Moved\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n");
            } else if (first.startsWith("GET /away")) {
                ScriptedServer.write(out, "HTTP/1.1 302 Found\r\nLocation: http://elsewhere.example.test/\r\n\r\n");
            } else {
                ScriptedServer.write(out, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            }
        });
        try (ScriptedServer s = self[0]) {
            CheckResult followed = check("http").check(s.target().withRequest("/old").withReceive("ok"), TIMEOUT);
            assertThat(followed.up()).as(followed.reason()).isTrue();
            assertThat(s.seen).contains("GET /old HTTP/1.1", "GET /new HTTP/1.1");
            CheckResult away = check("http").check(s.target().withRequest("/away"), TIMEOUT);
            assertThat(away.up()).isFalse();
            assertThat(away.reason()).contains("redirected to another host");
        }
    }

    @Test
    void aServerThatAcceptsAndNeverAnswersIsCutAtTheTimeout() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> ScriptedServer.hang(in))) {
            CheckResult r = check("http").check(s.target(), SHORT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("no answer within the check timeout of 250 ms");
            assertThat(r.elapsedMillis()).isLessThan(5_000); // generous: only catches a hang
        }
    }

    @Test
    void aServerThatTricklesBytesCannotStretchTheCheck() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            ScriptedServer.write(out, "HTTP/1.1 200 OK\r\n");
            while (true) {
                ScriptedServer.write(out, "X");
                Thread.sleep(50);
            }
        })) {
            CheckResult r = check("http").check(s.target(), SHORT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("no answer within");
            assertThat(r.elapsedMillis()).isLessThan(5_000);
        }
    }

    @Test
    void anHttpsServerThatNeverHandshakesIsCutAtTheTimeout() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> ScriptedServer.hang(in))) {
            CheckResult r = check("https").check(s.target(), SHORT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("no answer within");
            assertThat(r.elapsedMillis()).isLessThan(5_000);
        }
    }

    @Test
    void anHttpsServerThatTricklesItsHandshakeIsCutAtTheTimeout() throws Exception {
        // a TLS handshake record announcing 16 KiB, then one byte every 20 ms: each read succeeds
        // well within the socket timeout, only the whole-check deadline can end it
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(new byte[] {0x16, 0x03, 0x03, 0x40, 0x00});
            out.flush();
            while (true) {
                out.write(0x02);
                out.flush();
                Thread.sleep(20);
            }
        })) {
            CheckResult r = check("https").check(s.target(), SHORT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("no answer within the check timeout of 250 ms");
            assertThat(r.elapsedMillis()).isLessThan(5_000);
        }
    }

    @Test
    void garbageInsteadOfHttpIsDownWithTheReason() throws Exception {
        try (ScriptedServer s = http("SSH-2.0-OpenSSH_9.2\r\n")) {
            CheckResult r = check("http").check(s.target(), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("not an HTTP answer");
        }
    }

    @Test
    void httpProxySendsTheAbsoluteUrlToTheRealServer() throws Exception {
        try (ScriptedServer s = http("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes")) {
            CheckResult r = check("http_proxy").check(s.target().withRequest("http://www.example.test/probe")
                    .withReceive("yes"), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
            assertThat(s.seen).contains("GET http://www.example.test/probe HTTP/1.1", "Host: www.example.test");
        }
    }

    @Test
    void aClosedPortIsDownWithTheReason() throws Exception {
        try (ClosedPort gone = new ClosedPort()) {
            CheckResult r = check("http").check(CheckTarget.of(gone.address()), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).containsIgnoringCase("refused");
        }
    }
}
