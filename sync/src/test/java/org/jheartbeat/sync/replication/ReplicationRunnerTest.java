package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.TestClock;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ReplicationRunner with the real rsync on real directories. */
class ReplicationRunnerTest {
    private static final String INTENDED = ": if that is intended, run 'hb sync run web --accept-loss' on this node; until then the replica keeps every file";
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path tmp;
    Path src;
    Path target;
    Path stateDir;
    TestClock clock = new TestClock(T0);
    List<Duration> slept = new ArrayList<>();
    ReplicationRunner runner;

    @BeforeEach
    void setUp() throws Exception {
        src = Files.createDirectories(tmp.resolve("srv/web"));
        Files.createDirectories(src.resolve("sub"));
        Files.writeString(src.resolve("f1"), "a".repeat(100));
        Files.writeString(src.resolve("f2"), "b".repeat(2000));
        Files.writeString(src.resolve("sub/f3"), "c".repeat(50));
        target = tmp.resolve("replica");
        stateDir = tmp.resolve("state");
        runner = runner(SyncConfig.DEFAULT_SSH, Map.of());
    }

    private ReplicationRunner runner(List<String> ssh, Map<String, String> nodes) {
        SyncConfig cfg = new SyncConfig(null, stateDir, ssh, nodes, List.of(), List.of());
        return new ReplicationRunner(cfg, "node1", clock, slept::add, "rsync");
    }

    private Path replicaOf(Path p) {
        return target.resolve(p.getRoot().relativize(p));
    }

    @Test
    void copiesParsesStatsRecordsStateAndStamps() throws Exception {
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        RunOutcome o;
        try (LogCapture log = new LogCapture()) {
            o = runner.run(job, null, RunTrigger.SCHEDULE, null);
            assertThat(log.lines()).contains("INFO sync job web: 4 files, 3 transferred (2.2 kB) to " + target + " in 0.0 s");
        }
        assertThat(o.result()).isEqualTo(JobResult.OK);
        assertThat(o.filesTransferred()).isEqualTo(3);
        assertThat(o.bytesTransferred()).isEqualTo(2150);
        assertThat(o.filesTotal()).isEqualTo(4);
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(Files.readString(replicaOf(src).resolve("f2"))).isEqualTo("b".repeat(2000));
        assertThat(Files.readString(replicaOf(src).resolve("sub/f3"))).isEqualTo("c".repeat(50));

        JobState s = runner.store().read("web");
        assertThat(s).isEqualTo(new JobState("web", Optional.of(T0), Optional.of(T0), JobResult.OK, o.message(), 2150, 3, 4, 1,
                Optional.of(T0), Map.of(src.toString(), 4L)));
        ReplicaStamp expected = new ReplicaStamp("web", "node1", T0, T0);
        assertThat(ReplicaStamp.read(ReplicaStamp.targetFile(target, "web"))).contains(expected);
        assertThat(ReplicaStamp.read(ReplicaStamp.localFile(stateDir, "web"))).contains(expected);

        clock.advance(Duration.ofMinutes(5));
        RunOutcome again = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(again.result()).isEqualTo(JobResult.OK);
        assertThat(again.filesTransferred()).isZero();
        assertThat(again.bytesTransferred()).isZero();
    }

    @Test
    void deletePropagatesAndAnEmptySourceIsRefusedKeepingTheReplica() throws Exception {
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        assertThat(runner.run(job, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);
        Files.delete(src.resolve("f2"));
        clock.advance(Duration.ofMinutes(5));
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.OK);
        assertThat(o.message()).contains(", 1 deleted to ");
        assertThat(replicaOf(src).resolve("f2")).doesNotExist();
        assertThat(replicaOf(src).resolve("f1")).exists();

        Files.delete(src.resolve("f1"));
        Files.delete(src.resolve("sub/f3"));
        Files.delete(src.resolve("sub"));
        clock.advance(Duration.ofMinutes(5));
        RunOutcome refused;
        try (LogCapture log = new LogCapture()) {
            refused = runner.run(job, null, RunTrigger.SCHEDULE, null);
            assertThat(log.lines()).contains("ERROR sync job web: REFUSED: " + src + " is empty" + INTENDED);
        }
        assertThat(refused.result()).isEqualTo(JobResult.REFUSED);
        assertThat(refused.attempts()).isZero();
        assertThat(replicaOf(src).resolve("f1")).hasContent("a".repeat(100));
        assertThat(replicaOf(src).resolve("sub/f3")).hasContent("c".repeat(50));
        JobState s = runner.store().read("web");
        assertThat(s.result()).isEqualTo(JobResult.REFUSED);
        assertThat(s.message()).isEqualTo(src + " is empty" + INTENDED);
        assertThat(s.lastSuccess()).contains(T0.plus(Duration.ofMinutes(5)));
        assertThat(s.successCounts()).isEqualTo(Map.of(src.toString(), 3L));
    }

