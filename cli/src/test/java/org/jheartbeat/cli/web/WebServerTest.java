package org.jheartbeat.cli.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console over real HTTP on loopback: login and its cookie, the roles from (test) Unix group files, the CSRF
 * token on actions, a forged or read-only action refused with 403 and logged, the login rate limit, the live stream.
 * The daemon is a stub that records what it was asked.
 */
class WebServerTest {
    @TempDir
    Path dir;
    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private WebServer server;
    private HttpClient http;
    private String base;

    @BeforeEach
    void start() throws Exception {
        Path users = dir.resolve("web-users");
        WebUsers.put(users, "alice", "alice-secret".toCharArray(), new SecureRandom());
        WebUsers.put(users, "bob", "bob-secret1".toCharArray(), new SecureRandom());
        WebUsers.put(users, "carol", "carol-secret".toCharArray(), new SecureRandom());
        assertThat(Files.getPosixFilePermissions(users)).containsExactlyInAnyOrder(
                java.nio.file.attribute.PosixFilePermission.OWNER_READ, java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        Files.writeString(dir.resolve("passwd"), "alice:x:1001:1001::/home/alice:/bin/sh\n"
                + "bob:x:1002:1002::/home/bob:/bin/sh\ncarol:x:1003:1003::/home/carol:/bin/sh\n");
        Files.writeString(dir.resolve("group"), "alice:x:1001:\nbob:x:1002:\ncarol:x:1003:\nhaadmin:x:2000:alice\n"
                + "haclient:x:2001:bob,alice\n");
        Console console = new Console(new Console.Settings(users, Optional.of("haadmin"), dir.resolve("passwd"),
                dir.resolve("group"), ZoneOffset.UTC), new Sessions(Clock.systemUTC(), new SecureRandom()),
                PagesTest::snapshot, r -> {
                    asked.add(r.toWire());
                    return ControlResponse.ok("node1 runs IPaddr::198.18.0.100 now\n");
                }, log::add, () -> { });
        server = WebServer.start(new InetSocketAddress("127.0.0.1", 0), Optional.empty(), console);
        base = "http://127.0.0.1:" + server.port();
        http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String cookie, String form) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Logs in; returns the Cookie header value. */
    private String login(String user, String password) throws Exception {
        HttpResponse<String> r = post("/login", null, "user=" + user + "&password=" + password);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(303);
        String setCookie = r.headers().firstValue("set-cookie").orElseThrow();
        assertThat(setCookie).startsWith(Console.COOKIE + "=").containsIgnoringCase("HttpOnly").contains("SameSite=Strict")
                .doesNotContain("Secure"); // plain http on loopback: a Secure cookie would never come back
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    private static String csrf(String html) {
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(html);
        assertThat(m.find()).as(html).isTrue();
        return m.group(1);
    }

    @Test
    void anAdminActsWithTheTokenAndAForgedActionIsRefused() throws Exception {
        HttpResponse<String> anon = get("/", null);
        assertThat(anon.statusCode()).isEqualTo(303);
        assertThat(anon.headers().firstValue("location")).hasValue("/login");
        assertThat(get("/static/console.js", null).body()).contains("EventSource");

        String alice = login("alice", "alice-secret");
        HttpResponse<String> page = get("/", alice);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("id=\"act-standby\"").contains("alice (admin)");
        assertThat(page.headers().firstValue("content-security-policy")).isPresent();
        String token = csrf(page.body());

        HttpResponse<String> confirm = get("/confirm?action=standby", alice);
        assertThat(confirm.body()).contains("IPaddr::198.18.0.100 labweb moves from node2 to node1")
                .contains("<code>standby all 120</code>");

        assertThat(post("/action", alice, "action=standby").statusCode()).isEqualTo(403);
        assertThat(post("/action", alice, "action=standby&csrf=" + token + "x").statusCode()).isEqualTo(403);
        assertThat(post("/action", null, "action=standby&csrf=" + token).statusCode()).isEqualTo(403);
        assertThat(asked).isEmpty();
        assertThat(log).anyMatch(l -> l.contains("refused /action standby") && l.contains("no CSRF token (user alice)"));

        HttpResponse<String> done = post("/action", alice, "action=standby&csrf=" + token);
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(done.body()).contains("node1 runs IPaddr::198.18.0.100 now");
        assertThat(asked).containsExactly("as web:alice standby all 120");
        assertThat(log).anyMatch(l -> l.startsWith("web alice asked standby (standby all 120) from 127.0.0.1"));

        HttpResponse<String> out = post("/logout", alice, "csrf=" + token);
        assertThat(out.statusCode()).isEqualTo(303);
        assertThat(get("/", alice).statusCode()).isEqualTo(303);
    }

    @Test
    void aReaderSeesNoActionAndCannotActEvenWithItsToken() throws Exception {
        String bob = login("bob", "bob-secret1");
        HttpResponse<String> page = get("/", bob);
        assertThat(page.body()).contains("bob (read-only)").contains("id=\"read-only\"").doesNotContain("act-");
        String token = csrf(page.body());
        assertThat(get("/confirm?action=takeover", bob).statusCode()).isEqualTo(403);
        assertThat(post("/action", bob, "action=takeover&csrf=" + token).statusCode()).isEqualTo(403);
        assertThat(asked).isEmpty();
        assertThat(log).anyMatch(l -> l.contains("refused takeover for read-only user bob"));
    }

    @Test
    void aTimelineWindowNotUnderstoodIsSaidOnThePage() throws Exception {
        String bob = login("bob", "bob-secret1");
        HttpResponse<String> r = get("/timeline?window=99999d", bob);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("id=\"window-notice\"").contains("The window [99999d] was not understood")
                .contains("Showing the last hour.");
        assertThat(get("/timeline?window=1h", bob).body()).doesNotContain("window-notice");
    }

    @Test
    void strangersAndGuessersAreKeptOut() throws Exception {
        // carol has no group: her right password is answered as a wrong one (the page confirms nothing), the log says why
        HttpResponse<String> carol = post("/login", null, "user=carol&password=carol-secret");
        HttpResponse<String> guess = post("/login", null, "user=carol&password=carol-guess");
        assertThat(carol.statusCode()).isEqualTo(401).isEqualTo(guess.statusCode());
        assertThat(carol.body()).isEqualTo(guess.body()).contains("Wrong user or password.").doesNotContain("neither");
        assertThat(log).anyMatch(l -> l.contains("failed login (right password, but not root, in the admin group or in"
                + " haclient) of carol"));
        for (int i = 0; i < Sessions.MAX_FAILURES - 2; i++) { // carol's two failures count too
            assertThat(post("/login", null, "user=alice&password=guess" + i).statusCode()).isEqualTo(401);
        }
        HttpResponse<String> limited = post("/login", null, "user=alice&password=alice-secret");
        assertThat(limited.statusCode()).isEqualTo(429);
        assertThat(limited.headers().firstValue("set-cookie")).isEmpty();
        assertThat(log).anyMatch(l -> l.contains("refused: too many failures"));
    }

    @Test
    void anOpenPageIsToldWhenSomethingChanged() throws Exception {
        String alice = login("alice", "alice-secret");
        assertThat(get("/stream", null).statusCode()).isEqualTo(403);
        HttpResponse<java.io.InputStream> r = http.send(HttpRequest.newBuilder(URI.create(base + "/stream"))
                .header("Cookie", alice).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                try {
                    StringBuilder all = new StringBuilder();
                    for (String l = in.readLine(); l != null; l = in.readLine()) {
                        all.append(l).append('\n');
                        if (l.startsWith("retry:")) {
                            server.changed("f00d");
                        }
                        if (l.equals("data: f00d")) {
                            return all.toString();
                        }
                    }
                    return all.toString();
                } catch (java.io.IOException e) {
                    return e.toString();
                }
            });
            assertThat(seen.get(20, TimeUnit.SECONDS)).contains("event: refresh\ndata: f00d");
        }
    }
}
