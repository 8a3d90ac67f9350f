package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb backup ...} without a disk: configuration errors, usage errors, a missing disk. */
class BackupCommandTest {
    @TempDir
    Path dir;

    private void syncYaml(String label) throws Exception {
        Files.writeString(dir.resolve("sync.yaml"), """
                state_dir: %s
                backups:
                  drawer:
                    label: %s
                    mount_point: %s
                    paths: [%s]
                    keep: 3
                    poll: 5s
                """.formatted(dir.resolve("state"), label, dir.resolve("mnt"), dir.resolve("src")));
    }

    @Test
    void noSyncYamlIsAConfigError() {
        HbRun r = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).isEqualTo("hb: no backups configured in " + dir.resolve("sync.yaml") + "\n");
    }

    @Test
    void aMistakeInTheBackupsSectionIsOneLineWithItsLine() throws Exception {
        Files.writeString(dir.resolve("sync.yaml"), """
                backups:
                  drawer:
                    label: A
                    mount_point: /mnt/jhb-backup
                    paths: [/srv/web]
                    keep: 0
                """);
        HbRun r = hb("backup", "run", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).startsWith("hb: " + dir.resolve("sync.yaml") + ":6: ").contains("keep")
                .doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.err().lines().count()).isEqualTo(1);
    }

    @Test
    void statusOfABackupThatNeverRan() throws Exception {
        syncYaml("JHBT-" + UUID.randomUUID().toString().substring(0, 8));
        HbRun r = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).startsWith("drawer: disk LABEL=JHBT-").contains(" missing, last run NEVER, 0 snapshot(s)\n  never run\n");
    }

    @Test
    void anUnknownBackupNameIsAUsageError() throws Exception {
        syncYaml("JHBT-x");
        HbRun r = hb("backup", "run", "nosuch", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("hb: no backup 'nosuch' in " + dir.resolve("sync.yaml") + " (configured: drawer)\n");
    }

    @Test
    void aRunWithoutTheDiskFailsClearlyAndWritesNothing() throws Exception {
        String label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
        syncYaml(label);
        Files.createDirectories(dir.resolve("src"));
        HbRun r = hb("backup", "run", "drawer", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).isEqualTo("hb: backup drawer: REFUSED: disk LABEL=" + label + " is missing: no snapshot taken\n");
        assertThat(dir.resolve("mnt")).doesNotExist();
        HbRun s = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(s.out()).contains(" missing, last run NEVER").contains("is missing: no snapshot taken");
        HbRun l = hb("backup", "list", "--config-dir", dir.toString());
        assertThat(l.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(l.err()).isEqualTo("hb: backup drawer: disk LABEL=" + label + " is missing\n");
    }

    @Test
    void restoreOfAPathNoBackupHoldsIsRefused() throws Exception {
        syncYaml("JHBT-x");
        HbRun r = hb("backup", "restore", "/etc/passwd", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).isEqualTo("hb: /etc/passwd is not under the paths of any backup\n");
    }
}
