package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.check.CheckResult;
import org.jheartbeat.director.check.HealthCheck;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParserTest;
import org.junit.jupiter.api.Test;

/** The threaded shell: schedules, cut checks, backend failures (fake checks, in-memory table). */
class DirectorTest {
    static final String QUICK = DirectorKernelTest.SEED.replace("checktimeout=20", "checktimeout=1")
            .replace("checkinterval=10", "checkinterval=1");

    @Test
    void aHangingCheckIsCutAtItsTimeoutAndCountsAsFailed() throws Exception {
        FakeBackend backend = new FakeBackend();
        AtomicBoolean hang = new AtomicBoolean();
        CountDownLatch release = new CountDownLatch(1);
        List<String> logs = new CopyOnWriteArrayList<>();
        // R1 hangs, ignoring interrupts, once told to; R2 always passes
        CheckFactory checks = v -> (target, timeout) -> {
            if (hang.get() && target.server().getAddress().getHostAddress().equals("198.18.0.21")) {
                while (release.getCount() > 0) {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        // a check that ignores interrupts: only the cut can end it
                    }
                }
            }
            return CheckResult.up(0);
        };
        LdirectordConfig cfg = DirectorKernelTest.config(QUICK);
        try (Director d = new Director(backend, checks, MonotonicClock.system(), a -> {
            if (a instanceof DirectorAction.Log l) {
                logs.add(l.message());
            }
        })) {
            d.start(cfg);
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().size() == 7);
            long t0 = System.nanoTime();
            hang.set(true);
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().contains(
                    "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.21:80") && backend.commands().size() == 8);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("hanging check (checktimeout 1 s, checkinterval 1 s) cut and its real deleted after"
                    + " %d ms (bound: one interval + timeout + %d ms grace)%n", ms, Director.CUT_GRACE_MS);
            assertThat(logs).anyMatch(l -> l.contains("198.18.0.21:80") && l.contains("timed out after 1 s (cut)"));
            assertThat(d.stats().cut()).isGreaterThanOrEqualTo(1);
            assertThat(d.upStates().get(DirectorKernelTest.VIP).get(DirectorKernelTest.R2)).isTrue();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aMaintenanceFileForcesARealDownAndMonitorfileRecordsEveryCheck(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        FakeBackend backend = new FakeBackend();
        java.nio.file.Path maint = java.nio.file.Files.createDirectories(dir.resolve("maintenance"));
        java.nio.file.Path mon = dir.resolve("monitor.log");
        String cfg = QUICK.replace("quiescent=no", "quiescent=no\nmaintenancedir=" + maint)
                .replace("\tchecktype=connect\n", "\tchecktype=connect\n\tmonitorfile=" + mon + "\n");
        try (Director d = new Director(backend, v -> (t, to) -> CheckResult.up(0), MonotonicClock.system(),
                a -> { })) {
            d.start(DirectorKernelTest.config(cfg));
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().size() == 7);
            java.nio.file.Files.writeString(maint.resolve("198.18.0.22:80"), "");
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.commands().contains(
                    "ipvsadm -d -t 198.18.0.100:80 -r 198.18.0.22:80") && backend.commands().size() == 8);
        }
        List<String> lines = java.nio.file.Files.readAllLines(mon);
        assertThat(lines).anyMatch(l -> l.matches("\\[.*\\] \\[\\d+\\] 198\\.18\\.0\\.21 80 up"));
        assertThat(lines).anyMatch(l -> l.endsWith("198.18.0.22 80 down in maintenance (" + maint.resolve(
                "198.18.0.22:80") + " exists)"));
    }

    @Test
    void aBackendFailureIsReportedAndTheKernelResyncs() throws Exception {
        FakeBackend backend = new FakeBackend();
        List<DirectorAction.Log> logs = new CopyOnWriteArrayList<>();
        backend.failApplies.set(1);
        try (Director d = new Director(backend, v -> (t, to) -> CheckResult.up(0), MonotonicClock.system(), a -> {
            if (a instanceof DirectorAction.Log l) {
                logs.add(l);
            }
        })) {
            d.start(DirectorKernelTest.config(QUICK));
            // the start batch failed: reported, then repaired from the table read back; the reals come up
            assertThat(logs).anyMatch(l -> l.level() == DirectorAction.Level.ERROR
                    && l.message().contains("injected failure"));
            assertThat(d.stats().backendFailures()).isGreaterThanOrEqualTo(1);
            await().atMost(Duration.ofSeconds(20)).until(() -> backend.read().service(DirectorKernelTest.VIP)
                    .map(s -> s.reals().size() == 2).orElse(false));
            assertThat(logs).anyMatch(l -> l.message().startsWith("Repairing the table after a failed change"));
            assertThat(backend.commands()).first().isEqualTo("ipvsadm -A -t 198.18.0.100:80 -s lc -p 90");
        }
    }

    @Test
    void seventyVirtualServicesAreCheckedWithoutFallingBehind() throws Exception {
        LdirectordConfig cfg = DirectorKernelTest.config(LdirectordParserTest.seventyVirtuals(1));
        FakeBackend backend = new FakeBackend();
        Map<String, Integer> perService = new ConcurrentHashMap<>();
        CheckFactory checks = v -> (target, timeout) -> {
            perService.merge(v.key().address(), 1, Integer::sum);
            return CheckResult.up(0);
        };
        try (Director d = new Director(backend, checks, MonotonicClock.system(), a -> { })) {
            long t0 = System.nanoTime();
            d.start(cfg);
            long startMs = (System.nanoTime() - t0) / 1_000_000;
            // two passes of every service's four reals (checkinterval 1 s)
            await().atMost(Duration.ofSeconds(30)).until(() -> perService.size() == 70
                    && perService.values().stream().allMatch(n -> n >= 8));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            Director.Stats s = d.stats();
            System.out.printf("70 virtual services x 4 reals, checkinterval 1 s: start sequence %d ms; 2 passes each in"
                    + " %d ms; %d passes, %d checks, worst start lag %d ms, worst pass %d ms%n", startMs, ms,
                    s.passes(), s.checks(), s.maxLagMillis(), s.maxPassMillis());
            assertThat(d.upStates().values()).allMatch(m -> m.values().stream().allMatch(up -> up));
        }
        assertThat(backend.read().services()).isEmpty(); // cleanstop
    }

    @Test
    void anExternalChecksTargetCarriesLdirectordsArgumentsAndTheServicesProtocol() {
        LdirectordConfig cfg = DirectorKernelTest.config("""
                checktimeout=3
                virtual=198.18.0.50:80
                \treal=198.18.0.61:8080 gate
                \tchecktype=external
                \tcheckcommand=/usr/local/bin/check-web
                \tcheckcount=3
                virtual=198.18.0.50:53
                \treal=198.18.0.62:53 masq
                \tprotocol=udp
                \tchecktype=connect
                """);
        var web = cfg.virtuals().get(0);
        org.jheartbeat.director.check.CheckTarget t = Director.target(web, web.reals().get(0));
        assertThat(t.virtualService()).isEqualTo("198.18.0.50");
        assertThat(t.virtualPort()).isEqualTo(80);
        assertThat(t.realPort()).isEqualTo(8080);
        assertThat(t.checkCommand()).contains("/usr/local/bin/check-web");
        assertThat(t.checkCount()).isEqualTo(3);
        assertThat(t.protocol()).isEqualTo("tcp");
        var dns = cfg.virtuals().get(1);
        assertThat(Director.target(dns, dns.reals().get(0)).protocol()).isEqualTo("udp");
    }
}
