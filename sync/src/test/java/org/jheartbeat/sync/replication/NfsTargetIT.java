package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * NFS targets against a real NFS server of a lab node: NFS-Ganesha (Debian's {@code nfs-ganesha} with its VFS
 * FSAL, NFSv4 over TCP) in the network namespace of "node2" on 198.18.28.2; the job runs its server operations
 * in "node1"'s namespace (198.18.28.1) through {@code nsenter --net}, which keeps this process's mount
 * namespace, so a mount it makes is the one the job checks in {@code /proc/self/mountinfo}.
 *
 * <p>Why a user-space server: this machine's kernel (a Firecracker guest, no loadable modules) has neither
 * {@code nfsd} nor an NFS client ({@code /proc/filesystems} lists no nfs), so {@code rpc.nfsd}/{@code exportfs}
 * cannot run in any namespace, and no NFS file system can be mounted here either. So: the RPC ping, the server
 * dying and its link cut are real; a mount is attempted for real and, on such a kernel, refused before any
 * copy (on a kernel with an NFS client the same test expects the copy to land in the export); for the copy
 * that the server's death interrupts, the mount table is given (an nfs4 entry on a local directory), the
 * rsync and its kill are real. Needs root, ganesha.nfsd, ip, nsenter, bash; skipped otherwise. Cleans every
 * namespace, mount and process up, also on failure. About 15 s.
 */
class NfsTargetIT {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final String SERVER = "198.18.28.2";
    private static final String CLIENT = "198.18.28.1";
    private static final String GANESHA = "/usr/bin/ganesha.nfsd";

    @TempDir
    Path tmp;
    String id = Long.toString(ProcessHandle.current().pid() % 100_000);
    String serverNs = "jhbnfs" + id + "s";
    String clientNs = "jhbnfs" + id + "c";
    String serverIf = "jn" + id + "s";
    Path export;
    Path mp;
    Path src;
    Path pidFile;
    NfsOps inClient;
    final List<Runnable> cleanup = new ArrayList<>();

