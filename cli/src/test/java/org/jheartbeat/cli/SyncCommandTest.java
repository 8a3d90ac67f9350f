package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.time.TimeFormats;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb sync} and the sync.yaml part of {@code hb config check}, in process, on real files;
 * runs use real rsync to a path target (no daemon: {@code --force}).
 */
class SyncCommandTest {
    @TempDir
    Path tmp;
    Path cfg;
    Path state;
    Path src;
    Path target;

    @BeforeEach
    void setUp() throws Exception {
        cfg = ConfigDirBuilder.validTwoNode().writeTo(tmp.resolve("ha.d"));
        Files.createDirectories(cfg.resolve("resource.d"));
        state = Files.createDirectories(tmp.resolve("state"));
        src = Files.createDirectories(tmp.resolve("data/web"));
        target = tmp.resolve("replica");
        Files.writeString(src.resolve("index.html"), "hello\n");
        Files.writeString(src.resolve("app.php"), "<?php echo 1;\n");
    }

    private void syncYaml(String jobExtra) throws Exception {
        Files.writeString(cfg.resolve("sync.yaml"), """
                state_dir: %s
                jobs:
                  web:
                    group: labweb
                    paths: [%s]
                    target: %s
                %s""".formatted(tmp.resolve("syncstate"), src, target, jobExtra));
    }

    private HbRun sync(String... args) {
        String[] all = new String[args.length + 5];
        all[0] = "sync";
        all[1] = args[0];
        all[2] = "--config-dir";
        all[3] = cfg.toString();
        all[4] = "--state-dir";
        all[5] = state.toString();
        System.arraycopy(args, 1, all, 6, args.length - 1);
        return HbRun.hb(all);
    }