    @Test
    void aHandOverAfterACrashKeepsWhatItReplacesOrDeletesOnTheReceiver() throws Exception {
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        assertThat(runner.run(job, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);
        // the receiver wrote after that run (then "crashed"): one new file, one rewritten
        Files.writeString(replicaOf(src).resolve("late"), "written on the receiver only\n");
        Files.writeString(replicaOf(src).resolve("f1"), "rewritten on the receiver\n");
        Files.writeString(src.resolve("f1"), "a".repeat(101));

        RunOutcome o = runner.run(job, null, RunTrigger.HANDOVER_AFTER_CRASH, null);
        assertThat(o.result()).isEqualTo(JobResult.OK);
        Path kept = ReplicationRunner.displacedDir(stateDir, "web", T0).resolve(src.toString().substring(1));
        assertThat(o.message()).endsWith("; what it replaced or deleted there is kept in "
                + ReplicationRunner.displacedDir(stateDir, "web", T0));
        assertThat(replicaOf(src).resolve("late")).doesNotExist();
        assertThat(Files.readString(replicaOf(src).resolve("f1"))).isEqualTo("a".repeat(101));
        assertThat(kept.resolve("late")).hasContent("written on the receiver only");
        assertThat(kept.resolve("f1")).hasContent("rewritten on the receiver");

        // an ordinary hand-over mirrors without keeping anything
        Files.writeString(replicaOf(src).resolve("late2"), "x\n");
        clock.advance(Duration.ofMinutes(1));
        assertThat(runner.run(job, null, RunTrigger.HANDOVER, null).result()).isEqualTo(JobResult.OK);
        assertThat(replicaOf(src).resolve("late2")).doesNotExist();
        assertThat(ReplicationRunner.displacedDir(stateDir, "web", T0.plusSeconds(60))).doesNotExist();
    }

    @Test
    void shrinkageBeyondMaxLossIsRefused() throws Exception {
        for (int i = 0; i < 20; i++) {
            Files.writeString(src.resolve("x" + i), "x");
        }
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        assertThat(runner.run(job, null, RunTrigger.SCHEDULE, null).filesTotal()).isEqualTo(24);
        for (int i = 0; i < 15; i++) {
            Files.delete(src.resolve("x" + i));
        }
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.REFUSED);
        assertThat(o.message()).isEqualTo(src + " lost 63 % of its files since the last run (24 -> 9, max_loss 50 %)" + INTENDED);
        assertThat(replicaOf(src).resolve("x0")).exists();
    }

    @Test
    void aHeldLockRefusesTheRunWithTheHoldersPid() throws Exception {
        Files.createDirectories(stateDir);
        try (FileChannel ch = FileChannel.open(stateDir.resolve("web.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
             FileLock held = ch.lock()) {
            ch.write(ByteBuffer.wrap("4242\n".getBytes(StandardCharsets.US_ASCII)), 0);
            RunOutcome o = runner.run(Jobs.simple("web", src, target), null, RunTrigger.MANUAL, null);
            assertThat(o.result()).isEqualTo(JobResult.RUNNING);
            assertThat(o.message()).isEqualTo("job web is already running (pid 4242)");
            assertThat(held.isValid()).isTrue();
        }
        assertThat(runner.store().read("web")).isEqualTo(JobState.never("web"));
        assertThat(target).doesNotExist();
        RunOutcome after = runner.run(Jobs.simple("web", src, target), null, RunTrigger.MANUAL, null);
        assertThat(after.result()).isEqualTo(JobResult.OK);
        assertThat(Files.readString(stateDir.resolve("web.lock")).trim()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
    }

    @Test
    void badOptionIsFatalAndNotRetried() {
        ReplicationJobSpec job = Jobs.pathJob("web", "g", List.of(src), target, true, false, 0.5, 3, List.of("--no-such-option"));
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.message()).startsWith("rsync exit 1 (syntax or usage error) for " + src);
        assertThat(slept).isEmpty();
        assertThat(runner.store().read("web").result()).isEqualTo(JobResult.FAILED_FATAL);
    }

    @Test
    void unreachablePeerIsTransientAndRetried() {
        ReplicationRunner peerRunner = runner(List.of("ssh", "-p", "1", "-o", "BatchMode=yes", "-o", "ConnectTimeout=3"),
                Map.of("node1", "127.0.0.1", "node2", "127.0.0.1"));
        ReplicationJobSpec job = new ReplicationJobSpec("web", "g", List.of(src), Optional.empty(), "*/5 * * * *", true,
                List.of(), false, 0.5, 2, Duration.ofSeconds(7), Duration.ofMinutes(1), 0);
        RunOutcome o = peerRunner.run(job, "node2", RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_TRANSIENT);
        assertThat(o.attempts()).isEqualTo(3);
        // ssh exits 255; rsync passes it on, or reports 12 when it notices the dead pipe first: both transient
        assertThat(o.message()).matches("rsync exit (255 \\(ssh failed \\(connection refused, unreachable or dropped\\)\\)"
                + "|12 \\(error in rsync protocol data stream\\)) for " + java.util.regex.Pattern.quote(src.toString()) + ".*");
        assertThat(slept).containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(7));
    }

    @Test
    void timeoutKillIsTransient() {
        ReplicationJobSpec job = new ReplicationJobSpec("web", "g", List.of(src), Optional.of(target), "*/5 * * * *", true,
                List.of(), false, 0.5, 1, Duration.ofSeconds(1), Duration.ofMillis(1), 0);
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_TRANSIENT);
        assertThat(o.attempts()).isEqualTo(2);
        assertThat(o.message()).startsWith("timed out after 0.0 s for " + src);
    }

