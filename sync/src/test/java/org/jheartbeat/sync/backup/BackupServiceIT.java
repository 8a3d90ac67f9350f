package org.jheartbeat.sync.backup;

import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.MountTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.function.Supplier;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The removable-disk backup on real ext4 images attached to real loop devices, real mount and
 * real rsync: what only the real tools show. Needs root; skipped otherwise. Every test creates its
 * own image with a unique label and detaches only its own loop devices, also on failure.
 */
class BackupServiceIT {
    private static final int MIB = 1024 * 1024;

    private Path tmp;
    private Path src;
    private Path mnt;
    private Path inspect;
    private String label;
    private final List<LoopImage> images = new ArrayList<>();
    private final List<AutoCloseable> closeLast = new ArrayList<>();
    private final TestClock clock = new TestClock(Instant.parse("2026-11-29T22:15:00Z"));
    private final Random random = new Random(7);

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0,
                "loop devices and mount need root");
        tmp = Files.createTempDirectory(Path.of("/tmp"), "jhbt-backup");
        src = Files.createDirectories(tmp.resolve("srv/web"));
        mnt = tmp.resolve("mnt/backup");
        inspect = tmp.resolve("inspect");
        label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (tmp == null) {
            return;
        }
        for (AutoCloseable c : closeLast) {
            c.close();
        }
        for (LoopImage i : images) {
            i.close();
        }
        for (Path p : List.of(inspect, mnt)) {
            if (isMountPoint(p)) {
                LoopImage.run("umount", p.toString());
            }
        }
        LoopImage.run("rm", "-rf", "--one-file-system", tmp.toString());
    }

    private LoopImage image(String lbl, int mb) throws Exception {
        LoopImage i = new LoopImage(tmp.resolve(lbl + ".img"), lbl, mb);
        images.add(i);
        return i;
    }

    private BackupService service(int keep, Optional<Path> device, Duration poll) {
        BackupSpec spec = new BackupSpec("drawer", Optional.of(label), Optional.empty(), device, mnt, List.of(src),
                keep, poll, true, List.of(), 0);
        SyncConfig cfg = new SyncConfig(null, tmp.resolve("state"), SyncConfig.DEFAULT_SSH, Map.of(), List.of(),
                List.of(spec));
        BackupService s = new BackupService(cfg, clock);
        closeLast.add(s);
        return s;
    }

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** Five 1 MiB files, one of them in a subdirectory. */
    private void fillSource() throws Exception {
        for (int i = 0; i < 4; i++) {
            Files.write(src.resolve("f" + i), randomBytes(MIB));
        }
        Files.createDirectories(src.resolve("sub"));
        Files.write(src.resolve("sub/g"), randomBytes(MIB));
    }

    private static boolean isMountPoint(Path p) throws Exception {
        return Files.exists(p) && MountTable.topAt(MountTable.read(), p.toRealPath()).isPresent();
    }

    private static List<String> dirList(Path p) throws Exception {
        return Trees.children(p).stream().sorted().toList();
    }

    private Path snapDir(String snap) {
        return inspect.resolve("jheartbeat/drawer").resolve(snap).resolve(src.toString().substring(1));
    }

    private static long inode(Path p) throws Exception {
        return ((Number) Files.getAttribute(p, "unix:ino")).longValue();
    }

    private static int links(Path p) throws Exception {
        return ((Number) Files.getAttribute(p, "unix:nlink")).intValue();
    }

    @Test
    void insertedDiskGetsASnapshotAndTheSecondRunHardLinksUnchangedFiles() throws Exception {
        fillSource();
        byte[] oldF0 = Files.readAllBytes(src.resolve("f0"));
        LoopImage disk = image(label, 64);
        BackupService svc = service(7, Optional.empty(), Duration.ofSeconds(10));

        assertThat(svc.pollOnce("drawer")).isEmpty();
        assertThat(svc.status().get(0).disk()).isEqualTo(DiskState.MISSING);
        assertThat(svc.probe("drawer").state()).isEqualTo(DiskState.MISSING);

        String dev = disk.attach();
        DiskProbe now = svc.probe("drawer");
        assertThat(now.state()).as("the probe sees the disk before any poll recorded it").isEqualTo(DiskState.PRESENT);
        assertThat(now.device()).contains(Path.of(dev));
        assertThat(svc.status().get(0).disk()).as("the recorded state is only the last poll's").isEqualTo(DiskState.MISSING);
        BackupOutcome first = svc.pollOnce("drawer").orElseThrow();
        assertThat(first.result()).as(first.message()).isEqualTo(BackupResult.OK);
        assertThat(first.snapshot()).contains("2026-11-29T221500Z");
        assertThat(first.files()).isEqualTo(5);
        assertThat(first.filesChanged()).isEqualTo(5);
        assertThat(first.bytesTransferred()).isEqualTo(5L * MIB);
        assertThat(first.verified()).isTrue();
        assertThat(first.message()).isEqualTo("snapshot 2026-11-29T221500Z done: 5 files, 5 changed (5.2 MB), verified");
        assertThat(isMountPoint(mnt)).as("unmounted after the run").isFalse();
        clock.advance(Duration.ofHours(1));
        assertThat(svc.pollOnce("drawer")).as("no second run while the disk stays in").isEmpty();
        BackupState s1 = svc.status().get(0);
        assertThat(s1.lastResult()).isEqualTo(BackupResult.OK);
        assertThat(s1.disk()).isEqualTo(DiskState.PRESENT);
        assertThat(s1.snapshots()).isEqualTo(1);
        assertThat(s1.newestSnapshot()).contains("2026-11-29T221500Z");

        Files.write(src.resolve("f0"), randomBytes(MIB));
        Files.setLastModifiedTime(src.resolve("f0"), FileTime.from(Instant.now().plusSeconds(60)));
        BackupOutcome second = svc.runNow("drawer");
        assertThat(second.result()).as(second.message()).isEqualTo(BackupResult.OK);
        assertThat(second.snapshot()).contains("2026-11-29T231500Z");
        assertThat(second.filesChanged()).isEqualTo(1);
        assertThat(second.bytesTransferred()).isEqualTo(MIB);
        BackupState s2 = svc.status().get(0);
        long growth = s2.bytesUsed() - s1.bytesUsed();
        assertThat(growth).as("disk usage grows by about the one changed file").isBetween(MIB - 64 * 1024L, MIB + 256 * 1024L);

        disk.mountRo(inspect);
        try {
            Path a = snapDir("2026-11-29T221500Z");
            Path b = snapDir("2026-11-29T231500Z");
            for (String f : List.of("f1", "f2", "f3", "sub/g")) {
                assertThat(inode(b.resolve(f))).as(f + " hard-linked").isEqualTo(inode(a.resolve(f)));
                assertThat(links(b.resolve(f))).isEqualTo(2);
                assertThat(Files.readAllBytes(b.resolve(f))).isEqualTo(Files.readAllBytes(src.resolve(f)));
            }
            assertThat(inode(b.resolve("f0"))).isNotEqualTo(inode(a.resolve("f0")));
            assertThat(Files.readAllBytes(a.resolve("f0"))).isEqualTo(oldF0);
            assertThat(Files.readAllBytes(b.resolve("f0"))).isEqualTo(Files.readAllBytes(src.resolve("f0")));
            assertThat(dirList(inspect.resolve("jheartbeat/drawer"))).containsExactly("2026-11-29T221500Z", "2026-11-29T231500Z");
        } finally {
            LoopImage.sh("umount", inspect.toString());
        }

        List<Snapshot> list = svc.list("drawer");
        assertThat(list).extracting(Snapshot::name).containsExactly("2026-11-29T221500Z", "2026-11-29T231500Z");
        assertThat(list).allSatisfy(sn -> {
            assertThat(sn.files()).isEqualTo(5);
            assertThat(sn.bytes()).isEqualTo(5L * MIB);
        });
        assertThat(list.get(0).taken()).isEqualTo(Instant.parse("2026-11-29T22:15:00Z"));
        assertThat(isMountPoint(mnt)).isFalse();

        Path restored = svc.restore("drawer", src.resolve("f0"), Optional.of("2026-11-29T221500Z"), Optional.empty(), false);
        assertThat(restored).isEqualTo(src.resolve("f0.restored-2026-11-29T221500Z"));
        assertThat(Files.readAllBytes(restored)).isEqualTo(oldF0);
        assertThatThrownBy(() -> svc.restore("drawer", src.resolve("f0"), Optional.of("2026-11-29T221500Z"),
                Optional.empty(), false)).isInstanceOf(BackupException.class).hasMessageContaining("exists: not overwritten");
        // --to DIR: the directory to restore into, created if missing; the copy is DIR/<name>
        Path dirCopy = svc.restore("drawer", src.resolve("sub"), Optional.empty(), Optional.of(tmp.resolve("out")), false);
        assertThat(dirCopy).isEqualTo(tmp.resolve("out/sub"));
        assertThat(Files.readAllBytes(tmp.resolve("out/sub/g"))).isEqualTo(Files.readAllBytes(src.resolve("sub/g")));
        Path fileCopy = svc.restore("drawer", src.resolve("f0"), Optional.of("2026-11-29T221500Z"),
                Optional.of(tmp.resolve("into/deeper")), false);
        assertThat(fileCopy).isEqualTo(tmp.resolve("into/deeper/f0"));
        assertThat(Files.isDirectory(tmp.resolve("into/deeper"))).isTrue();
        assertThat(Files.readAllBytes(fileCopy)).isEqualTo(oldF0);
        Files.writeString(fileCopy, "mine");
        assertThatThrownBy(() -> svc.restore("drawer", src.resolve("f0"), Optional.empty(),
                Optional.of(tmp.resolve("into/deeper")), false)).isInstanceOf(BackupException.class)
                .hasMessage(fileCopy + " exists: not overwritten (restore into another directory with --to DIR, "
                        + "or overwrite with --force)");
        assertThat(Files.readString(fileCopy)).isEqualTo("mine");
        assertThatThrownBy(() -> svc.restore("drawer", src.resolve("f0"), Optional.empty(), Optional.of(fileCopy), false))
                .isInstanceOf(BackupException.class).hasMessage(fileCopy
                        + " is not a directory: give the directory to restore into (it is created if missing)");
        assertThat(Files.readString(fileCopy)).isEqualTo("mine");
        assertThat(isMountPoint(mnt)).isFalse();
    }

    @Test
    void theDaemonSnapshotsOnInsertionOnceAndReportsRemovalWithoutWritingToTheMountPoint() throws Exception {
        fillSource();
        LoopImage disk = image(label, 64);
        BackupService svc = service(7, Optional.empty(), Duration.ofMillis(200));
        svc.start();
        waitFor(() -> Files.exists(tmp.resolve("state/backup-drawer.state")), "first poll");
        assertThat(svc.status().get(0).disk()).isEqualTo(DiskState.MISSING);

        disk.attach();
        waitFor(() -> svc.status().get(0).lastResult() == BackupResult.OK, "snapshot after insertion");
        clock.advance(Duration.ofHours(1));
        Thread.sleep(1500);
        assertThat(svc.status().get(0).snapshots()).as("not snapshotted again while in the drawer").isEqualTo(1);

        disk.detach();
        assertThat(svc.probe("drawer").state()).isEqualTo(DiskState.MISSING);
        waitFor(() -> svc.status().get(0).disk() == DiskState.MISSING, "removal seen");
        BackupOutcome manual = svc.runNow("drawer");
        assertThat(manual.result()).isEqualTo(BackupResult.REFUSED);
        assertThat(manual.disk()).isEqualTo(DiskState.MISSING);
        assertThat(manual.message()).isEqualTo("disk LABEL=" + label + " is missing: no snapshot taken");
        BackupState st = svc.status().get(0);
        assertThat(st.disk()).isEqualTo(DiskState.MISSING);
        assertThat(st.lastResult()).as("the last real run").isEqualTo(BackupResult.OK);
        assertThat(isMountPoint(mnt)).isFalse();
        assertThat(dirList(mnt)).as("nothing written to the bare mount point").isEmpty();
        assertThatThrownBy(() -> svc.list("drawer")).isInstanceOf(BackupException.class)
                .hasMessage("disk LABEL=" + label + " is missing");
    }

    @Test
    void aFullDiskIsAClearErrorAndLeavesThePreviousSnapshotIntact() throws Exception {
        fillSource();
        LoopImage disk = image(label, 16);
        disk.attach();
        BackupService svc = service(7, Optional.empty(), Duration.ofSeconds(10));
        assertThat(svc.runNow("drawer").result()).isEqualTo(BackupResult.OK);
        List<byte[]> before = new ArrayList<>();
        for (String f : List.of("f0", "f1", "f2", "f3", "sub/g")) {
            before.add(Files.readAllBytes(src.resolve(f)));
        }

        Files.write(src.resolve("big"), randomBytes(20 * MIB));
        clock.advance(Duration.ofHours(1));
        BackupOutcome full = svc.runNow("drawer");
        assertThat(full.result()).as(full.message()).isEqualTo(BackupResult.FULL);
        assertThat(full.message()).matches("disk LABEL=" + label
                + " is full \\(\\d+ bytes free\\): snapshot not taken, previous snapshots intact");
        assertThat(svc.status().get(0).lastResult()).isEqualTo(BackupResult.FULL);
        assertThat(svc.status().get(0).newestSnapshot()).contains("2026-11-29T221500Z");
        assertThat(isMountPoint(mnt)).isFalse();

        disk.mountRo(inspect);
        try {
            assertThat(dirList(inspect.resolve("jheartbeat/drawer"))).as("no .incomplete left")
                    .containsExactly("2026-11-29T221500Z");
            Path a = snapDir("2026-11-29T221500Z");
            List<String> names = List.of("f0", "f1", "f2", "f3", "sub/g");
            for (int i = 0; i < names.size(); i++) {
                assertThat(Files.readAllBytes(a.resolve(names.get(i)))).isEqualTo(before.get(i));
            }
            assertThat(a.resolve("big")).doesNotExist();
        } finally {
            LoopImage.sh("umount", inspect.toString());
        }
    }

    @Test
    void anotherDiskAtTheConfiguredDeviceIsTheWrongDisk() throws Exception {
        fillSource();
        String other = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
        LoopImage wrong = image(other, 16);
        Path dev = Path.of(wrong.attach());
        BackupService svc = service(7, Optional.of(dev), Duration.ofSeconds(10));
        assertThat(svc.pollOnce("drawer")).isEmpty();
        BackupState st = svc.status().get(0);
        assertThat(st.disk()).isEqualTo(DiskState.WRONG_DISK);
        assertThat(st.message()).isEqualTo("wrong disk at " + dev + ": found LABEL=" + other + ", expected LABEL=" + label);
        BackupOutcome o = svc.runNow("drawer");
        assertThat(o.result()).isEqualTo(BackupResult.REFUSED);
        assertThat(o.disk()).isEqualTo(DiskState.WRONG_DISK);
        assertThat(o.message()).contains(other).contains(label);
        assertThat(isMountPoint(mnt)).isFalse();
        assertThat(mnt).as("nothing created or written at the mount point").doesNotExist();
    }

    @Test
    void aDiskE2fsckCannotRepairIsRefusedAndNotMounted() throws Exception {
        fillSource();
        LoopImage disk = image(label, 16);
        // clear the root inode and mark the filesystem not clean: e2fsck -p then exits 4
        Process p = new ProcessBuilder("debugfs", "-w", "-f", "-", disk.image.toString()).redirectErrorStream(true).start();
        p.getOutputStream().write("clri <2>\nssv state 0\n".getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor()).isZero();
        disk.attach();
        BackupService svc = service(7, Optional.empty(), Duration.ofSeconds(10));
        BackupOutcome o = svc.runNow("drawer");
        assertThat(o.result()).isEqualTo(BackupResult.REFUSED);
        assertThat(o.message()).startsWith("e2fsck -p " + disk.device() + " (LABEL=" + label
                + ") found errors it cannot fix (exit 4): ").contains("Root inode is not a directory")
                .endsWith(" - no snapshot taken; run e2fsck by hand");
        assertThat(svc.status().get(0).lastResult()).isEqualTo(BackupResult.REFUSED);
        assertThat(isMountPoint(mnt)).isFalse();
        assertThat(mnt).doesNotExist();
    }

    @Test
    void rotationKeepsTheNewestTwo() throws Exception {
        fillSource();
        LoopImage disk = image(label, 64);
        disk.attach();
        BackupService svc = service(2, Optional.empty(), Duration.ofSeconds(10));
        for (int i = 0; i < 3; i++) {
            // same size, same second: rsync's quick check misses it, the verify and repair pass do not
            Files.writeString(src.resolve("run"), "run " + i);
            BackupOutcome o = svc.runNow("drawer");
            assertThat(o.result()).as(o.message()).isEqualTo(BackupResult.OK);
            assertThat(o.filesChanged()).isEqualTo(i == 0 ? 6 : 1);
            clock.advance(Duration.ofDays(1));
        }
        assertThat(svc.list("drawer")).extracting(Snapshot::name)
                .containsExactly("2026-11-30T221500Z", "2026-12-01T221500Z");
        assertThat(svc.status().get(0).snapshots()).isEqualTo(2);
        Path r = svc.restore("drawer", src.resolve("run"), Optional.empty(), Optional.empty(), false);
        assertThat(Files.readString(r)).isEqualTo("run 2");
    }

    @Test
    void aSecondProcessHoldingTheLockMakesTheRunRefuseAndAForeignMountIsLeftAlone() throws Exception {
        fillSource();
        LoopImage disk = image(label, 16);
        disk.attach();
        BackupService svc = service(7, Optional.empty(), Duration.ofSeconds(10));
        Path lock = tmp.resolve("state/backup-drawer.lock");
        Files.createDirectories(lock.getParent());
        Process holder = new ProcessBuilder("python3", "-c", "import fcntl,sys,time\n"
                + "f=open(sys.argv[1],'a'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(120)",
                lock.toString()).redirectErrorStream(true).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(r.readLine()).isEqualTo("locked");
            BackupOutcome busy = svc.runNow("drawer");
            assertThat(busy.result()).isEqualTo(BackupResult.REFUSED);
            assertThat(busy.message()).startsWith("backup drawer is busy");
            assertThat(isMountPoint(mnt)).isFalse();
        } finally {
            holder.destroyForcibly().waitFor();
        }

        Files.createDirectories(mnt);
        LoopImage.sh("mount", "-t", "tmpfs", "-o", "size=1m", "jhbt-tmpfs", mnt.toString());
        try {
            BackupOutcome o = svc.runNow("drawer");
            assertThat(o.result()).isEqualTo(BackupResult.REFUSED);
            assertThat(o.message()).contains("is already a mount of jhbt-tmpfs");
            assertThat(dirList(mnt)).isEmpty();
        } finally {
            LoopImage.sh("umount", mnt.toString());
        }
        assertThat(svc.runNow("drawer").result()).isEqualTo(BackupResult.OK);
    }

    private static void waitFor(Supplier<Boolean> cond, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!cond.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }
}
