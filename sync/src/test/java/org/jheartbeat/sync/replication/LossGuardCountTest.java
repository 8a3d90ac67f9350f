package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loss guard's count ({@link EntryCount}, find(1)) and the guard around real rsync runs on real
 * directories: the first run, a source that lost 70 %, one that grew, and rsync's own
 * {@code --max-delete} (why the guard does not hand its job to rsync: rsync deletes up to the limit
 * before it stops).
 */
class LossGuardCountTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path tmp;
    Path src;
    Path target;
    Path stateDir;
    TestClock clock = new TestClock(T0);
    ReplicationRunner runner;

    @BeforeEach
    void setUp() throws Exception {
        src = Files.createDirectories(tmp.resolve("srv/web"));
        target = tmp.resolve("replica");
        stateDir = tmp.resolve("state");
        runner = new ReplicationRunner(new SyncConfig(null, stateDir, SyncConfig.DEFAULT_SSH, Map.of(), List.of(),
                List.of()), "node1", clock, d -> { }, "rsync");
    }

    private void files(int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            Files.writeString(src.resolve("keep" + i), "keep " + i + "\n");
        }
    }

    private long replicaFiles() throws IOException {
        try (Stream<Path> s = Files.walk(target.resolve(src.getRoot().relativize(src)))) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void theCountMatchesTheJvmWalkOnEveryKindOfEntry() throws Exception {
        Path d = Files.createDirectories(tmp.resolve("tree/a/b/c"));
        Files.writeString(d.resolve("file"), "x");
        Files.writeString(tmp.resolve("tree/a/name\nwith newline"), "x");
        Files.writeString(tmp.resolve("tree/-n"), "x");
        Files.createSymbolicLink(tmp.resolve("tree/link-to-a"), tmp.resolve("tree/a"));
        Files.createSymbolicLink(tmp.resolve("tree/dangling"), tmp.resolve("nowhere"));
        Files.createDirectories(tmp.resolve("tree/empty"));
        Path tree = tmp.resolve("tree");
        // a, b, c, file, "name\nwith newline", -n, link-to-a (not followed), dangling, empty
        assertThat(EntryCount.below(tree, Duration.ofSeconds(30))).isEqualTo(9).isEqualTo(EntryCount.walk(tree));
        // the source itself may be a symlink to the directory: counted through it, as before
        Path viaLink = Files.createSymbolicLink(tmp.resolve("via-link"), tree);
        assertThat(EntryCount.below(viaLink, Duration.ofSeconds(30))).isEqualTo(9).isEqualTo(EntryCount.walk(viaLink));
        assertThat(EntryCount.below(Files.createDirectories(tmp.resolve("nothing")), Duration.ofSeconds(30))).isZero();
    }

    @Test
    void theFirstRunHasNoPreviousCountRunsAndStoresOne() throws Exception {
        files(0, 200);
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).as(o.message()).isEqualTo(JobResult.OK);
        assertThat(o.message()).startsWith("200 files, 200 transferred");
        assertThat(runner.store().read("web").successCounts()).isEqualTo(Map.of(src.toString(), 200L));
        assertThat(replicaFiles()).isEqualTo(200);
    }

    @Test
    void aSourceThatLost70PercentIsRefusedAndTheReplicaKeepsEveryFile() throws Exception {
        files(0, 200);
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        assertThat(runner.run(job, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);
        for (int i = 60; i < 200; i++) {
            Files.delete(src.resolve("keep" + i));
        }
        clock.advance(Duration.ofMinutes(5));
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.REFUSED);
        assertThat(o.message()).startsWith(src + " lost 70 % of its files since the last run (200 -> 60, max_loss 50 %)");
        assertThat(o.attempts()).isZero();
        assertThat(replicaFiles()).as("the replica keeps every file").isEqualTo(200);
        assertThat(runner.store().read("web").successCounts()).as("the reference stays the last success's")
                .isEqualTo(Map.of(src.toString(), 200L));
    }

    @Test
    void aSourceThatGrewRunsAndTheNewCountIsTheReference() throws Exception {
        files(0, 100);
        ReplicationJobSpec job = Jobs.simple("web", src, target);
        assertThat(runner.run(job, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);
        files(100, 300);
        clock.advance(Duration.ofMinutes(5));
        RunOutcome o = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).as(o.message()).isEqualTo(JobResult.OK);
        assertThat(o.filesTransferred()).isEqualTo(200);
        assertThat(runner.store().read("web").successCounts()).isEqualTo(Map.of(src.toString(), 300L));
        // the reference is now 300, not 100: 160 files gone (53 %) is too many, though 140 > 100
        for (int i = 0; i < 160; i++) {
            Files.delete(src.resolve("keep" + i));
        }
        clock.advance(Duration.ofMinutes(5));
        RunOutcome shrunk = runner.run(job, null, RunTrigger.SCHEDULE, null);
        assertThat(shrunk.result()).isEqualTo(JobResult.REFUSED);
        assertThat(shrunk.message()).startsWith(src + " lost 53 % of its files since the last run (300 -> 140");
        assertThat(replicaFiles()).isEqualTo(300);
    }

    @Test
    void rsyncsOwnMaxDeleteDeletesUpToItsLimitExitsWith25AndIsAFatalFailure() throws Exception {
        files(0, 20);
        ReplicationJobSpec plain = Jobs.simple("web", src, target);
        assertThat(runner.run(plain, null, RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);
        for (int i = 0; i < 11; i++) {
            Files.delete(src.resolve("keep" + i));
        }
        // max_loss 1: the guard lets it through; the admin's own --max-delete=5 stops rsync
        ReplicationJobSpec limited = Jobs.pathJob("web", "g", List.of(src), target, true, false, 1.0, 2,
                List.of("--max-delete=5"));
        clock.advance(Duration.ofMinutes(5));
        RunOutcome o = runner.run(limited, null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(o.attempts()).as("not retried").isEqualTo(1);
        assertThat(o.message()).startsWith("rsync exit 25 (the --max-delete limit stopped deletions) for " + src);
        // what the guard must never do: five files are gone from the replica before rsync stopped
        assertThat(replicaFiles()).isEqualTo(15);
    }
}