    @BeforeEach
    void lab() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(Files.isExecutable(Path.of(GANESHA)), "needs nfs-ganesha (scripts/setup.sh installs it)");
        assumeTrue(sh("command -v ip && command -v nsenter && command -v bash") == 0, "needs ip, nsenter, bash");
        export = Files.createDirectories(tmp.resolve("export/web"));
        mp = Files.createDirectories(tmp.resolve("mnt/web"));
        src = Files.createDirectories(tmp.resolve("srv/web"));
        Files.writeString(src.resolve("index.html"), "<h1>town hall</h1>");
        pidFile = tmp.resolve("ganesha.pid");
        cleanup.add(() -> sh("umount -f -l " + mp + " 2>/dev/null; true"));
        cleanup.add(() -> sh("ip netns del " + serverNs + " 2>/dev/null; ip netns del " + clientNs + " 2>/dev/null; true"));
        cleanup.add(this::stopGanesha);
        cleanup.get(1).run(); // a namespace left by a killed earlier run
        ok("ip netns add " + serverNs + " && ip netns add " + clientNs
                + " && ip link add " + serverIf + " netns " + serverNs + " type veth peer name jn" + id + "c netns " + clientNs
                + " && ip -n " + serverNs + " addr add " + SERVER + "/24 dev " + serverIf
                + " && ip -n " + clientNs + " addr add " + CLIENT + "/24 dev jn" + id + "c"
                + " && ip -n " + serverNs + " link set lo up && ip -n " + clientNs + " link set lo up"
                + " && ip -n " + serverNs + " link set " + serverIf + " up && ip -n " + clientNs + " link set jn" + id + "c up");
        startGanesha();
        inClient = new NfsOps(List.of("nsenter", "--net=/run/netns/" + clientNs));
    }

    @AfterEach
    void clean() {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).run();
        }
    }

    private void startGanesha() throws Exception {
        Path conf = tmp.resolve("ganesha.conf");
        Files.writeString(conf, """
                NFS_CORE_PARAM { Protocols = 4; Enable_NLM = false; Enable_RQUOTA = false; NFS_Port = 2049; }
                NFSV4 { Graceless = true; }
                EXPORT { Export_Id = 1; Path = %s; Pseudo = /export/web; Access_Type = RW; Squash = No_Root_Squash;
                         Protocols = 4; Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
                """.formatted(export));
        // ganesha.nfsd daemonizes and writes its pid file
        ok("nsenter --net=/run/netns/" + serverNs + " " + GANESHA + " -f " + conf + " -L " + tmp.resolve("ganesha.log")
                + " -p " + pidFile + " -N NIV_EVENT");
        NfsTarget t = target(true, Duration.ofSeconds(2));
        for (int i = 0; i < 100 && inClient(t).isPresent(); i++) {
            Thread.sleep(100); // its start is the machine's; the bound only catches a hang
        }
        assertThat(inClient(t)).as("ganesha answers the RPC ping").isEmpty();
    }

    private Optional<String> inClient(NfsTarget t) throws IOException {
        return new NfsOps(List.of("nsenter", "--net=/run/netns/" + clientNs)).ping(t);
    }

    private void stopGanesha() {
        try {
            if (!Files.exists(pidFile)) {
                return;
            }
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isPresent() && h.get().info().command().orElse("").endsWith("ganesha.nfsd")) {
                h.get().destroy();
                try {
                    h.get().onExit().get(10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    h.get().destroyForcibly();
                } catch (InterruptedException e) {
                    h.get().destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
            Files.deleteIfExists(pidFile);
        } catch (IOException | RuntimeException e) {
            System.err.println("cleanup: " + e);
        }
    }

    private NfsTarget target(boolean automount, Duration timeout) {
        return new NfsTarget(SERVER, "/export/web", mp, List.of("vers=4.2", "soft", "timeo=20", "retrans=1"), timeout,
                automount);
    }

    private ReplicationJobSpec job(NfsTarget t, List<String> opts) {
        return new ReplicationJobSpec("web", "g", List.of(src), Optional.of(mp), "*/5 * * * *", true, opts, false, 0.5,
                0, Duration.ofSeconds(1), Duration.ofMinutes(2), 0).withNfs(t);
    }

    private SyncConfig cfg(ReplicationJobSpec... jobs) {
        return new SyncConfig(null, tmp.resolve("state"), List.of("ssh"), Map.of("node1", CLIENT, "node2", SERVER),
                List.of(jobs), List.of());
    }

    private ReplicationRunner runner(SyncConfig cfg, NfsTargetRun.Mounts mounts) {
        return new ReplicationRunner(cfg, "node1", new TestClock(T0), d -> { }, "rsync", inClient, mounts);
    }

    private long filesUnder(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.equals(dir)).count();
        }
    }

    @Test
    void theJobMountsTheExportOrIsRefusedBeforeCopying() throws Exception {
        boolean kernelClient = Files.readString(Path.of("/proc/filesystems")).matches("(?s).*\\snfs4?\\n.*");
        SyncConfig cfg = cfg(job(target(true, Duration.ofSeconds(5)), List.of()));
        RunOutcome o = runner(cfg, MountTable::read).run(cfg.jobs().get(0), null, RunTrigger.SCHEDULE, null);
        if (kernelClient) {
            assertThat(o.result()).as(o.message()).isEqualTo(JobResult.OK);
            assertThat(export.resolve(src.toString().substring(1)).resolve("index.html")).hasContent("<h1>town hall</h1>");
        } else {
            assertThat(o.result()).isEqualTo(JobResult.FAILED_FATAL);
            assertThat(o.message()).startsWith("cannot mount " + SERVER + ":/export/web on " + mp + ": mount exit ")
                    .endsWith("; nothing copied");
            assertThat(filesUnder(mp)).as("the local mount point stays empty").isZero();
        }
        sh("umount -f -l " + mp + " 2>/dev/null; true");
        SyncConfig manual = cfg(job(target(false, Duration.ofSeconds(5)), List.of()));
        o = runner(manual, MountTable::read).run(manual.jobs().get(0), null, RunTrigger.SCHEDULE, null);
        assertThat(o.message()).isEqualTo("nothing is mounted on " + mp + " (NFS " + SERVER + ":/export/web expected);"
                + " mount it (e.g. from fstab) or set automount: true; nothing copied");
        assertThat(filesUnder(mp)).isZero();
    }

    @Test
    void theServerCutOffDuringACopyFailsTheJobWithinItsBoundAndStatusStillAnswers() throws Exception {
        byte[] big = new byte[3_000_000];
        new Random(28).nextBytes(big);
        Files.write(src.resolve("big.bin"), big);
        // this kernel cannot mount NFS: the mount table says the export is mounted on a local directory
        NfsTargetRun.Mounts mounted = () -> List.of(new MountTable.Entry("0:99", mp, "nfs4", SERVER + ":/export/web",
                "rw"));
        ReplicationJobSpec slow = job(target(true, Duration.ofSeconds(2)), List.of("--bwlimit=200"));
        SyncConfig cfg = cfg(slow);
        ReplicationRunner runner = runner(cfg, mounted);
        try (ReplicationService svc = new ReplicationService(cfg, "node1", () -> Set.of("g"), new TestClock(T0), runner)) {
            CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> svc.runNow("web", null));
            Path dest = mp.resolve(src.toString().substring(1));
            for (int i = 0; i < 1200 && !copying(dest); i++) {
                Thread.sleep(50);
            }
            assertThat(copying(dest)).as("rsync writes big.bin").isTrue();
            ok("ip -n " + serverNs + " link set " + serverIf + " down");
            long cutAt = System.nanoTime();
            // the job's thread waits on a child; a status request is answered meanwhile
            assertThat(CompletableFuture.supplyAsync(svc::status).get(10, TimeUnit.SECONDS))
                    .extracting(JobState::result).containsExactly(JobResult.RUNNING);
            RunOutcome o = run.get(60, TimeUnit.SECONDS);
            System.out.printf("nfs-target: the copy stopped %d ms after the server's link went down (timeout 2 s:"
                    + " a ping every 2 s, each bounded by 2 s)%n", (System.nanoTime() - cutAt) / 1_000_000);
            assertThat(o.result()).isEqualTo(JobResult.FAILED_TRANSIENT);
            assertThat(o.message()).isEqualTo("NFS server " + SERVER + " not answering within 2 s (RPC ping of port"
                    + " 2049); copy of " + src + " stopped");
            assertThat(svc.status()).extracting(JobState::message).containsExactly(o.message());
            assertThat(dest.resolve("big.bin")).doesNotExist();

            // the next run tries again: the link is back, the copy completes
            ok("ip -n " + serverNs + " link set " + serverIf + " up");
            // the client's neighbour entry failed while the link was down ("No route to host" for a moment)
            for (int i = 0; i < 300 && inClient(slow.nfs().orElseThrow()).isPresent(); i++) {
                Thread.sleep(100);
            }
            ReplicationJobSpec fast = job(target(true, Duration.ofSeconds(2)), List.of());
            RunOutcome again = runner.run(fast, null, RunTrigger.SCHEDULE, null);
            assertThat(again.result()).as(again.message()).isEqualTo(JobResult.OK);
            assertThat(dest.resolve("big.bin")).hasBinaryContent(big);

            // the server process dies: refused at once, nothing copied
            stopGanesha();
            RunOutcome dead = runner.run(fast, null, RunTrigger.SCHEDULE, null);
            assertThat(dead.result()).isEqualTo(JobResult.FAILED_TRANSIENT);
            assertThat(dead.message()).startsWith("NFS server " + SERVER + " not answering: no connection to port 2049")
                    .endsWith("; nothing copied");
        }
    }

    private static boolean copying(Path dest) throws IOException {
        if (!Files.isDirectory(dest)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dest)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith(".big.bin."));
        }
    }

    private static int sh(String cmd) {
        try {
            Process p = new ProcessBuilder("sh", "-c", cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static void ok(String cmd) {
        assertThat(sh(cmd)).as(cmd).isZero();
    }
}
