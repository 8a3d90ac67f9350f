package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.TestClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jheartbeat.core.testkit.FakeClock;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheduler, ownership gating and handover, with a hand-moved clock and the real rsync. */
class ReplicationServiceTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final String GROUP_A = "198.18.0.100/24/eth0";
    private static final String GROUP_B = "198.18.0.200/24/eth0";

    @TempDir
    Path tmp;
    TestClock clock = new TestClock(T0);
    AtomicReference<Set<String>> running = new AtomicReference<>(Set.of(GROUP_A));
    List<Duration> slept = new ArrayList<>();
    ReplicationService service;
    JobStateStore store;
    Path webSrc;
    Path mailSrc;
    Path target;

    @BeforeEach
    void setUp() throws Exception {
        webSrc = Files.createDirectories(tmp.resolve("srv/web"));
        mailSrc = Files.createDirectories(tmp.resolve("srv/mail"));
        Files.writeString(webSrc.resolve("index.html"), "<h1>hi</h1>");
        Files.writeString(mailSrc.resolve("inbox"), "mail");
        target = tmp.resolve("replica");
        ReplicationJobSpec web = job("web", GROUP_A, webSrc);
        ReplicationJobSpec mail = job("mail", GROUP_B, mailSrc);
        SyncConfig cfg = new SyncConfig(null, tmp.resolve("state"), SyncConfig.DEFAULT_SSH, Map.of(), List.of(web, mail), List.of());
        store = new JobStateStore(cfg.stateDir());
        service = new ReplicationService(cfg, "node1", running::get, clock,
                new ReplicationRunner(cfg, "node1", clock, slept::add, "rsync"));
    }

    private ReplicationJobSpec job(String name, String group, Path src) {
        return new ReplicationJobSpec(name, group, List.of(src), Optional.of(target), "*/10 * * * * *", true, List.of(),
                false, 0.5, 1, Duration.ofSeconds(5), Duration.ofMinutes(1), 0);
    }

    @AfterEach
    void tearDown() {
        service.close();
    }

    @Test
    void aJobRunsOnlyWhileItsGroupRunsHere() {
        assertThat(service.nextFireTime("web")).contains(T0.plusSeconds(10));
        assertThat(service.tick()).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        assertThat(service.tick()).containsExactly("web");
        // the run's state is written a moment before its worker lets go of the job: wait for both, or the
        // next schedule is (rightly) skipped as still in progress
        await().atMost(60, TimeUnit.SECONDS).until(() -> store.read("web").result() == JobResult.OK
                && !service.inProgress("web"));
        assertThat(store.read("mail").result()).isEqualTo(JobResult.NEVER);
        assertThat(service.nextFireTime("web")).contains(T0.plusSeconds(20));
        assertThat(target.resolve(tmp.getRoot().relativize(webSrc)).resolve("index.html")).hasContent("<h1>hi</h1>");

        running.set(Set.of(GROUP_A, GROUP_B));
        clock.advance(Duration.ofSeconds(10));
        assertThat(service.tick()).containsExactlyInAnyOrder("web", "mail");
        await().atMost(10, TimeUnit.SECONDS).until(() -> store.read("mail").result() == JobResult.OK);
        assertThat(target.resolve(tmp.getRoot().relativize(mailSrc)).resolve("inbox")).hasContent("mail");

        running.set(Set.of());
        clock.advance(Duration.ofSeconds(10));
        assertThat(service.tick()).isEmpty();
    }

    @Test
    void theFirstRunAfterAGroupStartKeepsWhatItDisplaces() throws Exception {
        Path replica = target.resolve(tmp.getRoot().relativize(webSrc));
        clock.advance(Duration.ofSeconds(10));
        assertThat(service.tick()).containsExactly("web");
        await().atMost(60, TimeUnit.SECONDS).until(() -> store.read("web").result() == JobResult.OK
                && !service.inProgress("web"));
        // the group moves here again; the receiver had written a file this node never saw
        Files.writeString(replica.resolve("newer-there"), "only on the receiver");
        service.groupStarted(GROUP_A);
        clock.advance(Duration.ofSeconds(10));
        Instant first = clock.instant();
        assertThat(service.tick()).containsExactly("web");
        await().atMost(60, TimeUnit.SECONDS).until(() -> store.read("web").lastStart().orElseThrow().equals(first)
                && store.read("web").result() == JobResult.OK && !service.inProgress("web"));
        Path kept = ReplicationRunner.displacedDir(tmp.resolve("state"), "web", first)
                .resolve(webSrc.toString().substring(1));
        assertThat(kept.resolve("newer-there")).hasContent("only on the receiver");
        assertThat(replica.resolve("newer-there")).doesNotExist();
        // later runs mirror exactly
        Files.writeString(replica.resolve("stray"), "x");
        clock.advance(Duration.ofSeconds(10));
        Instant second = clock.instant();
        assertThat(service.tick()).containsExactly("web");
        await().atMost(60, TimeUnit.SECONDS).until(() -> store.read("web").lastStart().orElseThrow().equals(second)
                && store.read("web").result() == JobResult.OK && !service.inProgress("web"));
        assertThat(replica.resolve("stray")).doesNotExist();
        assertThat(ReplicationRunner.displacedDir(tmp.resolve("state"), "web", second)).doesNotExist();
    }

    @Test
    void peerJobsDoNotFireWhileThePeerIsDown() throws Exception {
        ReplicationJobSpec peerJob = new ReplicationJobSpec("web", GROUP_A, List.of(webSrc), Optional.empty(),
                "*/10 * * * * *", true, List.of(), false, 0.5, 0, Duration.ofSeconds(5), Duration.ofMinutes(1), 0);
        SyncConfig cfg = new SyncConfig(null, tmp.resolve("state2"), List.of("ssh", "-p", "1", "-o", "BatchMode=yes"),
                Map.of("node1", "127.0.0.1", "node2", "127.0.0.1"), List.of(peerJob), List.of());
        AtomicBoolean up = new AtomicBoolean(false);
        try (ReplicationService svc = new ReplicationService(cfg, "node1", running::get, clock,
                new ReplicationRunner(cfg, "node1", clock, slept::add, "rsync"))) {
            svc.peerUp(up::get);
            clock.advance(Duration.ofSeconds(10));
            assertThat(svc.tick()).as("peer down: skipped").isEmpty();
            clock.advance(Duration.ofSeconds(10));
            assertThat(svc.tick()).isEmpty();
            assertThat(new JobStateStore(cfg.stateDir()).read("web").result()).isEqualTo(JobResult.NEVER);
            up.set(true);
            clock.advance(Duration.ofSeconds(10));
            assertThat(svc.tick()).containsExactly("web");
        }
    }

    @Test
    void theSchedulerThreadFiresOnTheInjectedClock() {
        service.start();
        clock.advance(Duration.ofSeconds(10));
        await().atMost(10, TimeUnit.SECONDS).until(() -> store.read("web").result() == JobResult.OK);
        assertThat(store.read("web").lastStart()).contains(T0.plusSeconds(10));
        assertThat(store.read("mail").result()).isEqualTo(JobResult.NEVER);
    }

    @Test
    void noOverlapAndHandoverWaitsForTheRunInFlight() throws Exception {
        BlockingOutput blocking = new BlockingOutput();
        CompletableFuture<RunOutcome> manual = CompletableFuture.supplyAsync(() -> service.runNow("web", blocking));
        assertThat(blocking.awaitInside()).isTrue();
        assertThat(store.read("web").result()).isEqualTo(JobResult.RUNNING);

        clock.advance(Duration.ofSeconds(10));
        assertThat(service.tick()).isEmpty(); // the schedule fired but a run is in flight

        assertThat(service.runNow("web", null).result()).isEqualTo(JobResult.RUNNING);

        running.set(Set.of()); // the group was stopped here
        CompletableFuture<List<RunOutcome>> handover = CompletableFuture.supplyAsync(() -> service.syncBeforeHandover(GROUP_A));
        Thread.sleep(300);
        assertThat(handover).isNotDone();
        blocking.release();
        assertThat(manual.get(10, TimeUnit.SECONDS).result()).isEqualTo(JobResult.OK);
        List<RunOutcome> outcomes = handover.get(10, TimeUnit.SECONDS);
        assertThat(outcomes).extracting(RunOutcome::job, RunOutcome::trigger, RunOutcome::result)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("web", RunTrigger.HANDOVER, JobResult.OK));
    }

    @Test
    void manualRunRefusedWhereTheGroupDoesNotRunUnlessForced() {
        RunOutcome refused = service.runNow("mail", null);
        assertThat(refused.result()).isEqualTo(JobResult.REFUSED);
        assertThat(refused.message()).isEqualTo("group " + GROUP_B + " does not run on node1; run it on the node that "
                + "runs the group");
        assertThat(store.read("mail").result()).isEqualTo(JobResult.NEVER);
        RunOutcome forced = service.runNow("mail", null, true);
        assertThat(forced.result()).isEqualTo(JobResult.OK);
        assertThat(forced.filesTransferred()).isEqualTo(1);
        assertThat(service.status()).extracting(JobState::job, JobState::result)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("web", JobResult.NEVER),
                        org.assertj.core.groups.Tuple.tuple("mail", JobResult.OK));
    }

    @Test
    void replicaAgeIsLoggedBeforeTakeover() {
        assertThat(service.runNow("web", null).result()).isEqualTo(JobResult.OK);
        clock.advance(Duration.ofSeconds(4 * 60 + 12));
        assertThat(service.replicaAge("web")).contains(Duration.ofSeconds(252));
        assertThat(service.replicaAge("mail")).isEmpty();
        try (LogCapture log = new LogCapture()) {
            service.logReplicaAge(GROUP_A);
            service.logReplicaAge(GROUP_B);
            assertThat(log.lines()).containsExactly(
                    "INFO sync job web: replica is 4m12s old (last sync from node1 at 2026-03-01T10:00:00Z)",
                    "WARN sync job mail: no replica stamp: data age unknown");
        }
    }

    @Test
    void handoverWaitsForARunOfAnotherProcessHoldingTheFileLock() throws Exception {
        Path lockFile = Files.createDirectories(tmp.resolve("state")).resolve("web.lock");
        CompletableFuture<List<RunOutcome>> handover;
        try (OtherProcessLock other = OtherProcessLock.hold(tmp, lockFile)) {
            handover = CompletableFuture.supplyAsync(() -> service.syncBeforeHandover(GROUP_A));
            Thread.sleep(1_500);
            assertThat(handover).isNotDone();
        }
        assertThat(handover.get(10, TimeUnit.SECONDS)).extracting(RunOutcome::result).containsExactly(JobResult.OK);
    }

    @Test
    void handoverGivesUpAfterTheJobTimeoutOnTheInjectedClockAndSleeper() throws Exception {
        FakeClock ticks = new FakeClock();
        List<Duration> pauses = new ArrayList<>();
        SyncConfig cfg = new SyncConfig(null, tmp.resolve("state"), SyncConfig.DEFAULT_SSH, Map.of(),
                List.of(job("web", GROUP_A, webSrc)), List.of());
        Path lockFile = Files.createDirectories(tmp.resolve("state")).resolve("web.lock");
        try (OtherProcessLock other = OtherProcessLock.hold(tmp, lockFile);
             ReplicationService svc = new ReplicationService(cfg, "node1", running::get, clock,
                     new ReplicationRunner(cfg, "node1", clock, slept::add, "rsync"), ticks, pause -> {
                         pauses.add(pause);
                         ticks.advance(pause);
                     })) {
            List<RunOutcome> outcomes = svc.syncBeforeHandover(GROUP_A);
            assertThat(outcomes).extracting(RunOutcome::result).containsExactly(JobResult.RUNNING);
        }
        // job timeout 1 min, 1 s pauses: it gives up once the clock is past the deadline, after
        // 61 pauses, and no real time passes
        assertThat(pauses).hasSize(61).containsOnly(Duration.ofSeconds(1));
    }

    @Test
    void statusReportsARunningStateWithoutALockHolderAsInterrupted() throws Exception {
        store.write(JobState.never("web").running(T0));
        Path lockFile = tmp.resolve("state").resolve("web.lock");
        try (OtherProcessLock other = OtherProcessLock.hold(tmp, lockFile)) {
            assertThat(service.status().get(0).result()).isEqualTo(JobResult.RUNNING);
        }
        JobState s = service.status().get(0);
        assertThat(s.result()).isEqualTo(JobResult.FAILED_TRANSIENT);
        assertThat(s.message()).isEqualTo("run interrupted (the process ended during the run)");
        assertThat(s.lastStart()).contains(T0);
        assertThat(store.read("web").result()).isEqualTo(JobResult.RUNNING);
    }
}