    @Test
    void progressStreamGetsHeaderAndRsyncProgress() {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        RunOutcome o = runner.run(Jobs.simple("web", src, target), null, RunTrigger.MANUAL, progress);
        assertThat(o.result()).isEqualTo(JobResult.OK);
        String text = progress.toString(StandardCharsets.UTF_8);
        assertThat(text).startsWith("sync job web: " + src + "/ -> " + replicaOf(src) + "/\n");
        assertThat(text).contains("xfr#3");
        assertThat(o.filesTransferred()).isEqualTo(3);
    }

    @Test
    void missingSourceRefusesEvenWithoutDelete() {
        Path gone = tmp.resolve("gone");
        ReplicationJobSpec job = Jobs.pathJob("web", "g", List.of(gone), target, false, false, 0.5, 0, List.of());
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.REFUSED);
        assertThat(o.message()).isEqualTo(gone + " does not exist or is not a directory");
    }

    @Test
    void aRunInAnotherProcessRefusesTheRunWithItsPid() throws Exception {
        Files.createDirectories(stateDir);
        Path lockFile = stateDir.resolve("web.lock");
        try (OtherProcessLock other = OtherProcessLock.hold(tmp, lockFile)) {
            RunOutcome o = runner.run(Jobs.simple("web", src, target), null, RunTrigger.MANUAL, null);
            assertThat(o.result()).isEqualTo(JobResult.RUNNING);
            assertThat(o.message()).isEqualTo("job web is already running (pid " + other.pid() + ")");
            assertThat(OtherProcessLock.probe(tmp, lockFile)).isEqualTo("busy");
        }
        assertThat(runner.run(Jobs.simple("web", src, target), null, RunTrigger.MANUAL, null).result()).isEqualTo(JobResult.OK);
    }

    @Test
    void aRefusedSecondRunInThisProcessKeepsTheFirstRunsLockAgainstOtherProcesses() throws Exception {
        BlockingOutput blocking = new BlockingOutput();
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        var first = java.util.concurrent.CompletableFuture.supplyAsync(() -> runner.run(job, null, RunTrigger.MANUAL, blocking));
        assertThat(blocking.awaitInside()).isTrue();
        RunOutcome second = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(second.result()).isEqualTo(JobResult.RUNNING);
        assertThat(second.message()).isEqualTo("job web is already running (pid " + ProcessHandle.current().pid() + ")");
        assertThat(OtherProcessLock.probe(tmp, stateDir.resolve("web.lock"))).isEqualTo("busy");
        blocking.release();
        assertThat(first.get(10, java.util.concurrent.TimeUnit.SECONDS).result()).isEqualTo(JobResult.OK);
        assertThat(OtherProcessLock.probe(tmp, stateDir.resolve("web.lock"))).isEqualTo("free");
    }

    private static ReplicationJobSpec withHooks(ReplicationJobSpec j, String pre, String post, Duration hookTimeout) {
        return new ReplicationJobSpec(j.name(), j.group(), j.paths(), j.targetPath(), j.schedule(), j.delete(),
                j.rsyncOptions(), j.requireMount(), j.maxLoss(), j.retries(), j.retryDelay(), j.timeout(),
                Optional.ofNullable(pre), Optional.ofNullable(post), hookTimeout, j.line());
    }

    @Test
    void thePreHookRunsBeforeTheCopyAndWhatItWritesIsCopiedThenPostRuns() throws Exception {
        Path log = tmp.resolve("hooks.log");
        ReplicationJobSpec job = withHooks(Jobs.simple("web", src, target),
                "echo \"pre $JHB_SYNC_JOB $JHB_SYNC_GROUP $JHB_SYNC_TRIGGER $JHB_SYNC_PATHS\" >>" + log
                        + " && echo dumped >" + src.resolve("dump.sql"),
                "echo \"post $JHB_SYNC_RESULT\" >>" + log, Duration.ofSeconds(30));
        RunOutcome o = runner.run(job, null, RunTrigger.HANDOVER, null);
        assertThat(o.result()).isEqualTo(JobResult.OK);
        assertThat(replicaOf(src).resolve("dump.sql")).hasContent("dumped");
        assertThat(Files.readAllLines(log)).containsExactly("pre web g handover " + src, "post OK");
    }

    @Test
    void aFailingPreHookAbortsTheCopyWithItsWordsAndPostStillRuns() throws Exception {
        Path log = tmp.resolve("hooks.log");
        ReplicationJobSpec job = withHooks(Jobs.simple("web", src, target),
                "echo starting; echo 'mariadb-dump: Got error: 2002: cannot connect' >&2; exit 2",
                "echo \"post $JHB_SYNC_RESULT\" >>" + log, Duration.ofSeconds(30));
        RunOutcome o;
        try (LogCapture lc = new LogCapture()) {
            o = runner.run(job, null, RunTrigger.SCHEDULE, null);
            assertThat(lc.lines()).contains("ERROR sync job web: FAILED: pre hook failed, nothing copied: exit 2:"
                    + " mariadb-dump: Got error: 2002: cannot connect");
        }
        assertThat(o.result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(o.attempts()).isZero();
        assertThat(replicaOf(src)).doesNotExist();
        assertThat(Files.readAllLines(log)).containsExactly("post FAILED_FATAL");
        assertThat(runner.store().read("web").lastSuccess()).isEmpty();
    }

    @Test
    void aPreHookThatRunsOverItsTimeoutIsKilledAndAbortsTheCopy() {
        ReplicationJobSpec job = withHooks(Jobs.simple("web", src, target), "sleep 30", null, Duration.ofMillis(300));
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(o.message()).startsWith("pre hook failed, nothing copied: timed out after 0.3 s");
        assertThat(replicaOf(src)).doesNotExist();
    }

    @Test
    void postRunsAfterAFailedCopyAndItsOwnFailureIsNotedWithoutChangingTheResult() throws Exception {
        Path log = tmp.resolve("hooks.log");
        ReplicationJobSpec ok = withHooks(Jobs.simple("web", src, target), null, "echo 'unlock failed' >&2; exit 1",
                Duration.ofSeconds(30));
        RunOutcome o;
        try (LogCapture lc = new LogCapture()) {
            o = runner.run(ok, null, RunTrigger.SCHEDULE, null);
            assertThat(lc.lines()).contains("WARN sync job web: post hook failed: exit 1: unlock failed");
        }
        assertThat(o.result()).isEqualTo(JobResult.OK);
        assertThat(o.message()).endsWith("; post hook failed: exit 1: unlock failed");

        ReplicationJobSpec bad = withHooks(Jobs.pathJob("web", "g", List.of(src), target, true, false, 0.5, 0,
                List.of("--no-such-option")), null, "echo \"post $JHB_SYNC_RESULT\" >>" + log, Duration.ofSeconds(30));
        assertThat(runner.run(bad, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(Files.readAllLines(log)).containsExactly("post FAILED_FATAL");
    }

    @Test
    void thePreHookRunsBeforeTheGuardsSoItCanPrepareTheSourceAndPostRunsAfterARefusal() throws Exception {
        Path log = tmp.resolve("hooks.log");
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        ReplicationJobSpec fills = withHooks(Jobs.simple("web", empty, target), "echo pre >>" + log
                + " && echo data >" + empty.resolve("restored"), "echo post $JHB_SYNC_RESULT >>" + log,
                Duration.ofSeconds(30));
        assertThat(runner.run(fills, null, RunTrigger.HANDOVER, null).result()).isEqualTo(JobResult.OK);
        assertThat(replicaOf(empty).resolve("restored")).hasContent("data");

        Path bare = Files.createDirectories(tmp.resolve("bare"));
        ReplicationJobSpec refused = withHooks(Jobs.simple("mail", bare, target), "echo pre >>" + log,
                "echo post $JHB_SYNC_RESULT >>" + log, Duration.ofSeconds(30));
        assertThat(runner.run(refused, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.REFUSED);
        assertThat(Files.readAllLines(log)).containsExactly("pre", "post OK", "pre", "post REFUSED");
    }
}
