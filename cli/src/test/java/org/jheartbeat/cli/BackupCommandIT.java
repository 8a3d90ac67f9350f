package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.lab.Lab;
import org.junit.jupiter.api.Test;

/**
 * {@code hb backup run|list|restore|status} end to end on a real ext4 image on a loop device (root
 * only). The test detaches only the loop device it attached, also on failure.
 */
class BackupCommandIT {

    @Test
    void runListRestoreAndStatusOnARealDisk() throws Exception {
        assumeTrue(Lab.isRoot(), "loop devices and mount need root");
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "jhbt-hbbackup");
        String label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
        Path img = dir.resolve("disk.img");
        Path src = Files.createDirectories(dir.resolve("srv/mail"));
        Path mnt = dir.resolve("mnt");
        String dev = null;
        try {
            try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
                f.setLength(32L * 1024 * 1024);
            }
            sh("mkfs.ext4", "-q", "-F", "-L", label, img.toString());
            Files.writeString(src.resolve("inbox"), "hello\n");
            Path yaml = dir.resolve("sync.yaml");
            String byLabel = """
                    state_dir: %s
                    backups:
                      mailbox:
                        label: %s
                        mount_point: %s
                        paths: [%s]
                    """.formatted(dir.resolve("state"), label, mnt, src);
            Files.writeString(yaml, byLabel);
            String cd = dir.toString();
            String missingLine = "mailbox: disk LABEL=" + label + " missing (insert it: a snapshot is taken on "
                    + "insertion by the daemon, or with hb backup run mailbox)\n";

            HbRun before = hb("backup", "status", "--config-dir", cd);
            assertThat(before.code()).as(before.err()).isEqualTo(ExitCodes.OK);
            assertThat(before.out()).isEqualTo(missingLine + "  last run: never\n");

            dev = sh("losetup", "-f", "--show", img.toString()).strip();
            HbRun attached = hb("backup", "status", "--config-dir", cd);
            assertThat(attached.out()).as("right after losetup, no run or poll in between")
                    .isEqualTo("mailbox: disk LABEL=" + label + " present at " + dev + "\n  last run: never\n");

            // the configuration names the disk by UUID at the device: the disk there now is the wrong one
            String uuid = "0f0e0d0c-0b0a-4908-8706-050403020100";
            Files.writeString(yaml, byLabel.replace("label: " + label, "uuid: " + uuid + "\n    device: " + dev));
            HbRun wrong = hb("backup", "status", "--config-dir", cd);
            assertThat(wrong.out()).isEqualTo("mailbox: disk UUID=" + uuid + ": wrong disk at " + dev + ": found LABEL="
                    + label + ", expected UUID=" + uuid + "\n  last run: never\n");
            Files.writeString(yaml, byLabel);
            HbRun labelAgain = hb("backup", "status", "--config-dir", cd);
            assertThat(labelAgain.out()).as("back to label: no stale wrong disk")
                    .isEqualTo("mailbox: disk LABEL=" + label + " present at " + dev + "\n  last run: never\n");

