package org.jheartbeat.director.check;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The checks' verdicts on real servers' answers, unmutated: the seeds of {@link CheckAnswerFuzzTest}
 * captured from BIND 9.18, OpenLDAP 2.5 slapd, vsFTPd 3.0.3, INN 2.7.1 and Kamailio 5.6.3 on loopback
 * ({@code answers/README.md}), replayed by an in-process server.
 */
class RealAnswersTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static byte[] answer(String name) {
        return CheckAnswerFuzzTest.answer(name);
    }

    /** Sends the answer at once, then waits for the check to hang up. */
    private static CheckResult replayed(String service, byte[] answer, java.util.function.UnaryOperator<CheckTarget> how)
            throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(answer);
            out.flush();
            ScriptedServer.hang(in);
        })) {
            return Checks.forService("negotiate", service).check(how.apply(s.target()), TIMEOUT);
        }
    }

    @Test
    void bindAnswersTheChecksQuery() throws Exception {
        assertThat(dns("dns-bind-a.bin").up()).isTrue();
        CheckResult nx = dns("dns-bind-nxdomain.bin");
        assertThat(nx.up()).isFalse();
        assertThat(nx.reason()).isNotBlank();
    }

    /** Reads the length-prefixed query and answers with the capture, its id set to the query's. */
    private static CheckResult dns(String capture) throws Exception {
        byte[] a = answer(capture);
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            DataInputStream d = new DataInputStream(in);
            byte[] q = new byte[d.readUnsignedShort()];
            d.readFully(q);
            byte[] reply = a.clone();
            reply[0] = q[0];
            reply[1] = q[1];
            DataOutputStream o = new DataOutputStream(out);
            o.writeShort(reply.length);
            o.write(reply);
            o.flush();
            ScriptedServer.hang(in);
        })) {
            return Checks.forService("negotiate", "dns").check(s.target().withProtocol("tcp")
                    .withRequest("/host.example.test").withReceive("198.18.0.10"), TIMEOUT);
        }
    }

    @Test
    void slapdAnswersBindAndBaseSearch() throws Exception {
        assertThat(ldap("ldap-slapd-search.bin", t -> t.withRequest("/dc=example,dc=test").withReceive("example"))
                .up()).isTrue();
        CheckResult nosuch = ldap("ldap-slapd-nosuch.bin", t -> t.withRequest("/dc=nosuch,dc=example,dc=test"));
        assertThat(nosuch.up()).isFalse();
        CheckResult bind = ldap("ldap-slapd-badbind.bin",
                t -> t.withLogin("cn=admin,dc=example,dc=test", "wrong").withRequest("/dc=example,dc=test"));
        assertThat(bind.up()).isFalse();
        assertThat(bind.reason()).isNotBlank();
    }

    /** Answers each LDAP request with the next part of the capture, as slapd did ({@link BerStream}). */
    private static CheckResult ldap(String capture, java.util.function.UnaryOperator<CheckTarget> how) throws Exception {
        byte[] a = answer(capture);
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(BerStream.inTurn(client, a));
            out.flush();
            ScriptedServer.hang(in);
        })) {
            return Checks.forService("negotiate", "ldap").check(how.apply(s.target()), TIMEOUT);
        }
    }

    @Test
    void vsftpdRetrMissingFileAndRefusedLogin() throws Exception {
        assertThat(ftp("ftp-vsftpd-retr.bin", t -> t).up()).isTrue();
        CheckResult missing = ftp("ftp-vsftpd-nofile.bin", t -> t.withRequest("/missing.html"));
        assertThat(missing.up()).isFalse();
        assertThat(missing.reason()).contains("550 Failed to open file.");
        CheckResult login = ftp("ftp-vsftpd-badlogin.bin", t -> t.withLogin("web", "pw"));
        assertThat(login.up()).isFalse();
        assertThat(login.reason()).contains("530 This FTP server is anonymous only.");
    }

    /**
     * The control stream with its 227 reply naming this server's port; the second connection (the
     * data connection) gets the file vsFTPd sent, "Test Page ready".
     */
    private static CheckResult ftp(String capture, java.util.function.UnaryOperator<CheckTarget> how) throws Exception {
        AtomicInteger connections = new AtomicInteger();
        String control = new String(answer(capture), ISO_8859_1);
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            if (connections.getAndIncrement() > 0) {
                ScriptedServer.write(out, "Test Page ready\n");
                return;
            }
            int p = client.getLocalPort();
            ScriptedServer.write(out, control.replaceAll("\\(127,0,0,1,\\d+,\\d+\\)",
                    "(127,0,0,1," + (p >> 8) + "," + (p & 0xff) + ")"));
            ScriptedServer.hang(in);
        })) {
            return Checks.forService("negotiate", "ftp").check(how.apply(s.target().withRequest("/index.html")
                    .withReceive("Test Page")), TIMEOUT);
        }
    }

    @Test
    void innAndNnrpdGreetings() throws Exception {
        assertThat(replayed("nntp", answer("nntp-inn-ok.bin"), t -> t).up()).isTrue();
        assertThat(replayed("nntp", answer("nntp-nnrpd-reader.bin"), t -> t).up()).isTrue();
    }

    @Test
    void kamailioAnswersOptions() throws Exception {
        assertThat(replayed("sip", answer("sip-kamailio-ok.bin"), t -> t.withProtocol("tcp")).up()).isTrue();
    }
}