    @Test
    void configCheckNamesTheSyncYamlLine() throws Exception {
        syncYaml("    schedul: \"*/5 * * * *\"\n");
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("sync.yaml") + ":7: ").contains("schedul").contains("schedule")
                .doesNotContain("Exception");
    }

    @Test
    void configCheckRefusesAJobOfAnUnknownGroup() throws Exception {
        syncYaml("");
        Files.writeString(cfg.resolve("sync.yaml"), Files.readString(cfg.resolve("sync.yaml"))
                .replace("group: labweb", "group: mysql"));
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("sync.yaml:3: job web: group [mysql] is not a resource group").contains("198.18.0.100/24/eth0");
    }

    /** Every problem of the file in one run, those against ha.cf/haresources too; one exit code; each counted. */
    @Test
    void configCheckReportsEverySyncYamlProblemAtOnce() throws Exception {
        syncYaml("""
                  db:
                    group: labweb
                    paths: [%s]
                    target: %s
                    retries: -1
                    schedul: "*/5 * * * *"
                  mail:
                    group: mysql
                    paths: [%s]
                    target: %s
                """.formatted(tmp.resolve("data/db"), target, tmp.resolve("data/mail"), target));
        Path file = cfg.resolve("sync.yaml");
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(file + ":11: job db: retries is -1; it must be at least 0\n"
                        + file + ":12: unknown key [schedul] in job db; did you mean schedule?\n"
                        + file + ":13: job mail: group [mysql] is not a resource group of haresources")
                .contains("3 error(s) in " + cfg);
        HbRun status = sync("status");
        assertThat(status.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(status.err()).contains(file + ":11: ").contains(file + ":12: ").contains(file + ":13: ");
    }

    /** A bad NFS target: one file:line message, exit 2, and nothing run or written (no job state appears). */
    @Test
    void aBadNfsTargetIsOneLineAndNothingRuns() throws Exception {
        Files.writeString(cfg.resolve("sync.yaml"), """
                state_dir: %s
                jobs:
                  web:
                    group: labweb
                    paths: [%s]
                    target: {nfs: 198.18.1.2:/export/web, mount: %s, options: [vers=4.2, "soft,timeo=50"]}
                """.formatted(tmp.resolve("syncstate"), src, target));
        Path file = cfg.resolve("sync.yaml");
        String line = file + ":6: job web: target: options: [soft,timeo=50] is not one mount option; write each as"
                + " its own item, e.g. [vers=4.2, soft, timeo=50]";
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(line).doesNotContain("Exception");
        HbRun run = sync("run", "web");
        assertThat(run.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(run.err()).contains(line);
        assertThat(tmp.resolve("syncstate")).doesNotExist();
        assertThat(target).doesNotExist();
    }

    @Test
    void configCheckAcceptsAValidSyncYaml() throws Exception {
        syncYaml("");
        HbRun r = HbRun.hb("config", "check", "--syntax-only", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isZero();
    }

    @Test
    void statusWithoutJobsSaysWhatToAdd() {
        HbRun r = sync("status");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.toAbsolutePath().resolve("sync.yaml") + " does not exist")
                .contains("create it with a jobs: section").doesNotContain("docs/");
    }

    @Test
    void runOfAnUnknownJobIsAUsageError() throws Exception {
        syncYaml("");
        HbRun r = sync("run", "mail");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("no job 'mail'").contains("jobs: web");
    }

    @Test
    void runWithoutDaemonNeedsForce() throws Exception {
        syncYaml("");
        HbRun r = sync("run", "web");
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(r.err()).contains("cannot tell where group 198.18.0.100/24/eth0 runs").contains("--force");
        assertThat(target).doesNotExist();
    }

    @Test
    void forcedRunCopiesAndStatusShowsIt() throws Exception {
        syncYaml("");
        HbRun r = sync("run", "web", "--force", "--node-name", "node1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("sync job web: OK");
        Path copied = target.resolve(src.toString().substring(1));
        assertThat(copied.resolve("index.html")).hasContent("hello");
        assertThat(copied.resolve("app.php")).hasContent("<?php echo 1;");

        HbRun s = sync("status");
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(s.out()).contains("web: group 198.18.0.100/24/eth0 (daemon not running), last run OK ended ")
                .contains("2 files, 2 transferred (20 B) to " + target);
    }

    @Test
    void forcedRunOfAnEmptiedSourceIsRefusedAndExitsOne() throws Exception {
        syncYaml("");
        assertThat(sync("run", "web", "--force", "--node-name", "node1").code()).isZero();
        Files.delete(src.resolve("index.html"));
        Files.delete(src.resolve("app.php"));
        HbRun r = sync("run", "web", "--force", "--node-name", "node1");
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).contains("sync job web: REFUSED: ").contains(src + " is empty");
        assertThat(target.resolve(src.toString().substring(1)).resolve("index.html")).exists();
        assertThat(sync("status").out()).contains("last run REFUSED").contains("last success ");
        assertThat(r.err()).contains("run 'hb sync run web --accept-loss' on this node");

        // the operator says the deletion was intended: the replica follows
        HbRun accepted = sync("run", "web", "--force", "--accept-loss", "--node-name", "node1");
        assertThat(accepted.code()).as(accepted.err()).isZero();
        assertThat(accepted.out()).contains("sync job web: OK: 0 files").contains("2 deleted");
        assertThat(target.resolve(src.toString().substring(1)).resolve("index.html")).doesNotExist();
        assertThat(accepted.err()).as("the outcome is printed once, not logged too").isEmpty();
    }

    @Test
    void configDirThatDoesNotExistIsSaidSo() {
        HbRun r = HbRun.hb("sync", "status", "--config-dir", tmp.resolve("nope").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("configuration directory " + tmp.resolve("nope") + " does not exist");
    }

    @Test
    void statusShowsARunInFlightByItsStartNotThePreviousEnd() throws Exception {
        syncYaml("");
        java.time.Instant end = java.time.Instant.parse("2026-01-01T10:00:00Z");
        java.time.Instant start = java.time.Instant.parse("2026-01-01T10:05:00Z");
        new org.jheartbeat.sync.replication.JobStateStore(tmp.resolve("syncstate")).write(
                new org.jheartbeat.sync.replication.JobState("web", java.util.Optional.of(start), java.util.Optional.of(end),
                        org.jheartbeat.sync.replication.JobResult.RUNNING, "", 0, 0, 0, 1, java.util.Optional.of(end),
                        java.util.Map.of()));
        // the run is in flight while another process (as the daemon's run would) holds the job's lock
        Process holder = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HoldLock.class.getName(),
                tmp.resolve("syncstate").resolve("web.lock").toString()).redirectErrorStream(true).start();
        try {
            assertThat(new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream())).readLine())
                    .isEqualTo("locked");
            HbRun r = sync("status");
            assertThat(r.out()).contains("last run RUNNING since " + TimeFormats.LOCAL_TIME.format(start))
                    .doesNotContain("ended " + TimeFormats.LOCAL_TIME.format(end));
        } finally {
            holder.destroyForcibly().waitFor();
        }
    }

    /** Holds an exclusive lock on the file named by its argument until killed, after printing "locked". */
    public static final class HoldLock {
        public static void main(String[] args) throws Exception {
            java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(java.nio.file.Path.of(args[0]),
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
            ch.lock();
            System.out.println("locked");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }
}
