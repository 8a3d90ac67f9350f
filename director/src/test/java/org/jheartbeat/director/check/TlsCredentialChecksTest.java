package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks that send credentials over TLS (imaps, pops, ldaps) with {@code checkcafile}, against scripted
 * servers behind real TLS on loopback (keytool-made certificates for www.example.test and 127.0.0.1): a server whose
 * certificate is from another CA, or names another host than {@code virtualhost}, is down with a reason naming the
 * CA file and the server never receives the LOGIN, USER/PASS or bind; the right CA is up. Without a CA file any
 * certificate is accepted, as ldirectord does.
 */
class TlsCredentialChecksTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NAME = "www.example.test";
    @TempDir
    static Path dir;
    static Path serverCa;
    static Path otherCa;

    @BeforeAll
    static void certificates() throws Exception {
        serverCa = LoopbackTls.certificate(dir, "srv", NAME);
        otherCa = LoopbackTls.certificate(dir, "other", "other.example.test");
    }

    private static CheckResult check(String service, Optional<Path> ca, CheckTarget target) throws Exception {
        return Checks.forService("negotiate", service, ca).check(target, TIMEOUT);
    }

    /** A line server behind TLS: greeting, then for each line the answer of {@code reply}; lines go to seen. */
    private static ScriptedServer lines(String greeting, Function<String, String> reply) throws Exception {
        ScriptedServer[] self = new ScriptedServer[1];
        self[0] = new ScriptedServer(LoopbackTls.serverSocket(dir, "srv"), (client, in, out) -> {
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

    private static ScriptedServer imap() throws Exception {
        return lines("* OK IMAP4rev1 ready\r\n", l -> l.startsWith("a1 LOGIN") ? "a1 OK logged in\r\n"
                : l.startsWith("a2 LOGOUT") ? null : "a9 BAD\r\n");
    }

    private static ScriptedServer pop() throws Exception {
        return lines("+OK POP3 ready\r\n", l -> l.startsWith("QUIT") ? null : "+OK\r\n");
    }

    /** The same certificate checks for one service; {@code credential} tells a line of the login in seen. */
    private static void verifies(String service, ScriptedServer s, java.util.function.Predicate<String> credential)
            throws Exception {
        CheckTarget login = s.target().withLogin("alice", "secret");
        CheckResult stranger = check(service, Optional.of(otherCa), login.withVirtualHost(NAME));
        assertThat(stranger.up()).as(service).isFalse();
        assertThat(stranger.reason()).as(service).contains("TLS certificate of the real server refused",
                "checkcafile " + otherCa).containsIgnoringCase("certification path");
        CheckResult wrongName = check(service, Optional.of(serverCa), login.withVirtualHost("mail.example.test"));
        assertThat(wrongName.up()).as(service).isFalse();
        assertThat(wrongName.reason()).as(service).contains("checkcafile", "not the virtualhost mail.example.test");
        assertThat(s.seen).as(service + ": no credential sent to a refused server").noneMatch(credential);

        CheckResult trusted = check(service, Optional.of(serverCa), login.withVirtualHost(NAME));
        assertThat(trusted.up()).as(service + ": " + trusted.reason()).isTrue();
        CheckResult byAddress = check(service, Optional.of(serverCa), login);
        assertThat(byAddress.up()).as(service + ": no virtualhost, the chain only; " + byAddress.reason()).isTrue();
        assertThat(s.seen).as(service).anyMatch(credential);
        CheckResult anyCertificate = check(service, Optional.empty(), login.withVirtualHost("mail.example.test"));
        assertThat(anyCertificate.up()).as(service + " without checkcafile: " + anyCertificate.reason()).isTrue();
    }

    @Test
    void imapsSendsItsLoginOnlyToAServerTheCaFileTrusts() throws Exception {
        try (ScriptedServer s = imap()) {
            verifies("imaps", s, l -> l.startsWith("a1 LOGIN"));
        }
    }

    @Test
    void popsSendsUserAndPassOnlyToAServerTheCaFileTrusts() throws Exception {
        try (ScriptedServer s = pop()) {
            verifies("pops", s, l -> l.startsWith("USER") || l.startsWith("PASS"));
        }
    }

    @Test
    void ldapsBindsOnlyToAServerTheCaFileTrusts() throws Exception {
        try (ScriptedServer s = LdapCheckTest.ldap(LoopbackTls.serverSocket(dir, "srv"), "dc=example,dc=test")) {
            CheckTarget bind = s.target().withRequest("/dc=example,dc=test").withLogin("cn=probe", "right");
            CheckResult stranger = check("ldaps", Optional.of(otherCa), bind.withVirtualHost(NAME));
            assertThat(stranger.up()).isFalse();
            assertThat(stranger.reason()).contains("TLS certificate of the real server refused",
                    "checkcafile " + otherCa).containsIgnoringCase("certification path");
            CheckResult wrongName = check("ldaps", Optional.of(serverCa), bind.withVirtualHost("mail.example.test"));
            assertThat(wrongName.up()).isFalse();
            assertThat(wrongName.reason()).contains("checkcafile", "not the virtualhost mail.example.test");
            assertThat(s.seen).as("no bind (60) sent to a refused server").isEmpty();

            CheckResult trusted = check("ldaps", Optional.of(serverCa), bind.withVirtualHost(NAME));
            assertThat(trusted.up()).as(trusted.reason()).isTrue();
            CheckResult byAddress = check("ldaps", Optional.of(serverCa), bind);
            assertThat(byAddress.up()).as("no virtualhost, the chain only; " + byAddress.reason()).isTrue();
            assertThat(s.seen).contains("60", "63");
            CheckResult anyCertificate = check("ldaps", Optional.empty(), bind.withVirtualHost("mail.example.test"));
            assertThat(anyCertificate.up()).as("without checkcafile: " + anyCertificate.reason()).isTrue();
        }
    }
}
