package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.config.NfsTarget;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NFS targets with real child processes, real rsync and an RPC responder on loopback
 * ({@link FakeNfsServer}); the mount table is given, since this test mounts nothing (NfsTargetIT runs
 * a real NFS server). Bounds only catch hangs.
 */
class NfsTargetTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path tmp;
    Path src;
    Path mp;
    FakeNfsServer server;
    TestClock clock = new TestClock(T0);
    SyncConfig cfg;
    List<MountTable.Entry> mounts = List.of();

    @BeforeEach
    void setUp() throws Exception {
        src = Files.createDirectories(tmp.resolve("srv/web"));
        Files.writeString(src.resolve("index.html"), "<h1>web</h1>");
        mp = Files.createDirectories(tmp.resolve("mnt/web"));
        server = new FakeNfsServer();
        cfg = new SyncConfig(null, tmp.resolve("state"), List.of("ssh"), Map.of("node1", "127.0.0.1",
                "node2", "127.0.0.2"), List.of(), List.of());
    }

    @AfterEach
    void tearDown() throws Exception {
        server.close();
    }

    private NfsTarget target(boolean automount) {
        return new NfsTarget("127.0.0.1", "/export/web", mp, List.of("vers=4.2", "soft", "port=" + server.port()),
                Duration.ofSeconds(1), automount);
    }

    private ReplicationJobSpec job(NfsTarget t, List<String> rsyncOptions) {
        return new ReplicationJobSpec("web", "g", List.of(src), Optional.of(mp), "*/5 * * * *", true, rsyncOptions,
                false, 0.5, 2, Duration.ofSeconds(1), Duration.ofMinutes(2), 0).withNfs(t);
    }

    private ReplicationRunner runner() {
        return new ReplicationRunner(cfg, "node1", clock, d -> { }, "rsync", NfsOps.system(), () -> mounts);
    }

    private MountTable.Entry nfsAtMountPoint(String source) {
        return new MountTable.Entry("0:52", mp, "nfs4", source, "rw,relatime");
    }

    private long filesUnder(Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    /** Whether rsync writes its temporary file of big.bin in {@code dest}. */
    private static boolean copying(Path dest) throws Exception {
        if (!Files.isDirectory(dest)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dest)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith(".big.bin."));
        }
    }

    @Test
    void mountinfoDecidesNotAPathTest() {
        NfsTarget t = target(true);
        List<MountTable.Entry> real = MountTable.parse("29 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
                + "650 29 0:52 / " + mp + " rw,relatime shared:1 - nfs4 127.0.0.1:/export/web/ rw,vers=4.2\n");
        assertThat(NfsMountCheck.check(real, t).state()).isEqualTo(NfsMountCheck.State.MOUNTED);
        assertThat(NfsMountCheck.check(List.of(), t).reason()).isEqualTo("nothing is mounted on " + mp
                + " (NFS 127.0.0.1:/export/web expected)");
        List<MountTable.Entry> disk = List.of(new MountTable.Entry("8:3", mp, "ext4", "/dev/sda3", "rw"));
        assertThat(NfsMountCheck.check(disk, t).reason()).isEqualTo(mp + " is ext4 /dev/sda3, not NFS"
                + " 127.0.0.1:/export/web; unmount it or change the job's target");
        assertThat(NfsMountCheck.check(List.of(nfsAtMountPoint("127.0.0.1:/export/mail")), t).reason())
                .startsWith(mp + " is NFS 127.0.0.1:/export/mail, not 127.0.0.1:/export/web");
        // a later mount on top decides (here a tmpfs hiding the export)
        List<MountTable.Entry> hidden = List.of(nfsAtMountPoint("127.0.0.1:/export/web"),
                new MountTable.Entry("0:60", mp, "tmpfs", "tmpfs", "rw"));
        assertThat(NfsMountCheck.check(hidden, t).state()).isEqualTo(NfsMountCheck.State.OTHER);
    }

    @Test
    void aMissingMountIsRefusedBeforeAnyByteIsCopied() throws Exception {
        RunOutcome o = runner().run(job(target(false), List.of()), null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(o.message()).isEqualTo("nothing is mounted on " + mp + " (NFS 127.0.0.1:/export/web expected);"
                + " mount it (e.g. from fstab) or set automount: true; nothing copied");
        assertThat(filesUnder(mp)).isZero();

        mounts = List.of(new MountTable.Entry("8:3", mp, "ext4", "/dev/sda3", "rw"));
        o = runner().run(job(target(true), List.of()), null, RunTrigger.SCHEDULE, null);
        assertThat(o.message()).startsWith(mp + " is ext4 /dev/sda3, not NFS 127.0.0.1:/export/web");
        assertThat(filesUnder(mp)).isZero();
        assertThat(new JobStateStore(cfg.stateDir()).read("web").message()).endsWith("; nothing copied");
    }

    @Test
    void aServerThatDoesNotAnswerFailsTheJobWithinItsBound() throws Exception {
        server.answering = false;
        mounts = List.of(nfsAtMountPoint("127.0.0.1:/export/web"));
        RunOutcome o = CompletableFuture.supplyAsync(() -> runner().run(job(target(true), List.of()), null,
                RunTrigger.SCHEDULE, null)).get(60, TimeUnit.SECONDS);
        assertThat(o.result()).isEqualTo(JobResult.FAILED_TRANSIENT);
        assertThat(o.message()).isEqualTo("NFS server 127.0.0.1 not answering within 1 s (RPC ping of port "
                + server.port() + "); nothing copied");
        assertThat(filesUnder(mp)).isZero();

        server.answering = true; // the next run tries again
        o = runner().run(job(target(true), List.of()), null, RunTrigger.SCHEDULE, null);
        assertThat(o.result()).as(o.message()).isEqualTo(JobResult.OK);
        assertThat(mp.resolve(src.toString().substring(1)).resolve("index.html")).hasContent("<h1>web</h1>");
        assertThat(ReplicaStamp.read(ReplicaStamp.targetFile(mp, "web"))).isPresent();
    }

    @Test
    void aServerThatDiesDuringTheCopyStopsItAndLeavesTheThreadUsable() throws Exception {
        byte[] big = new byte[3_000_000];
        new Random(7).nextBytes(big);
        Files.write(src.resolve("big.bin"), big);
        mounts = List.of(nfsAtMountPoint("127.0.0.1:/export/web"));
        Path dest = mp.resolve(src.toString().substring(1));
        AtomicReference<RunOutcome> out = new AtomicReference<>();
        AtomicBoolean interruptedAfter = new AtomicBoolean(true);
        // --bwlimit makes the copy last ~15 s, so the server dies while rsync writes
        Thread t = new Thread(() -> {
            out.set(runner().run(job(target(true), List.of("--bwlimit=200")), null, RunTrigger.SCHEDULE, null));
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        for (int i = 0; i < 1200 && !copying(dest); i++) {
            Thread.sleep(50);
        }
        assertThat(copying(dest)).as("rsync writes big.bin").isTrue();
        server.answering = false;
        t.join(60_000);
        assertThat(t.isAlive()).as("the run ended").isFalse();
        assertThat(out.get().result()).isEqualTo(JobResult.FAILED_TRANSIENT);
        assertThat(out.get().message()).isEqualTo("NFS server 127.0.0.1 not answering within 1 s (RPC ping of port "
                + server.port() + "); copy of " + src + " stopped");
        assertThat(interruptedAfter).as("the watch's interrupt is consumed").isFalse();
        assertThat(dest.resolve("big.bin")).doesNotExist();
    }

    /** The takeover's replica-age line never reads the mount: a FIFO there stands for a file whose read hangs. */
    @Test
    void theReplicaAgeBeforeATakeoverDoesNotTouchTheMount() throws Exception {
        Path stamp = ReplicaStamp.targetFile(mp, "web");
        Files.createDirectories(stamp.getParent());
        assertThat(new ProcessBuilder("mkfifo", stamp.toString()).start().waitFor()).isZero();
        SyncConfig c = new SyncConfig(null, tmp.resolve("state3"), List.of("ssh"), Map.of(), List.of(job(target(true),
                List.of())), List.of());
        try (ReplicationService svc = new ReplicationService(c, "node1", () -> Set.of("g"), clock,
                new ReplicationRunner(c, "node1", clock, d -> { }, "rsync"))) {
            CompletableFuture.runAsync(() -> svc.logReplicaAge("g")).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJobWhoseServerIsTheDeadPeerIsSkippedWithAStatusLine() throws Exception {
        NfsTarget onPeer = new NfsTarget("127.0.0.2", "/export/web", mp, List.of(), Duration.ofSeconds(1), true);
        ReplicationJobSpec j = new ReplicationJobSpec("web", "g", List.of(src), Optional.of(mp), "*/10 * * * * *", true,
                List.of(), false, 0.5, 0, Duration.ofSeconds(1), Duration.ofMinutes(1), 0).withNfs(onPeer);
        SyncConfig c = new SyncConfig(null, tmp.resolve("state2"), List.of("ssh"), Map.of("node1", "127.0.0.1",
                "node2", "127.0.0.2"), List.of(j), List.of());
        AtomicBoolean up = new AtomicBoolean(false);
        try (ReplicationService svc = new ReplicationService(c, "node1", () -> Set.of("g"), clock,
                new ReplicationRunner(c, "node1", clock, d -> { }, "rsync"))) {
            svc.peerUp(up::get);
            Files.createDirectories(c.stateDir());
            // a run that started before the death (here: hb sync run in another process) ends with its own
            // state; the first skip after it records the status line
            try (OtherProcessLock held = OtherProcessLock.hold(Files.createDirectories(tmp.resolve("lockchild")),
                    c.stateDir().resolve("web.lock"))) {
                clock.advance(Duration.ofSeconds(10));
                assertThat(svc.tick()).isEmpty();
                assertThat(new JobStateStore(c.stateDir()).read("web").result()).isEqualTo(JobResult.NEVER);
            }
            clock.advance(Duration.ofSeconds(10));
            assertThat(svc.tick()).isEmpty();
            JobState s = new JobStateStore(c.stateDir()).read("web");
            assertThat(s.result()).isEqualTo(JobResult.SKIPPED);
            assertThat(s.message()).isEqualTo("skipped: NFS server 127.0.0.2 is peer node2, which is dead;"
                    + " not replicating to it until it is back");
            assertThat(svc.status()).extracting(JobState::result).containsExactly(JobResult.SKIPPED);
            up.set(true);
            clock.advance(Duration.ofSeconds(10));
            assertThat(svc.tick()).containsExactly("web");
        }
        // a server that is not the peer is not skipped for the peer's sake
        assertThat(target(true).servedBy("node2", "127.0.0.2")).isFalse();
        assertThat(onPeer.servedBy("node2", "127.0.0.2")).isTrue();
        assertThat(new NfsTarget("node2", "/x", mp, List.of(), Duration.ofSeconds(1), true).servedBy("node2", null))
                .isTrue();
    }
}
