package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Data replication in the lab ({@code LAB_SYNC=web}): each node's "data partition" is mounted on
 * {@code /srv/web} inside it, and the daemons replicate it with real rsync over real ssh across the
 * crossover link, every 5 s, from whichever node runs the labweb group.
 */
@Tag("root")
class SyncIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final String JAR = System.getProperty("hb.jar", ROOT.resolve("cli/target/hb.jar").toString());
    /** The lab's schedule: every 5 s. */
    private static final long INTERVAL_MS = 5_000;

    private static Map<String, String> env() {
        return Map.of("LAB_SYNC", "web", "LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "on");
    }

    @Test
    void tenThousandFilesReplicateFromTheOwnerOnly() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(env())) {
            Path src = disk(lab, "node1");
            Path replica = disk(lab, "node2");
            for (int d = 0; d < 100; d++) {
                Path dir = Files.createDirectories(src.resolve("d" + d));
                for (int f = 0; f < 100; f++) {
                    Files.writeString(dir.resolve("f" + f + ".txt"), "file " + d + "/" + f + "\n".repeat(f));
                }
            }
            start(lab);
            long t0 = System.nanoTime();
            lab.waitUntil(() -> countFiles(replica) == 10_000, 2 * Figures.HANG_MS, "10 000 files on node2");
            Figures.print("sync_10k_files_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                    "10 000 files replicated node1 -> node2 after both daemons started");
            assertThat(Files.readString(replica.resolve("d42/f7.txt"))).isEqualTo("file 42/7" + "\n".repeat(7));

            // a change on the owner reaches the replica at a later run (the schedule itself is
            // CronScheduleTest's; how soon the run starts on a loaded machine is a figure)
            Instant changed = Instant.now();
            Files.writeString(src.resolve("d3/f3.txt"), "changed on node1\n");
            Files.writeString(src.resolve("new.txt"), "new on node1\n");
            Files.delete(src.resolve("d9/f9.txt"));
            lab.waitUntil(() -> Files.exists(replica.resolve("new.txt")) && !Files.exists(replica.resolve("d9/f9.txt"))
                    && "changed on node1\n".equals(read(replica.resolve("d3/f3.txt"))), Figures.HANG_MS,
                    "the change on node2");
            Instant seen = Instant.now();
            Properties st = state(lab, "node1");
            Instant runStart = Instant.parse(st.getProperty("lastStart"));
            Figures.print("sync_change_seen_ms", seen.toEpochMilli() - changed.toEpochMilli(), "ms",
                    "a change on node1 is on node2, schedule every " + INTERVAL_MS + " ms");
            Figures.print("sync_change_run_start_ms", runStart.toEpochMilli() - changed.toEpochMilli(), "ms",
                    "start of the run that carried the change, from the change (negative: a run under way took it)");

            // node2 does not run the group: the job never ran there, and a manual run is refused
            assertThat(state(lab, "node2")).as("node2 has no state for job web").isEmpty();
            assertThat(lab.daemonLog("node2", 400)).doesNotContain("sync job web: 1");
            Lab.Result refused = hb(lab, "node2", "sync", "run", "web");
            assertThat(refused.code()).as(refused.output()).isEqualTo(1);
            assertThat(refused.output()).contains("does not run on node2");

            // a scheduled run (every 5 s) may be in flight at any moment, the longer the busier the
            // machine: each check waits for a moment between runs
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                Lab.Result status = hb(lab, "node1", "sync", "status");
                assertThat(status.code()).as(status.output()).isZero();
                assertThat(status.output()).contains("web: group 198.18.0.100/24/eth0 (runs here), last run OK")
                        .contains("10100 files"); // rsync counts the 100 directories too
            });
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                    assertThat(hb(lab, "node1", "status", "--json").output()).contains("\"sync_jobs\":[{\"name\":\"web\","
                            + "\"group\":\"198.18.0.100/24/eth0\",\"result\":\"OK\""));
            await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                Lab.Result manual = hb(lab, "node1", "sync", "run", "web");
                assertThat(manual.code()).as(manual.output()).isZero();
                assertThat(manual.output()).contains("sync job web: OK");
            });
        }
    }

    @Test
    void failoverAndFailbackLoseNoFileWrittenOnNode2() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(env())) {
            Path n1 = disk(lab, "node1");
            Path n2 = disk(lab, "node2");
            for (int i = 0; i < 100; i++) {
                Files.writeString(n1.resolve("base" + i), "base " + i + "\n");
            }
            start(lab);
            lab.waitUntil(() -> countFiles(n2) == 100, Figures.HANG_MS, "first replication");
            // 6 cycles in CI, 20 as a drill (-Djhb.drills=true), every second one by power-off: about 5 s each
            int cycles = Boolean.getBoolean("jhb.drills") ? 20 : 6;
            int lost = 0;
            List<String> lostFiles = new ArrayList<>();
            int lateKeptAside = 0;
            int lateReplicated = 0;
            for (int c = 1; c <= cycles; c++) {
                boolean crash = c % 2 == 0;
                if (crash) {
                    // written on node1 just before it loses power: never replicated to node2
                    Files.writeString(n1.resolve("late" + c), "written on node1 just before the crash\n");
                }
                lab.lab(crash ? "poweroff" : "stop", "node1");
                assertThat(FailoverIT.waitFor(lab, "node2", Figures.HANG_MS)).as("cycle %d: node2 serves\n%s", c,
                        lab.daemonLog("node2", 30)).isGreaterThanOrEqualTo(0);
                List<Path> written = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                    Path f = n2.resolve("c" + c + "-" + i);
                    Files.writeString(f, "written on node2 in cycle " + c + " #" + i + "\n");
                    written.add(f);
                }
                Files.writeString(n2.resolve("base" + c), "rewritten on node2 in cycle " + c + "\n");
                if (crash) {
                    assertThat(lab.lab("poweron", "node1").code()).isZero();
                }
                assertThat(lab.lab("start", "node1").code()).isZero();
                assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as("cycle %d: node1 serves again\n%s\n%s", c,
                        lab.daemonLog("node1", 30), lab.daemonLog("node2", 30)).isGreaterThanOrEqualTo(0);
                for (Path f : written) {
                    Path there = n1.resolve(f.getFileName());
                    if (!Files.exists(there) || !Files.readString(there).equals(Files.readString(f))) {
                        lost++;
                        lostFiles.add("cycle " + c + ": " + f.getFileName());
                    }
                }
                if (crash) {
                    Path late = n1.resolve("late" + c);
                    if (Files.exists(late)) {
                        lateReplicated++;
                    } else if (displaced(lab, "late" + c)) {
                        lateKeptAside++;
                    } else {
                        lostFiles.add("cycle " + c + ": late" + c + " (written on node1 before the crash)");
                    }
                }
                if (!Files.readString(n1.resolve("base" + c)).equals("rewritten on node2 in cycle " + c + "\n")) {
                    lost++;
                    lostFiles.add("cycle " + c + ": base" + c + " (rewrite)");
                }
            }
            System.out.printf("sync: %d failover/failback cycles (%d by power-off), %d files written on node2,"
                    + " %d lost; files written on node1 just before a power-off: %d kept aside in displaced/, %d had"
                    + " reached node2 first%n", cycles, cycles / 2, cycles * 26, lost, lateKeptAside, lateReplicated);
            assertThat(lateKeptAside).as("a file only node1 had before a crash is kept aside at failback")
                    .isGreaterThanOrEqualTo(1);
            assertThat(lostFiles).as("files written on node2 (or on node1 before a crash) missing on node1 after failback\n%s",
                    lab.daemonLog("node2", 60)).isEmpty();
            assertThat(lab.daemonLog("node2", 2000)).contains("syncing group 198.18.0.100/24/eth0 to node1 before"
                    + " handing it over");
            assertThat(lab.daemonLog("node2", 2000)).containsPattern("sync job web: replica is [0-9.]+ (s|ms|m[0-9]+s) old");
        }
    }

    @Test
    void unmountedOrEmptiedSourceIsRefusedAndTheReplicaKeepsEveryFile() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        // every 2 s: five scheduled runs are waited for, one after another
        Map<String, String> every2s = new java.util.HashMap<>(env());
        every2s.put("LAB_SYNC_SCHEDULE", "*/2 * * * * *");
        try (Lab lab = new Lab(every2s)) {
            Path n1 = disk(lab, "node1");
            Path n2 = disk(lab, "node2");
            for (int i = 0; i < 200; i++) {
                Files.writeString(n1.resolve("keep" + i), "keep " + i + "\n");
            }
            start(lab);
            lab.waitUntil(() -> countFiles(n2) == 200, Figures.HANG_MS, "first replication");

            // 1. the data partition is not mounted: /srv/web is the bare (empty) directory
            assertThat(lab.lab("srvumount", "node1").code()).isZero();
            lab.waitUntil(() -> "REFUSED".equals(state(lab, "node1").getProperty("result")), Figures.HANG_MS,
                    "a refused run");
            assertThat(state(lab, "node1").getProperty("message")).contains("/srv/web is not a mount point");
            String refusedStart = state(lab, "node1").getProperty("lastStart");
            lab.waitUntil(() -> !refusedStart.equals(state(lab, "node1").getProperty("lastStart", refusedStart))
                    && "REFUSED".equals(state(lab, "node1").getProperty("result")), Figures.HANG_MS,
                    "one more scheduled run, refused as well");
            assertThat(countFiles(n2)).as("the replica keeps every file").isEqualTo(200);
            Lab.Result status = hb(lab, "node1", "sync", "status");
            assertThat(status.output()).contains("last run REFUSED").contains("/srv/web is not a mount point");
            assertThat(lab.lab("srvmount", "node1").code()).isZero();
            lab.waitUntil(() -> "OK".equals(state(lab, "node1").getProperty("result")), Figures.HANG_MS, "runs again");

            // 2. mounted but emptied (rm -rf by mistake): refused, never mirrored
            try (Stream<Path> s = Files.list(n1)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            lab.waitUntil(() -> "REFUSED".equals(state(lab, "node1").getProperty("result")), Figures.HANG_MS,
                    "a refused run");
            assertThat(state(lab, "node1").getProperty("message")).contains("/srv/web is empty");
            assertThat(countFiles(n2)).isEqualTo(200);

            // 3. most files gone (more than max_loss 50 %): refused
            for (int i = 0; i < 60; i++) {
                Files.writeString(n1.resolve("keep" + i), "keep " + i + "\n");
            }
            lab.waitUntil(() -> state(lab, "node1").getProperty("message", "").contains("lost"), Figures.HANG_MS,
                    "a refused run for lost files");
            assertThat(state(lab, "node1").getProperty("result")).isEqualTo("REFUSED");
            assertThat(state(lab, "node1").getProperty("message")).contains("/srv/web lost 70 %");
            assertThat(countFiles(n2)).as("the replica keeps every file").isEqualTo(200);
            assertThat(hb(lab, "node1", "status").output()).contains("Sync jobs:").contains("REFUSED");
        }
    }

    /**
     * The daemon watches for the backup disk: a loop-device ext4 image with the configured label
     * "inserted" while node1 runs gives a snapshot (mounted inside node1 only while it runs),
     * shown by {@code hb status}; "removed", the status says missing.
     */
    /**
     * Adds to node1's sync.yaml a backup {@code drawer} of /srv/web to the removable disk labelled {@code label},
     * mounted on /srv/backup-mnt, keeping 3 snapshots, polled every second.
     */
    static void addDrawerBackup(Lab lab, String label) throws java.io.IOException {
        Path yaml = lab.configDir("node1").resolve("sync.yaml");
        Files.writeString(yaml, Files.readString(yaml) + """
                backups:
                  drawer:
                    label: %s
                    mount_point: /srv/backup-mnt
                    paths: [/srv/web]
                    keep: 3
                    poll: 1s
                """.formatted(label));
    }

    @Test
    void theDaemonBacksUpToADiskWhenItIsInserted() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces, loop devices)");
        String label = "JHBL" + Long.toString(System.nanoTime() % 1_000_000_000L, 36).toUpperCase();
        try (Lab lab = new Lab(env())) {
            addDrawerBackup(lab, label);
            Path n1 = disk(lab, "node1");
            for (int i = 0; i < 50; i++) {
                Files.writeString(n1.resolve("doc" + i), "document " + i + "\n");
            }
            Path image = lab.runDir().resolve("backup.img");
            assertThat(lab.run(List.of("truncate", "-s", "32M", image.toString()), 10).code()).isZero();
            assertThat(lab.run(List.of("mkfs.ext4", "-q", "-L", label, image.toString()), 30).code()).isZero();
            start(lab);
            Path mnt = lab.srv("node1").resolve("backup-mnt");
            lab.waitUntil(() -> hb(lab, "node1", "status").output().contains("drawer       disk MISSING"), Figures.HANG_MS,
                    "backup disk missing in hb status");
            String loop = null;
            try {
                Lab.Result attach = lab.run(List.of("losetup", "-f", "--show", image.toString()), 10);
                assertThat(attach.code()).as(attach.output()).isZero();
                loop = attach.output().trim();
                lab.waitUntil(() -> "OK".equals(backupState(lab).getProperty("lastResult")), Figures.HANG_MS,
                        "a snapshot after the disk was inserted");
                Properties st = backupState(lab);
                assertThat(st.getProperty("snapshots")).isEqualTo("1");
                assertThat(lab.daemonLog("node1", 100)).contains("backup drawer: disk LABEL=" + label + " inserted");
                assertThat(hb(lab, "node1", "status").output()).contains("drawer       disk PRESENT    last OK");
                Lab.Result list = hb(lab, "node1", "backup", "list");
                assertThat(list.code()).as(list.output()).isZero();
                assertThat(list.output()).contains(st.getProperty("newestSnapshot"));
                lab.waitUntil(() -> isEmptyDir(mnt), Figures.HANG_MS, "the disk unmounted after the backup");
            } finally {
                if (loop != null) {
                    lab.run(List.of("losetup", "-d", loop), 10);
                }
            }
            lab.waitUntil(() -> "MISSING".equals(backupState(lab).getProperty("disk")), Figures.HANG_MS,
                    "the disk reported missing after removal");
            assertThat(hb(lab, "node1", "status").output()).contains("drawer       disk MISSING");
            assertThat(isEmptyDir(mnt)).as("nothing written to the bare mount point").isTrue();
        }
    }

    /** Whether node1 kept {@code name} in sync/displaced/web/TIME/srv/web/ (a hand-over after a crash). */
    private static boolean displaced(Lab lab, String name) throws IOException {
        Path d = lab.varLibJheartbeat("node1").resolve("sync/displaced/web");
        if (!Files.isDirectory(d)) {
            return false;
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(t -> Files.exists(t.resolve("srv/web").resolve(name)));
        }
    }

    private static Properties backupState(Lab lab) {
        Properties p = new Properties();
        Path f = lab.varLibJheartbeat("node1").resolve("sync/backup-drawer.state");
        try (var in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            // not written yet
        }
        return p;
    }

    private static boolean isEmptyDir(Path d) {
        try (Stream<Path> s = Files.list(d)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return !Files.exists(d);
        }
    }

    private static void start(Lab lab) throws Exception {
        assertThat(lab.lab("start", "node1").code()).isZero();
        assertThat(lab.lab("start", "node2").code()).isZero();
        assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as("node1 serves\n%s", lab.daemonLog("node1", 30))
                .isGreaterThanOrEqualTo(0);
    }

    /** The node's data partition on the host ({@code /srv/web} inside the node). */
    private static Path disk(Lab lab, String node) {
        return lab.runDir().resolve(node).resolve("disk-web");
    }

    /** The job's state file of {@code node} (empty when the job never ran there). */
    private static Properties state(Lab lab, String node) {
        Properties p = new Properties();
        Path f = lab.varLibJheartbeat(node).resolve("sync/web.state");
        try (var in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            // no state yet
        }
        return p;
    }

    /** Runs {@code hb ARGS} inside {@code node} with the node's config and state dirs. */
    static Lab.Result hb(Lab lab, String node, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("exec", node, "java", "-jar", JAR));
        argv.add(args[0]);
        if (args[0].equals("sync") || args[0].equals("backup")) {
            argv.add(args[1]);
            argv.addAll(List.of("--config-dir", lab.configDir(node).toString()));
            if (args[0].equals("sync")) {
                argv.addAll(List.of("--state-dir", lab.runDir().resolve(node).resolve("state").toString()));
            }
            argv.addAll(List.of(args).subList(2, args.length));
        } else {
            argv.addAll(List.of("--state-dir", lab.runDir().resolve(node).resolve("state").toString()));
            argv.addAll(List.of(args).subList(1, args.length));
        }
        return lab.lab(argv.toArray(String[]::new));
    }

    private static long countFiles(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        } catch (IOException | java.io.UncheckedIOException e) {
            return -1;
        }
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            return null;
        }
    }

}
