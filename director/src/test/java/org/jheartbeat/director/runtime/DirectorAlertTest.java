package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.alert.AlertMailer;
import org.jheartbeat.director.alert.SmtpSink;
import org.jheartbeat.director.check.CheckResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts through the whole director: fake checks, the in-memory table, and a real SMTP server
 * (Python's {@code smtpd} on 127.0.0.1) or none at all.
 */
class DirectorAlertTest {
    static final String ALERTING = DirectorTest.QUICK.replace("quiescent=no\n", "quiescent=no\n"
            + "emailalert = ops@example.org\nemailalertfrom = lvs@example.org\nemailalertstatus = running\n"
            + "emailalertfreq = 1\nsmtp = 127.0.0.1:PORT\n");

    /** R1 always passes; R2 passes while {@code r2} is true. */
    static CheckFactory checks(AtomicBoolean r2) {
        return v -> (target, timeout) -> target.server().getAddress().getHostAddress().equals("198.18.0.22")
                && !r2.get() ? CheckResult.down("refused", 0) : CheckResult.up(0);
    }

    static List<String> subjects(SmtpSink sink) throws Exception {
        return sink.received().stream().map(r -> r.header("Subject")).toList();
    }

    @Test
    void aRealThatFailsIsMailedRepeatedWhileDownAndMailedWhenBack(@TempDir Path dir) throws Exception {
        AtomicBoolean r2 = new AtomicBoolean(true);
        FakeBackend backend = new FakeBackend();
        try (SmtpSink sink = new SmtpSink(dir, false);
                Director d = new Director(backend, checks(r2), MonotonicClock.system(), a -> { },
                        new AlertMailer(dir.resolve("no-sendmail"), "lvs1", "root", Clock.systemUTC(),
                                Duration.ofSeconds(20)))) {
            d.start(DirectorKernelTest.config(ALERTING.replace("PORT", Integer.toString(sink.port()))));
            await().atMost(Duration.ofSeconds(20)).until(() -> subjects(sink).size() == 2); // both reals added
            long t0 = System.nanoTime();
            r2.set(false);
            await().atMost(Duration.ofSeconds(20)).until(() -> subjects(sink)
                    .contains("Inaccessible real server: 198.18.0.22:80 (198.18.0.100:80)"));
            System.out.printf("real down to its first repeat (emailalertfreq 1 s, checkinterval 1 s): %d ms%n",
                    (System.nanoTime() - t0) / 1_000_000);
            r2.set(true);
            await().atMost(Duration.ofSeconds(20)).until(() -> subjects(sink).stream()
                    .filter(s -> s.startsWith("Added real server: 198.18.0.22:80")).count() == 2);
            List<String> s = subjects(sink);
            assertThat(s).contains("Deleted real server: 198.18.0.22:80 (198.18.0.100:80)");
            assertThat(s.indexOf("Deleted real server: 198.18.0.22:80 (198.18.0.100:80)"))
                    .isLessThan(s.indexOf("Inaccessible real server: 198.18.0.22:80 (198.18.0.100:80)"));
            SmtpSink.Received first = sink.received().get(0);
            assertThat(first.mailFrom()).isEqualTo("root@lvs1");
            assertThat(first.rcptTo()).containsExactly("ops@example.org");
            assertThat(first.header("From")).isEqualTo("lvs@example.org");
            assertThat(first.body()).contains("ldirectord host: lvs1\n", "Daemon-Status: running");
            assertThat(d.alertStats().failed()).isZero();
        }
    }

    @Test
    void anUnreachableSmtpServerIsLoggedAndCountedAndTheDirectorGoesOn() throws Exception {
        AtomicBoolean r2 = new AtomicBoolean(true);
        FakeBackend backend = new FakeBackend();
        String cfg = ALERTING.replace("PORT", Integer.toString(SmtpSink.freePort()));
        try (Director d = new Director(backend, checks(r2), MonotonicClock.system(), a -> { },
                new AlertMailer(Path.of("/nonexistent/sendmail"), "lvs1", "root", Clock.systemUTC(),
                        Duration.ofSeconds(20)))) {
            d.start(DirectorKernelTest.config(cfg));
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().size() == 7);
            r2.set(false);
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().contains(
                    "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80") && d.alertStats().failed() >= 1);
            r2.set(true);
            await().atMost(Duration.ofSeconds(20)).until(() -> d.upStates().get(DirectorKernelTest.VIP)
                    .get(DirectorKernelTest.R2));
            assertThat(d.alertStats().sent()).isZero();
            assertThat(d.stats().backendFailures()).isZero();
        }
    }
}
