package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** smtp, pop, imap, nntp, ftp and simpletcp against scripted servers on loopback. */
class TextProtocolChecksTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration SHORT = Duration.ofMillis(250);

    private static CheckResult negotiate(String service, CheckTarget target, Duration timeout) throws Exception {
        return Checks.forService("negotiate", service).check(target, timeout);
    }

    /** A line-based server: greeting, then for each line the answer of {@code reply}. */
    private static ScriptedServer lines(String greeting, java.util.function.Function<String, String> reply)
            throws Exception {
        ScriptedServer[] self = new ScriptedServer[1];
        self[0] = new ScriptedServer((client, in, out) -> {
            ScriptedServer.write(out, greeting);
            String line;
            while ((line = ScriptedServer.readLine(in)) != null) {
                self[0].seen.add(line);
                String answer = reply.apply(line);
                if (answer == null) {
                    return;
                }
                ScriptedServer.write(out, answer);
            }
        });
        return self[0];
    }

    @Test
    void smtpNeedsA220GreetingAndAnAcceptedEhloOrHelo() throws Exception {
        try (ScriptedServer s = lines("220-mx.example.test ESMTP\r\n220 ready\r\n",
                l -> l.startsWith("EHLO") ? "250-mx\r\n250 PIPELINING\r\n" : l.startsWith("QUIT") ? "221 bye\r\n" : "500\r\n")) {
            CheckResult r = negotiate("smtp", s.target(), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
            assertThat(s.seen).contains("EHLO localhost.localdomain"); // (QUIT may arrive after the check returned)
        }
        try (ScriptedServer s = lines("220 old\r\n",
                l -> l.startsWith("EHLO") ? "502 no\r\n" : l.startsWith("HELO") ? "250 ok\r\n" : "221 bye\r\n")) {
            CheckResult r = negotiate("submission", s.target(), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
            assertThat(s.seen).contains("HELO localhost.localdomain");
        }
        try (ScriptedServer s = lines("554 no service for you\r\n", l -> "221 bye\r\n")) {
            CheckResult r = negotiate("smtp", s.target(), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("SMTP greeting is not 220", "554 no service");
        }
    }

    @Test
    void aMailServerThatAcceptsAndNeverGreetsIsCutAtTheTimeout() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> ScriptedServer.hang(in))) {
            for (String service : new String[] {"smtp", "pop", "imap", "nntp", "ftp", "pops", "imaps"}) {
                CheckResult r = negotiate(service, s.target(), SHORT);
                assertThat(r.up()).as(service).isFalse();
                assertThat(r.reason()).as(service).contains("no answer within the check timeout of 250 ms");
                assertThat(r.elapsedMillis()).as(service).isLessThan(5_000);
            }
        }
    }

    @Test
    void popChecksTheGreetingAndTheLoginWhenOneIsGiven() throws Exception {
        try (ScriptedServer s = lines("+OK POP3 ready\r\n", l -> l.equals("PASS right") ? "+OK in\r\n"
                : l.startsWith("PASS") ? "-ERR [AUTH] bad password\r\n" : "+OK\r\n")) {
            assertThat(negotiate("pop", s.target(), TIMEOUT).up()).isTrue();
            CheckResult good = negotiate("pop", s.target().withLogin("alice", "right"), TIMEOUT);
            assertThat(good.up()).as(good.reason()).isTrue();
            assertThat(s.seen).contains("USER alice", "PASS right");
            CheckResult bad = negotiate("pop", s.target().withLogin("alice", "wrong"), TIMEOUT);
            assertThat(bad.up()).isFalse();
            assertThat(bad.reason()).contains("login of alice refused", "bad password");
        }
    }

    @Test
    void imapChecksTheGreetingAndTheTaggedLoginAnswer() throws Exception {
        try (ScriptedServer s = lines("* OK [CAPABILITY IMAP4rev1] ready\r\n", l -> {
            if (l.startsWith("a1 LOGIN \"bob\" \"pa\\\"ss\"")) {
                return "* CAPABILITY IMAP4rev1\r\na1 OK Logged in\r\n";
            }
            if (l.startsWith("a1 LOGIN")) {
                return "a1 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n";
            }
            return "* BYE\r\na2 OK Logout\r\n";
        })) {
            CheckResult good = negotiate("imap", s.target().withLogin("bob", "pa\"ss"), TIMEOUT);
            assertThat(good.up()).as(good.reason()).isTrue();
            CheckResult bad = negotiate("imap", s.target().withLogin("bob", "nope"), TIMEOUT);
            assertThat(bad.up()).isFalse();
            assertThat(bad.reason()).contains("AUTHENTICATIONFAILED");
        }
        try (ScriptedServer s = lines("* BYE too many connections\r\n", l -> null)) {
            CheckResult r = negotiate("imap", s.target(), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("too many connections");
        }
    }

    @Test
    void nntpWantsAGreetingStartingWith2() throws Exception {
        try (ScriptedServer s = lines("200 news ready\r\n", l -> null)) {
            assertThat(negotiate("nntp", s.target(), TIMEOUT).up()).isTrue();
        }
        try (ScriptedServer s = lines("502 no permission\r\n", l -> null)) {
            CheckResult r = negotiate("nntp", s.target(), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("502 no permission");
        }
    }

    @Test
    void simpletcpSendsTheRequestAndWantsALineMatchingReceive() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            String first = ScriptedServer.readLine(in);
            String second = ScriptedServer.readLine(in);
            ScriptedServer.write(out, "hello\r\nstatus: " + ("PING".equals(first) && "NOW".equals(second) ? "alive" : "confused") + "\r\n");
        })) {
            CheckResult up = negotiate("simpletcp", s.target().withRequest("/PING\\nNOW\\n").withReceive("status: al"), TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            CheckResult down = negotiate("simpletcp", s.target().withRequest("other\\n").withReceive("status: al"), TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("no line of the answer matches");
        }
    }

    @Test
    void ftpLogsInAndRetrievesTheRequestThroughPassiveMode() throws Exception {
        try (ServerSocket data = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
                ScriptedServer s = lines("220 ftp ready\r\n", l -> {
                    if (l.startsWith("USER")) {
                        return "331 password please\r\n";
                    }
                    if (l.startsWith("PASS")) {
                        return l.equals("PASS secret") || l.startsWith("PASS ldirectord@") ? "230 in\r\n" : "530 Login incorrect.\r\n";
                    }
                    if (l.startsWith("PASV")) {
                        int p = data.getLocalPort();
                        return "227 Entering Passive Mode (127,0,0,1," + (p / 256) + "," + (p % 256) + ")\r\n";
                    }
                    if (l.startsWith("RETR")) {
                        Thread t = new Thread(() -> {
                            try (Socket d = data.accept(); OutputStream o = d.getOutputStream()) {
                                o.write("version=42\n".getBytes());
                            } catch (Exception e) {
                                // test server
                            }
                        });
                        t.start();
                        return "150 Opening BINARY mode data connection\r\n";
                    }
                    return l.startsWith("QUIT") ? null : "200 ok\r\n";
                })) {
            CheckResult anonymous = negotiate("ftp", s.target(), TIMEOUT);
            assertThat(anonymous.up()).as(anonymous.reason()).isTrue();
            assertThat(s.seen).contains("USER anonymous");
            CheckResult file = negotiate("ftp", s.target().withLogin("web", "secret").withRequest("/status.txt")
                    .withReceive("version=4\\d"), TIMEOUT);
            assertThat(file.up()).as(file.reason()).isTrue();
            assertThat(s.seen).contains("RETR /status.txt", "TYPE I");
            CheckResult refused = negotiate("ftp", s.target().withLogin("web", "wrong"), TIMEOUT);
            assertThat(refused.up()).isFalse();
            assertThat(refused.reason()).contains("FTP login of web refused", "530");
        }
    }

    @Test
    void anAbruptCloseIsDownNotAnException() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> client.close())) {
            for (String service : new String[] {"smtp", "pop", "imap", "ftp", "simpletcp", "http", "mysql", "pgsql"}) {
                CheckResult r = negotiate(service, s.target().withReceive("x"), TIMEOUT);
                assertThat(r.up()).as(service).isFalse();
                assertThat(r.reason()).as(service).isNotBlank();
            }
        }
    }

}
