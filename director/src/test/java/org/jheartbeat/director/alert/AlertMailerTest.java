package org.jheartbeat.director.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mail thread: the message's text, both transports, and failures that are logged and counted. */
class AlertMailerTest {
    static final Clock FIXED = Clock.fixed(Instant.parse("2026-12-01T19:45:00Z"), ZoneOffset.UTC);

    static Alert mail(Optional<String> smtp, Optional<String> from) {
        return new Alert(List.of("ops@example.org", "oncall@example.org"), from, smtp,
                "[web] Deleted real server: 198.18.0.21:80 (198.18.0.100:80)",
                "Deleted real server: 198.18.0.21:80 (198.18.0.100:80)", DaemonStatus.RUNNING,
                List.of("Service name: web", "Comment: front end"));
    }

    @Test
    void theTextCarriesLdirectordsFacts() {
        String text = AlertMessage.format(mail(Optional.empty(), Optional.empty()), "lvs1", "root@lvs1",
                ZonedDateTime.now(FIXED));
        assertThat(text).isEqualTo("From: root@lvs1\n"
                + "To: ops@example.org, oncall@example.org\n"
                + "Subject: [web] Deleted real server: 198.18.0.21:80 (198.18.0.100:80)\n"
                + "Date: Tue, 1 Dec 2026 19:45:00 GMT\n"
                + "MIME-Version: 1.0\n"
                + "Content-Type: text/plain; charset=UTF-8\n"
                + "\n"
                + "ldirectord host: lvs1\n"
                + "Log-Message: [web] Deleted real server: 198.18.0.21:80 (198.18.0.100:80)\n"
                + "Daemon-Status: running\n"
                + "\n"
                + "Service name: web\n"
                + "Comment: front end\n");
    }

    @Test
    void bySmtpTheServerReceivesTheAlert(@TempDir Path dir) throws Exception {
        try (SmtpSink sink = new SmtpSink(dir, false);
                AlertMailer m = new AlertMailer(dir.resolve("no-sendmail"), "lvs1", "root", FIXED,
                        Duration.ofSeconds(20))) {
            m.send(mail(Optional.of("127.0.0.1:" + sink.port()), Optional.of("\"LVS\" <lvs@example.org>")));
            await().atMost(Duration.ofSeconds(20)).until(() -> m.stats().sent() == 1);
            SmtpSink.Received r = sink.received().get(0);
            assertThat(r.mailFrom()).isEqualTo("root@lvs1");
            assertThat(r.rcptTo()).containsExactly("ops@example.org", "oncall@example.org");
            assertThat(r.header("From")).isEqualTo("\"LVS\" <lvs@example.org>");
            assertThat(r.header("Subject")).isEqualTo("[web] Deleted real server: 198.18.0.21:80 (198.18.0.100:80)");
            assertThat(r.body()).startsWith("ldirectord host: lvs1\nLog-Message: [web] Deleted real server:")
                    .contains("Daemon-Status: running\n");
        }
    }

    @Test
    void withoutSmtpSendmailGetsTheAlert(@TempDir Path dir) throws Exception {
        Path sendmail = SendmailPipeTest.fakeSendmail(dir, "exit 0");
        try (AlertMailer m = new AlertMailer(sendmail, "lvs1", "root", FIXED, Duration.ofSeconds(20))) {
            m.send(mail(Optional.empty(), Optional.empty()));
            await().atMost(Duration.ofSeconds(20)).until(() -> m.stats().sent() == 1);
        }
        assertThat(Files.readString(dir.resolve("argv"))).isEqualTo("-t\n-oi\n");
        assertThat(Files.readString(dir.resolve("stdin"))).startsWith("From: root@lvs1\nTo: ops@example.org, "
                + "oncall@example.org\nSubject: [web] Deleted real server").contains("\nldirectord host: lvs1\n");
    }

    @Test
    void failuresAreCountedAndNeverThrown(@TempDir Path dir) throws Exception {
        int closed = SmtpSink.freePort();
        try (SmtpSink rejecting = new SmtpSink(dir, true);
                AlertMailer m = new AlertMailer(dir.resolve("absent-sendmail"), "lvs1", "root", FIXED,
                        Duration.ofSeconds(20))) {
            m.send(mail(Optional.of("127.0.0.1:" + closed), Optional.empty())); // connection refused
            m.send(mail(Optional.of("127.0.0.1:" + rejecting.port()), Optional.empty())); // 554
            m.send(mail(Optional.empty(), Optional.empty())); // no sendmail program
            m.send(mail(Optional.of("127.0.0.1:notaport"), Optional.empty())); // unusable smtp value
            await().atMost(Duration.ofSeconds(30)).until(() -> m.stats().failed() == 4);
            assertThat(m.stats().sent()).isZero();
        }
    }

    @Test
    void aFullQueueDropsAlertsWithoutBlocking(@TempDir Path dir) throws Exception {
        // a sendmail that waits until the test lets it go
        Path sendmail = SendmailPipeTest.fakeSendmail(dir, "while [ ! -e '" + dir + "/go' ]; do sleep 0.05; done");
        try (AlertMailer m = new AlertMailer(sendmail, "lvs1", "root", FIXED, Duration.ofSeconds(20))) {
            long t0 = System.nanoTime();
            for (int i = 0; i < AlertMailer.QUEUE + 10; i++) {
                m.send(mail(Optional.empty(), Optional.empty()));
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("%d alerts handed to a stuck sendmail in %d ms%n", AlertMailer.QUEUE + 10, ms);
            // one is being sent, QUEUE wait, the rest is dropped
            assertThat(m.stats().dropped()).isEqualTo(9);
            Files.createFile(dir.resolve("go"));
            await().atMost(Duration.ofSeconds(60)).until(() -> m.stats().sent() == AlertMailer.QUEUE + 1);
            assertThat(m.stats().failed()).isZero();
        }
    }
}
