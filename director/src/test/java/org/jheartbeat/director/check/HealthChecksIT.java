package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The negotiate checks against real daemons from Debian packages (scripts/setup.sh installs them):
 * lighttpd for http and https, Exim (its SMTP session {@code exim4 -bs}, served on a port by
 * socat) for smtp, Dovecot for imap, imaps and pop, dnsmasq for dns. Each daemon runs with a
 * private configuration and run directory in a temporary directory, listens only on its own
 * 127.0.0.7x loopback address, is started by this test and stopped by its PID (the
 * {@link Process} this test started). Each check passes, then fails on a wrong expectation (a
 * receive that does not match, a wrong password) with the reason, then fails once the daemon is
 * stopped. Root only (Dovecot switches users; the system's daemons are never touched).
 */
class HealthChecksIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /** How long a freshly started daemon may take to pass its first check (generous: only catches a hang). */
    private static final long READY_MS = 20_000;

    @TempDir
    static Path tmp;
    private static Path dir;

    @BeforeAll
    static void rootAndPackages() throws IOException, InterruptedException {
        assumeTrue("root".equals(System.getProperty("user.name")), "Dovecot and the daemons' private dirs need root");
        for (String program : List.of("/usr/sbin/lighttpd", "/usr/sbin/exim4", "/usr/bin/socat", "/usr/sbin/dovecot",
                "/usr/sbin/dnsmasq", "/usr/bin/openssl")) {
            assertThat(Path.of(program)).as(program + " (run scripts/setup.sh)").isExecutable();
        }
        dir = Files.createDirectories(tmp.resolve("daemons"));
        // Dovecot's login processes (users dovenull, dovecot) and mail user nobody walk into it
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        run(List.of("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", dir.resolve("key.pem").toString(), "-out", dir.resolve("cert.pem").toString(),
                "-subj", "/CN=www.example.test", "-days", "2"));
        Files.writeString(dir.resolve("server.pem"),
                Files.readString(dir.resolve("key.pem")) + Files.readString(dir.resolve("cert.pem")));
    }

    @Test
    void httpAndHttpsAgainstLighttpd() throws Exception {
        String ip = "127.0.0.71";
        int http = freePort(ip);
        int https = freePort(ip);
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.writeString(www.resolve("health.html"), "<p>jheartbeat-ok</p>\n");
        Path conf = dir.resolve("lighttpd.conf");
        Files.writeString(conf, "server.document-root = \"" + www + "\"\n"
                + "server.bind = \"" + ip + "\"\n"
                + "server.port = " + http + "\n"
                + "server.errorlog = \"" + dir.resolve("lighttpd-error.log") + "\"\n"
                + "server.modules = (\"mod_openssl\")\n"
                + "$SERVER[\"socket\"] == \"" + ip + ":" + https + "\" { ssl.engine = \"enable\" ssl.pemfile = \""
                + dir.resolve("server.pem") + "\" }\n");
        HealthCheck httpCheck = Checks.forService("negotiate", "http");
        HealthCheck httpsCheck = Checks.forService("negotiate", "https");
        CheckTarget plain = target(ip, http).withRequest("/health.html").withReceive("jheartbeat-ok");
        CheckTarget tls = target(ip, https).withRequest("/health.html").withReceive("jheartbeat-ok")
                .withVirtualHost("www.example.test");
        try (Daemon lighttpd = new Daemon("lighttpd", List.of("/usr/sbin/lighttpd", "-D", "-f", conf.toString()))) {
            lighttpd.awaitUp(httpCheck, plain);
            lighttpd.awaitUp(httpsCheck, tls);
            assertDown(httpCheck.check(plain.withReceive("absent-text"), TIMEOUT), "receive \"absent-text\" not found");
            assertDown(httpsCheck.check(tls.withRequest("/missing.html"), TIMEOUT), "404");
            assertThat(httpCheck.check(plain.withHttpMethod("HEAD").withReceive(""), TIMEOUT).up()).isTrue();
        }
        assertDown(httpCheck.check(plain, TIMEOUT), "refused");
        assertDown(httpsCheck.check(tls, TIMEOUT), "refused");
    }

    @Test
    void smtpAgainstExim() throws Exception {
        String ip = "127.0.0.72";
        int port = freePort(ip);
        HealthCheck smtp = Checks.forService("negotiate", "smtp");
        CheckTarget target = target(ip, port);
        try (Daemon exim = new Daemon("exim", List.of("/usr/bin/socat",
                "TCP-LISTEN:" + port + ",bind=" + ip + ",reuseaddr,fork", "EXEC:/usr/sbin/exim4 -bs"))) {
            exim.awaitUp(smtp, target);
            // the same port, asked the wrong protocol: Exim's answer is no POP3 greeting
            assertDown(Checks.forService("negotiate", "pop").check(target, TIMEOUT), "POP3 greeting is not +OK");
        }
        assertDown(smtp.check(target, TIMEOUT), "refused");
    }

    @Test
    void imapImapsAndPopAgainstDovecot() throws Exception {
        String ip = "127.0.0.73";
        int imap = freePort(ip);
        int imaps = freePort(ip);
        int pop = freePort(ip);
        Path mail = Files.createDirectories(dir.resolve("mail"));
        Files.setPosixFilePermissions(mail, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path conf = dir.resolve("dovecot.conf");
        Files.writeString(conf, "base_dir = " + dir.resolve("dovecot-run") + "\n"
                + "state_dir = " + dir.resolve("dovecot-state") + "\n"
                + "log_path = " + dir.resolve("dovecot.log") + "\n"
                + "protocols = imap pop3\n"
                + "listen = " + ip + "\n"
                + "ssl = yes\nssl_cert = <" + dir.resolve("cert.pem") + "\nssl_key = <" + dir.resolve("key.pem") + "\n"
                + "disable_plaintext_auth = no\nauth_mechanisms = plain login\nauth_failure_delay = 0\n"
                + "passdb {\n  driver = static\n  args = password=s3cret\n}\n"
                + "userdb {\n  driver = static\n  args = uid=65534 gid=65534 home=" + mail + "/%u\n}\n"
                + "mail_location = maildir:~/Maildir\n"
                + "service imap-login {\n  inet_listener imap {\n    port = " + imap + "\n  }\n"
                + "  inet_listener imaps {\n    port = " + imaps + "\n    ssl = yes\n  }\n}\n"
                + "service pop3-login {\n  inet_listener pop3 {\n    port = " + pop + "\n  }\n"
                + "  inet_listener pop3s {\n    port = 0\n  }\n}\n");
        HealthCheck imapCheck = Checks.forService("negotiate", "imap");
        HealthCheck imapsCheck = Checks.forService("negotiate", "imaps");
        HealthCheck popCheck = Checks.forService("negotiate", "pop");
        CheckTarget imapTarget = target(ip, imap).withLogin("alice", "s3cret");
        try (Daemon dovecot = new Daemon("dovecot", List.of("/usr/sbin/dovecot", "-F", "-c", conf.toString()))) {
            dovecot.awaitUp(imapCheck, imapTarget);
            dovecot.awaitUp(imapsCheck, target(ip, imaps).withLogin("alice", "s3cret"));
            dovecot.awaitUp(popCheck, target(ip, pop).withLogin("alice", "s3cret"));
            assertDown(imapCheck.check(imapTarget.withLogin("alice", "wrong"), TIMEOUT), "login of alice refused");
            // (one refused login only: Dovecot's anvil delays further failures from the same address)
        }
        assertDown(imapCheck.check(imapTarget, TIMEOUT), "refused");
    }

    @Test
    void dnsAgainstDnsmasq() throws Exception {
        String ip = "127.0.0.74";
        int port = freePort(ip);
        HealthCheck dns = Checks.forService("negotiate", "dns");
        CheckTarget udp = target(ip, port).withProtocol("udp").withRequest("/www.example.test").withReceive("198.18.0.10");
        try (Daemon dnsmasq = new Daemon("dnsmasq", List.of("/usr/sbin/dnsmasq", "-k", "--conf-file=/dev/null",
                "--listen-address=" + ip, "--bind-interfaces", "--port=" + port, "--no-resolv", "--no-hosts",
                "--pid-file=" + dir.resolve("dnsmasq.pid"), "--host-record=www.example.test,198.18.0.10",
                "--log-facility=" + dir.resolve("dnsmasq.log")))) {
            dnsmasq.awaitUp(dns, udp);
            CheckResult tcp = dns.check(udp.withProtocol("tcp"), TIMEOUT);
            assertThat(tcp.up()).as(tcp.reason()).isTrue();
            CheckResult ptr = dns.check(udp.withRequest("198.18.0.10").withReceive("www.example.test"), TIMEOUT);
            assertThat(ptr.up()).as(ptr.reason()).isTrue();
            assertDown(dns.check(udp.withReceive("198.18.0.11"), TIMEOUT), "is 198.18.0.10, not 198.18.0.11");
        }
        CheckResult stopped = dns.check(udp, Duration.ofSeconds(2));
        assertThat(stopped.up()).isFalse();
        assertThat(stopped.reason()).isNotBlank();
        System.out.printf("HealthChecksIT: dnsmasq stopped, down in %d ms: %s%n", stopped.elapsedMillis(),
                stopped.reason());
    }

    private static CheckTarget target(String ip, int port) throws IOException {
        return CheckTarget.of(new InetSocketAddress(InetAddress.getByName(ip), port));
    }

    private static void assertDown(CheckResult result, String reasonPart) {
        assertThat(result.up()).as("expected down: " + reasonPart).isFalse();
        assertThat(result.reason()).containsIgnoringCase(reasonPart);
        System.out.printf("HealthChecksIT: down as expected in %d ms: %s%n", result.elapsedMillis(), result.reason());
    }

    /** A port free on {@code ip} for TCP (and, in practice, UDP) at this moment. */
    private static int freePort(String ip) throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(ip))) {
            return probe.getLocalPort();
        }
    }

    private static void run(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(dir.resolve("setup.log").toFile())
                .start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", argv)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", argv) + ": " + Files.readString(dir.resolve("setup.log"))).isZero();
    }

    /** A daemon started by this test, stopped by the PID of the process it started. */
    private static final class Daemon implements AutoCloseable {
        private final String name;
        private final Process process;
        private final Path log;

        Daemon(String name, List<String> argv) throws IOException {
            this.name = name;
            this.log = dir.resolve(name + ".out");
            this.process = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }

        void awaitUp(HealthCheck check, CheckTarget target) throws Exception {
            long start = System.nanoTime();
            CheckResult last;
            do {
                last = check.check(target, TIMEOUT);
                if (last.up()) {
                    System.out.printf("HealthChecksIT: %s %s up after %d ms (last check %d ms)%n", name,
                            target.server(), (System.nanoTime() - start) / 1_000_000, last.elapsedMillis());
                    return;
                }
                assertThat(process.isAlive()).as(name + " exited: " + Files.readString(log)).isTrue();
                Thread.sleep(100);
            } while ((System.nanoTime() - start) / 1_000_000 < READY_MS);
            throw new AssertionError(name + " did not pass its check within " + READY_MS + " ms: " + last.reason()
                    + "\n" + Files.readString(log));
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy(); // SIGTERM to the PID this test started
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
