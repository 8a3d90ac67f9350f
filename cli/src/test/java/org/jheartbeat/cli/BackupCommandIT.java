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
            dev = sh("losetup", "-f", "--show", img.toString()).strip();
            Files.writeString(src.resolve("inbox"), "hello\n");
            Files.writeString(dir.resolve("sync.yaml"), """
                    state_dir: %s
                    backups:
                      mailbox:
                        label: %s
                        mount_point: %s
                        paths: [%s]
                    """.formatted(dir.resolve("state"), label, mnt, src));
            String cd = dir.toString();

            HbRun run = hb("backup", "run", "--config-dir", cd);
            assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.OK);
            assertThat(run.out()).matches("backup mailbox: OK: snapshot \\d{4}-\\d\\d-\\d\\dT\\d{6}Z done: 1 files, "
                    + "1 changed \\(6 B\\), verified\n");
            String snap = run.out().replaceAll("(?s).*snapshot (\\S+) done.*", "$1");

            HbRun list = hb("backup", "list", "mailbox", "--config-dir", cd);
            assertThat(list.code()).as(list.err()).isEqualTo(ExitCodes.OK);
            assertThat(list.out()).startsWith("mailbox on LABEL=" + label + ": 1 snapshot(s)\n  " + snap + "  ")
                    .contains("       1 files  6 B");

            Files.writeString(src.resolve("inbox"), "overwritten by mistake\n");
            HbRun restore = hb("backup", "restore", src.resolve("inbox").toString(), "--config-dir", cd);
            assertThat(restore.code()).as(restore.err()).isEqualTo(ExitCodes.OK);
            Path back = src.resolve("inbox.restored-" + snap);
            assertThat(restore.out()).isEqualTo("restored " + src.resolve("inbox") + " to " + back + "\n");
            assertThat(Files.readString(back)).isEqualTo("hello\n");
            assertThat(Files.readString(src.resolve("inbox"))).as("live data untouched").isEqualTo("overwritten by mistake\n");

            HbRun status = hb("backup", "status", "--config-dir", cd);
            assertThat(status.out()).startsWith("mailbox: disk LABEL=" + label + " present, last run OK at ")
                    .contains("1 snapshot(s), newest " + snap);

            sh("losetup", "-d", dev);
            dev = null;
            HbRun missing = hb("backup", "run", "mailbox", "--config-dir", cd);
            assertThat(missing.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(missing.err()).isEqualTo("hb: backup mailbox: REFUSED: disk LABEL=" + label
                    + " is missing: no snapshot taken\n");
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
