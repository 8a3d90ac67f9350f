package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.TestClock;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The peer path for real: rsync over ssh to an sshd on 127.0.0.1 that runs in its own mount
 * namespace, where the source's parent directory is bind-mounted from another directory. So the
 * "peer" sees the same absolute path as the source, but it is a different directory. Needs root,
 * sshd, ssh-keygen and unshare; skipped otherwise. Run by failsafe ({@code mvn verify}).
 */
class ReplicationPeerIT {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    @TempDir
    Path base;
    Process sshd;
    Path src;
    Path peerView;
    List<String> ssh;

    @BeforeEach
    void startPeer() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "needs /usr/sbin/sshd");
        assumeTrue(run("unshare", "-m", "true") == 0, "needs unshare -m");
        Files.createDirectories(Path.of("/run/sshd"));
        assertThat(run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", base.resolve("host_key").toString())).isZero();
        assertThat(run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", base.resolve("client_key").toString())).isZero();
        Files.copy(base.resolve("client_key.pub"), base.resolve("authorized_keys"));
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(base.resolve("sshd_config"), "Port " + port + "\nListenAddress 127.0.0.1\nHostKey "
                + base.resolve("host_key") + "\nAuthorizedKeysFile " + base.resolve("authorized_keys")
                + "\nPermitRootLogin prohibit-password\nPasswordAuthentication no\nStrictModes no\nUsePAM no\n"
                + "PidFile " + base.resolve("sshd.pid") + "\n");
        Path srv = Files.createDirectories(base.resolve("srv"));
        peerView = Files.createDirectories(base.resolve("peer-srv"));
        src = Files.createDirectories(srv.resolve("web"));
        sshd = new ProcessBuilder("unshare", "-m", "sh", "-c", "mount --make-rprivate / && mount --bind " + peerView + " "
                + srv + " && exec /usr/sbin/sshd -D -f " + base.resolve("sshd_config") + " -E " + base.resolve("sshd.log"))
                .redirectErrorStream(true).redirectOutput(base.resolve("unshare.out").toFile()).start();
        int p = port;
        // sshd's start is the machine's: a bound that only catches a hang (CI is a busy 2-core machine)
        await().atMost(60, TimeUnit.SECONDS).until(() -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", p), 200);
                return true;
            } catch (IOException e) {
                return false;
            }
        });
        ssh = List.of("ssh", "-p", Integer.toString(port), "-i", base.resolve("client_key").toString(), "-o", "BatchMode=yes",
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR");
    }

    @AfterEach
    void stopPeer() throws InterruptedException {
        if (sshd != null) {
            sshd.destroy();
            sshd.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int run(String... argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @Test
    void replicatesToThePeerOverSshWithDeleteAndStamp() throws Exception {
        Files.writeString(src.resolve("index.html"), "<h1>web</h1>");
        Files.createDirectories(src.resolve("img"));
        Files.writeString(src.resolve("img/logo.svg"), "<svg/>");
        Path stateDir = base.resolve("state");
        SyncConfig cfg = new SyncConfig(null, stateDir, ssh, Map.of("node1", "127.0.0.1", "node2", "127.0.0.1"),
                List.of(), List.of());
        TestClock clock = new TestClock(T0);
        ReplicationRunner runner = new ReplicationRunner(cfg, "node1", clock, d -> { }, "rsync");
        ReplicationJobSpec job = new ReplicationJobSpec("web", "g", List.of(src), Optional.empty(), "*/5 * * * *", true,
                List.of(), false, 0.5, 0, Duration.ZERO, Duration.ofMinutes(1), 0);

        RunOutcome o = runner.run(job, "node2", RunTrigger.HANDOVER, null);
        assertThat(o.result()).as(o.message()).isEqualTo(JobResult.OK);
        assertThat(o.filesTransferred()).isEqualTo(2);
        assertThat(o.bytesTransferred()).isEqualTo(18);
        assertThat(peerView.resolve("web/index.html")).hasContent("<h1>web</h1>");
        assertThat(peerView.resolve("web/img/logo.svg")).hasContent("<svg/>");
        // the state dir is not bind-mounted, so the stamp the peer received is visible here
        assertThat(ReplicaStamp.read(ReplicaStamp.localFile(stateDir, "web"))).contains(new ReplicaStamp("web", "node1", T0, T0));

        Files.delete(src.resolve("img/logo.svg"));
        RunOutcome again = runner.run(job, "node2", RunTrigger.SCHEDULE, null);
        assertThat(again.result()).isEqualTo(JobResult.OK);
        assertThat(again.message()).contains("1 deleted to node2");
        assertThat(peerView.resolve("web/img/logo.svg")).doesNotExist();
        assertThat(peerView.resolve("web/index.html")).exists();

        // a copy that fails sends no stamp: the stamp's rsync, connected while the copy ran, gets
        // an empty list; the peer keeps the stamp of the last good run
        clock.advance(Duration.ofMinutes(5));
        ReplicationJobSpec bad = new ReplicationJobSpec("web", "g", List.of(src), Optional.empty(), "*/5 * * * *", true,
                List.of("--no-such-option"), false, 0.5, 0, Duration.ZERO, Duration.ofMinutes(1), 0);
        RunOutcome failed = runner.run(bad, "node2", RunTrigger.SCHEDULE, null);
        assertThat(failed.result()).isEqualTo(JobResult.FAILED_FATAL);
        assertThat(ReplicaStamp.read(ReplicaStamp.localFile(stateDir, "web")).orElseThrow().start()).isEqualTo(T0);
        clock.advance(Duration.ofMinutes(5));
        assertThat(runner.run(job, "node2", RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);
        assertThat(ReplicaStamp.read(ReplicaStamp.localFile(stateDir, "web")).orElseThrow().start())
                .isEqualTo(T0.plus(Duration.ofMinutes(10)));
    }

    /** Connections sshd accepted so far (one log line each, at sshd's default INFO level). */
    private long connections() throws IOException {
        Path log = base.resolve("sshd.log");
        return Files.exists(log) ? Files.readAllLines(log).stream().filter(l -> l.contains("Accepted publickey")).count() : 0;
    }

    /** Processes that still have this text in their argv (rsync and ssh of the run, by its socket path). */
    private static List<ProcessHandle> withArgument(String text) {
        return ProcessHandle.allProcesses().filter(p -> p.info().arguments()
                .map(a -> java.util.Arrays.stream(a).anyMatch(w -> w.contains(text))).orElse(false)).toList();
    }

    private List<Path> socketDirs(Path stateDir) throws IOException {
        try (var s = Files.list(stateDir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("ssh-")).toList();
        }
    }

    @Test
    void copiesAndStampShareOneSshConnection() throws Exception {
        Files.writeString(src.resolve("index.html"), "<h1>web</h1>");
        Path second = Files.createDirectories(src.getParent().resolve("db"));
        Files.writeString(second.resolve("dump.sql"), "select 1;");
        Path stateDir = base.resolve("state");
        // the admin's own -o options stay (and one of theirs that would keep a master alive is overridden)
        List<String> adminSsh = new java.util.ArrayList<>(ssh);
        adminSsh.addAll(List.of("-o", "ControlPersist=yes", "-o", "ConnectTimeout=20"));
        SyncConfig cfg = new SyncConfig(null, stateDir, adminSsh, Map.of("node2", "127.0.0.1"), List.of(), List.of());
        ReplicationRunner runner = new ReplicationRunner(cfg, "node1", new TestClock(T0), d -> { }, "rsync");
        ReplicationJobSpec job = new ReplicationJobSpec("web", "g", List.of(src, second), Optional.empty(), "*/5 * * * *",
                true, List.of(), false, 0.5, 0, Duration.ZERO, Duration.ofMinutes(1), 0);
        long before = connections();

        RunOutcome o = runner.run(job, "node2", RunTrigger.SCHEDULE, null);

        assertThat(o.result()).as(o.message()).isEqualTo(JobResult.OK);
        assertThat(peerView.resolve("web/index.html")).hasContent("<h1>web</h1>");
        assertThat(peerView.resolve("db/dump.sql")).hasContent("select 1;");
        assertThat(ReplicaStamp.read(ReplicaStamp.localFile(stateDir, "web"))).contains(new ReplicaStamp("web", "node1", T0, T0));
        // two copies and the stamp: one login (before the shared connection: one each, 3)
        assertThat(connections() - before).isEqualTo(1);
        assertThat(socketDirs(stateDir)).isEmpty();
        await().atMost(30, TimeUnit.SECONDS).until(() -> withArgument(stateDir + "/ssh-").isEmpty());
    }

    @Test
    void cancelledRunLeavesNoSshNorSocketAndTheOldStamp() throws Exception {
        Files.writeString(src.resolve("index.html"), "<h1>web</h1>");
        Path stateDir = base.resolve("state");
        SyncConfig cfg = new SyncConfig(null, stateDir, ssh, Map.of("node2", "127.0.0.1"), List.of(), List.of());
        TestClock clock = new TestClock(T0);
        ReplicationRunner runner = new ReplicationRunner(cfg, "node1", clock, d -> { }, "rsync");
        ReplicationJobSpec job = new ReplicationJobSpec("web", "g", List.of(src), Optional.empty(), "*/5 * * * *", true,
                List.of(), false, 0.5, 0, Duration.ZERO, Duration.ofMinutes(1), 0);
        assertThat(runner.run(job, "node2", RunTrigger.SCHEDULE, null).result()).isEqualTo(JobResult.OK);

        // a copy slow enough to be cancelled while it runs through the shared connection
        byte[] big = new byte[2 * 1024 * 1024];
        new java.util.Random(1).nextBytes(big);
        Files.write(src.resolve("big.bin"), big);
        ReplicationJobSpec slow = new ReplicationJobSpec("web", "g", List.of(src), Optional.empty(), "*/5 * * * *", true,
                List.of("--bwlimit=64"), false, 0.5, 0, Duration.ZERO, Duration.ofMinutes(10), 0);
        clock.advance(Duration.ofMinutes(5));
        java.util.concurrent.CompletableFuture<RunOutcome> out = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(() -> out.complete(runner.run(slow, "node2", RunTrigger.HANDOVER, null)), "cancelled-run");
        t.start();
        // the master is up and a copy runs through it
        await().atMost(60, TimeUnit.SECONDS).until(() -> socketDirs(stateDir).stream().anyMatch(d -> Files.exists(d.resolve("m")))
                && withArgument("ControlMaster=no").stream().anyMatch(p -> p.info().command().orElse("").endsWith("/ssh")));
        String dir = socketDirs(stateDir).get(0).toString();
        assertThat(withArgument(dir)).isNotEmpty();

        t.interrupt();
        RunOutcome o = out.get(60, TimeUnit.SECONDS);

        assertThat(o.result()).as(o.message()).isEqualTo(JobResult.FAILED_TRANSIENT);
        assertThat(o.message()).isEqualTo("interrupted");
        assertThat(socketDirs(stateDir)).isEmpty();
        await().atMost(30, TimeUnit.SECONDS).until(() -> withArgument(dir).isEmpty());
        assertThat(ReplicaStamp.read(ReplicaStamp.localFile(stateDir, "web")).orElseThrow().start()).isEqualTo(T0);
    }
}
