package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.config.BackupProfile;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scheduled backups of a disk left in the drawer, on real ext4 loop images, real mount and rsync, with
 * the schedule driven by the injected clock (the poller thread runs for real, every 100 ms). Root only.
 */
class BackupScheduleIT {
    private Path tmp;
    private Path src;
    private Path mnt;
    private String label;
    private final List<LoopImage> images = new ArrayList<>();
    private final List<AutoCloseable> closeFirst = new ArrayList<>();
    private final TestClock clock = new TestClock(Instant.parse("2026-12-06T01:00:00Z"));

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0,
                "loop devices and mount need root");
        tmp = Files.createTempDirectory(Path.of("/tmp"), "jhbt-bsched");
        src = Files.createDirectories(tmp.resolve("srv/web"));
        mnt = tmp.resolve("mnt/backup");
        label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (tmp == null) {
            return;
        }
        for (AutoCloseable c : closeFirst) {
            c.close();
        }
        for (LoopImage i : images) {
            i.close();
        }
        LoopImage.run("rm", "-rf", "--one-file-system", tmp.toString());
    }

    private BackupService service(String schedule) {
        BackupSpec spec = new BackupSpec("drawer", Optional.of(label), Optional.empty(), Optional.empty(), mnt,
                List.of(src), 7, Duration.ofMillis(100), true, List.of(), 0, Optional.of(schedule), BackupProfile.DATA);
        BackupService s = new BackupService(new SyncConfig(null, tmp.resolve("state"), SyncConfig.DEFAULT_SSH, Map.of(),
                List.of(), List.of(spec)), clock);
        closeFirst.add(s);
        return s;
    }

    @Test
    void aDiskLeftInTheDrawerReceivesTheScheduledSnapshotsAndAScheduleWithoutItIsSkipped() throws Exception {
        Files.writeString(src.resolve("index.html"), "v1\n");
        Files.createDirectories(src.resolve("img"));
        Files.writeString(src.resolve("img/logo"), "logo\n");
        LoopImage disk = new LoopImage(tmp.resolve("drawer.img"), label, 16);
        images.add(disk);
        disk.attach();
        BackupService svc = service("0 */6 * * *");
        assertThat(svc.nextScheduled("drawer")).contains(Instant.parse("2026-12-06T06:00:00Z"));
        svc.start();
        waitFor(() -> svc.status().get(0).snapshots() == 1, "the snapshot of the disk found at start");
        assertThat(svc.status().get(0).newestSnapshot()).contains("2026-12-06T010000Z");

        Files.writeString(src.resolve("index.html"), "v2 at six\n");
        Files.setLastModifiedTime(src.resolve("index.html"), FileTime.from(Instant.now().plusSeconds(60)));
        clock.set(Instant.parse("2026-12-06T06:00:03Z"));
        waitFor(() -> svc.status().get(0).snapshots() == 2, "the 06:00 snapshot, disk left in");
        assertThat(svc.status().get(0).newestSnapshot()).contains("2026-12-06T060003Z");
        assertThat(svc.status().get(0).lastRunMessage()).startsWith("snapshot 2026-12-06T060003Z done: 2 files, 1 changed");
        clock.set(Instant.parse("2026-12-06T07:00:00Z"));
        Thread.sleep(500);
        assertThat(svc.status().get(0).snapshots()).as("nothing between fire times").isEqualTo(2);
        clock.set(Instant.parse("2026-12-06T12:00:00Z"));
        waitFor(() -> svc.status().get(0).snapshots() == 3, "the 12:00 snapshot");

        disk.detach();
        waitFor(() -> svc.status().get(0).disk() == DiskState.MISSING, "removal seen");
        clock.set(Instant.parse("2026-12-06T18:00:01Z"));
        waitFor(() -> svc.status().get(0).lastSkip().isPresent(), "the 18:00 skip");
        BackupState skipped = svc.status().get(0);
        assertThat(skipped.lastSkip()).contains("scheduled snapshot due 2026-12-06T18:00:00Z skipped: disk LABEL="
                + label + " is missing (put it back in the drawer; a snapshot is taken when it is inserted)");
        assertThat(skipped.lastResult()).isEqualTo(BackupResult.OK);
        assertThat(skipped.snapshots()).isEqualTo(3);
        assertThat(MountTable.isMountPoint(MountTable.read(), mnt)).isFalse();
        assertThat(Trees.children(mnt)).as("nothing written to the bare mount point").isEmpty();

        clock.set(Instant.parse("2026-12-06T19:30:00Z"));
        disk.attach();
        waitFor(() -> svc.status().get(0).snapshots() == 4, "the snapshot on insertion");
        assertThat(svc.status().get(0).lastSkip()).as("a run clears the skip").isEmpty();
        svc.close();

        SnapshotComparison same = svc.verify("drawer", Optional.empty());
        assertThat(same.snapshot()).isEqualTo("2026-12-06T193000Z");
        assertThat(same.differences()).isEmpty();
        SnapshotComparison first = svc.verify("drawer", Optional.of("2026-12-06T010000Z"));
        assertThat(first.differences()).containsExactly("changed: " + src.resolve("index.html"));
        Files.delete(src.resolve("img/logo"));
        Files.writeString(src.resolve("new"), "n");
        assertThat(svc.verify("drawer", Optional.empty()).differences()).containsExactlyInAnyOrder(
                "only in snapshot: " + src.resolve("img/logo"), "missing from snapshot: " + src.resolve("new"));
        assertThat(svc.list("drawer")).extracting(Snapshot::name).containsExactly("2026-12-06T010000Z",
                "2026-12-06T060003Z", "2026-12-06T120000Z", "2026-12-06T193000Z");
    }

    private static void waitFor(Supplier<Boolean> cond, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!cond.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(50);
        }
    }
}