            HbRun run = hb("backup", "run", "--config-dir", cd);
            assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.OK);
            assertThat(run.out()).matches("backup mailbox: OK: snapshot \\d{4}-\\d\\d-\\d\\dT\\d{6}Z done: 1 files, "
                    + "1 changed \\(6 B\\), verified\n");
            String snap = run.out().replaceAll("(?s).*snapshot (\\S+) done.*", "$1");

            HbRun same = hb("backup", "verify", "--config-dir", cd);
            assertThat(same.code()).as(same.err()).isEqualTo(ExitCodes.OK);
            assertThat(same.out()).isEqualTo("backup mailbox: snapshot " + snap + " matches its sources (" + src + ")\n");

            HbRun list = hb("backup", "list", "mailbox", "--config-dir", cd);
            assertThat(list.code()).as(list.err()).isEqualTo(ExitCodes.OK);
            assertThat(list.out()).startsWith("mailbox on LABEL=" + label + ": 1 snapshot(s)\n  " + snap + "  ")
                    .contains("       1 files  6 B");

            Files.writeString(src.resolve("inbox"), "overwritten by mistake\n");
            HbRun differs = hb("backup", "verify", "mailbox", "--snapshot", snap, "--config-dir", cd);
            assertThat(differs.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(differs.out()).isEqualTo("backup mailbox: snapshot " + snap + " differs from its sources:\n"
                    + "  changed: " + src.resolve("inbox") + "\n");
            assertThat(differs.err()).isEqualTo("hb: backup mailbox: snapshot " + snap + " differs from its sources in 1"
                    + " place(s) (changes made since the snapshot count too)\n");
            HbRun restore = hb("backup", "restore", src.resolve("inbox").toString(), "--config-dir", cd);
            assertThat(restore.code()).as(restore.err()).isEqualTo(ExitCodes.OK);
            Path back = src.resolve("inbox.restored-" + snap);
            assertThat(restore.out()).isEqualTo("restored " + src.resolve("inbox") + " to " + back + "\n");
            assertThat(Files.readString(back)).isEqualTo("hello\n");
            assertThat(Files.readString(src.resolve("inbox"))).as("live data untouched").isEqualTo("overwritten by mistake\n");

            // --to DIR: the directory to restore into, created if missing; the copy lands at DIR/<name of PATH>
            Path into = dir.resolve("restore/here");
            HbRun toFile = hb("backup", "restore", src.resolve("inbox").toString(), "--to", into.toString(),
                    "--config-dir", cd);
            assertThat(toFile.code()).as(toFile.err()).isEqualTo(ExitCodes.OK);
            assertThat(toFile.out()).isEqualTo("restored " + src.resolve("inbox") + " to " + into.resolve("inbox") + "\n");
            assertThat(into).isDirectory();
            assertThat(Files.readString(into.resolve("inbox"))).isEqualTo("hello\n");
            HbRun toDir = hb("backup", "restore", src.toString(), "--to", into.toString(), "--config-dir", cd);
            assertThat(toDir.code()).as(toDir.err()).isEqualTo(ExitCodes.OK);
            assertThat(toDir.out()).isEqualTo("restored " + src + " to " + into.resolve("mail") + "\n");
            assertThat(Files.readString(into.resolve("mail/inbox"))).isEqualTo("hello\n");
            Files.writeString(into.resolve("inbox"), "edited after the restore\n");
            HbRun again = hb("backup", "restore", src.resolve("inbox").toString(), "--to", into.toString(),
                    "--config-dir", cd);
            assertThat(again.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(again.err()).isEqualTo("hb: backup mailbox: " + into.resolve("inbox") + " exists: not overwritten "
                    + "(restore into another directory with --to DIR, or overwrite with --force)\n");
            assertThat(Files.readString(into.resolve("inbox"))).isEqualTo("edited after the restore\n");
            HbRun ontoFile = hb("backup", "restore", src.resolve("inbox").toString(), "--to",
                    into.resolve("inbox").toString(), "--config-dir", cd);
            assertThat(ontoFile.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(ontoFile.err()).isEqualTo("hb: backup mailbox: " + into.resolve("inbox") + " is not a directory: "
                    + "give the directory to restore into (it is created if missing)\n");
            assertThat(Files.readString(into.resolve("inbox"))).isEqualTo("edited after the restore\n");
            HbRun forced = hb("backup", "restore", src.resolve("inbox").toString(), "--to", into.toString(), "--force",
                    "--config-dir", cd);
            assertThat(forced.code()).as(forced.err()).isEqualTo(ExitCodes.OK);
            assertThat(Files.readString(into.resolve("inbox"))).isEqualTo("hello\n");

            HbRun status = hb("backup", "status", "--config-dir", cd);
            assertThat(status.out()).matches("mailbox: disk LABEL=" + label + " present at " + dev + "\n"
                    + "  last run: OK at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d, 1 snapshot\\(s\\), newest " + snap + "\n"
                    + "  snapshot " + snap + " done: 1 files, 1 changed \\(6 B\\), verified\n");
            String lastRun = status.out().lines().skip(1).collect(java.util.stream.Collectors.joining("\n", "", "\n"));

            sh("losetup", "-d", dev);
            dev = null;
            // the kernel detaches a loop device asynchronously: status probes live, so it says missing
            // once blkid no longer finds the disk (the bound only catches a hang)
            String lastRunText = lastRun;
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(120))
                    .pollInterval(java.time.Duration.ofMillis(200)).untilAsserted(() ->
                            assertThat(hb("backup", "status", "--config-dir", cd).out())
                                    .as("after losetup -d: missing, the last run unchanged")
                                    .isEqualTo(missingLine + lastRunText));
            HbRun missing = hb("backup", "run", "mailbox", "--config-dir", cd);
            assertThat(missing.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(missing.err()).isEqualTo("hb: backup mailbox: REFUSED: disk LABEL=" + label
                    + " is missing: no snapshot taken (insert the disk and try again)\n");
            assertThat(hb("backup", "status", "--config-dir", cd).out()).as("a refused run is not the last run")
                    .isEqualTo(missingLine + lastRun);
            try (var s = Files.list(mnt)) {
                assertThat(s).as("nothing written to the bare mount point").isEmpty();
            }
        } finally {
            if (dev != null) {
                run("umount", mnt.toString());
                String back = run("losetup", "-n", "-O", "BACK-FILE", dev).strip();
                if (back.startsWith(img.toString())) {
                    run("losetup", "-d", dev);
                }
            }
            run("rm", "-rf", "--one-file-system", dir.toString());
        }
    }

    private static String sh(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", argv) + " failed: " + out);
        }
        return out;
    }

    private static String run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(120, TimeUnit.SECONDS);
        return out;
    }
}
