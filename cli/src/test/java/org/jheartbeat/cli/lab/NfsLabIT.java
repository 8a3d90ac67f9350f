package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A replication job to an NFS export of the peer, in the lab with the daemons ({@code LAB_SYNC=web}): node2
 * exports a directory with NFS-Ganesha (user space: this machine's kernel has neither nfsd nor an NFS client,
 * see sync's NfsTargetIT) on its crossover address 198.18.1.2, and node1's job {@code web} targets
 * {@code {nfs: 198.18.1.2:/export/web, mount: /srv/nfs-web}}. Shown through {@code hb sync status} and
 * {@code hb status} of node1's daemon: the job's mount is refused before any copy on this kernel (the copy
 * lands in the export on a kernel with an NFS client); with the server's NFS port dropped by iptables inside
 * node2's namespace the job fails with "not answering within 2 s" and the daemon answers a status request;
 * with node2 powered off, the job is skipped with a status line.
 */
@Tag("root")
class NfsLabIT {
    private static final String GANESHA = "/usr/bin/ganesha.nfsd";
    private static final String TARGET = "    target: {nfs: 198.18.1.2:/export/web, mount: /srv/nfs-web,"
            + " options: [vers=4.2, soft, timeo=20, retrans=1], timeout: 2s}\n";

    @Test
    void anNfsJobIsRefusedBeforeCopyingBoundedWhenTheServerHangsAndSkippedWhileThePeerIsDead() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of(GANESHA)), "needs nfs-ganesha (scripts/setup.sh installs it)");
        try (Lab lab = new Lab(Map.of("LAB_SYNC", "web", "LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3",
                "LAB_AUTO_FAILBACK", "off", "LAB_SYNC_SCHEDULE", "*/2 * * * * *"))) {
            for (String node : List.of("node1", "node2")) {
                Path yaml = lab.configDir(node).resolve("sync.yaml");
                String text = Files.readString(yaml);
                assertThat(text).contains("    paths: [/srv/web]\n");
                Files.writeString(yaml, text.replace("    paths: [/srv/web]\n", "    paths: [/srv/web]\n" + TARGET));
            }
            // the data partition holds a file: an empty source is refused before the target is even looked at
            Files.writeString(lab.runDir().resolve("node1").resolve("disk-web").resolve("index.html"), "town hall\n");
            Path export = Files.createDirectories(lab.runDir().resolve("nfs-export/web"));
            Path conf = lab.runDir().resolve("ganesha.conf");
            Files.writeString(conf, """
                    NFS_CORE_PARAM { Protocols = 4; Enable_NLM = false; Enable_RQUOTA = false; NFS_Port = 2049; }
                    NFSV4 { Graceless = true; }
                    EXPORT { Export_Id = 1; Path = %s; Pseudo = /export/web; Access_Type = RW; Squash = No_Root_Squash;
                             Protocols = 4; Transports = TCP; SecType = sys; FSAL { Name = VFS; } }
                    """.formatted(export));
            // node2's NFS server; lab.sh poweroff node2 kills it with every other process of node2
            Lab.Result g = lab.run(List.of("ip", "netns", "exec", lab.namespace("node2"), GANESHA, "-f", conf.toString(),
                    "-L", lab.runDir().resolve("ganesha.log").toString(), "-p",
                    lab.runDir().resolve("ganesha.pid").toString(), "-N", "NIV_EVENT"), 60);
            assertThat(g.code()).as(g.output()).isZero();
            try {
                assertThat(lab.lab("start", "node1").code()).isZero();
                assertThat(lab.lab("start", "node2").code()).isZero();
                assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS))
                        .as("node1 serves\n%s", lab.daemonLog("node1", 30)).isGreaterThanOrEqualTo(0);
                Path mp = lab.srv("node1").resolve("nfs-web");
                boolean kernelClient = Files.readString(Path.of("/proc/filesystems")).matches("(?s).*\\snfs4?\\n.*");
                if (kernelClient) {
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).until(() ->
                            Files.exists(export.resolve("srv/web")));
                } else {
                    await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                            assertThat(SyncIT.hb(lab, "node1", "sync", "status").output())
                                    .contains("cannot mount 198.18.1.2:/export/web on /srv/nfs-web: mount exit ")
                                    .contains("; nothing copied"));
                    assertThat(entries(mp)).as("the local mount point stays empty").isZero();
                }

                // the server stops answering: its NFS port dropped inside node2's namespace (heartbeats still pass)
                Lab.Result drop = lab.run(List.of("ip", "netns", "exec", lab.namespace("node2"), "iptables", "-I", "INPUT",
                        "-p", "tcp", "--dport", "2049", "-j", "DROP"), 30);
                assertThat(drop.code()).as(drop.output()).isZero();
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(SyncIT.hb(lab, "node1", "sync", "status").output())
                                .contains("NFS server 198.18.1.2 not answering within 2 s (RPC ping of port 2049);"
                                        + " nothing copied"));
                Lab.Result status = SyncIT.hb(lab, "node1", "status");
                assertThat(status.code()).as(status.output()).isZero();
                assertThat(status.output()).contains("Sync jobs:");
                if (!kernelClient) {
                    assertThat(entries(mp)).isZero();
                }

                // node2 dies: its export's job is skipped with a status line, not run against a dead server
                assertThat(lab.lab("poweroff", "node2").code()).isZero();
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                        assertThat(SyncIT.hb(lab, "node1", "sync", "status").output()).contains("SKIPPED")
                                .contains("skipped: NFS server 198.18.1.2 is peer node2, which is dead;"
                                        + " not replicating to it until it is back"));
                assertThat(lab.daemonLog("node1", 400)).contains("sync job web: skipped: NFS server 198.18.1.2 is peer"
                        + " node2, which is dead");
            } finally {
                stopGanesha(lab.runDir().resolve("ganesha.pid"));
            }
        }
    }

    private static long entries(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> !p.equals(dir)).count();
        }
    }

    /** Stops the lab's ganesha by its pid file (already gone when node2 was powered off). */
    private static void stopGanesha(Path pidFile) {
        try {
            if (!Files.exists(pidFile)) {
                return;
            }
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim()))
                    .filter(h -> h.info().command().orElse("").endsWith("ganesha.nfsd"))
                    .ifPresent(h -> {
                        h.destroy();
                        try {
                            h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (Exception e) {
                            h.destroyForcibly();
                        }
                    });
        } catch (IOException | RuntimeException e) {
            System.err.println("cleanup: " + e);
        }
    }
}
