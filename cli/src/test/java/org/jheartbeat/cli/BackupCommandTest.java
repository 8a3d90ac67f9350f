package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.UUID;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.sync.backup.BackupResult;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.backup.BackupStateStore;
import org.jheartbeat.sync.backup.DiskState;
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
        assertThat(r.err()).isEqualTo("hb: " + dir.toAbsolutePath().resolve("sync.yaml") + " does not exist, so no"
                + " backups are configured on this node: create it with a backups: section (format: man jheartbeat-sync.yaml), or give"
                + " the directory that holds it with --config-dir\n");
    }

    @Test
    void aRunWithoutABackupsSectionSaysWhatToAddInOneLine() throws Exception {
        Files.writeString(dir.resolve("sync.yaml"), "state_dir: " + dir.resolve("state") + "\n");
        HbRun r = hb("backup", "run", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).isEqualTo("hb: no backups configured in " + dir.toAbsolutePath().resolve("sync.yaml")
                + ": add a backups: section (format: man jheartbeat-sync.yaml)\n");
        assertThat(r.out()).isEmpty();
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
        String label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
        syncYaml(label);
        HbRun r = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).isEqualTo("drawer: disk LABEL=" + label + " missing (insert it: a "
                + "snapshot is taken on insertion by the daemon, or with hb backup run drawer)\n  last run: never\n");
    }

    @Test
    void statusProbesTheDiskNowInsteadOfTrustingTheStateFile() throws Exception {
        String label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
        syncYaml(label);
        // as a daemon poll left it: the disk seen present, then the last run's line replaced by the poll's
        Instant start = Instant.parse("2026-11-29T22:15:00Z");
        Instant end = Instant.parse("2026-11-29T22:15:07.250Z");
        new BackupStateStore(dir.resolve("state")).write(new BackupState("drawer", DiskState.PRESENT, BackupResult.OK,
                Optional.of(start), Optional.of(end), "disk LABEL=" + label + " present at /dev/loop9", 2,
                Optional.of("2026-11-29T221500Z"), 6, 4096, "snapshot 2026-11-29T221500Z done: 1 files, 1 changed (6 B), verified"));
        HbRun r = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        String local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault()).format(end);
        assertThat(r.out()).isEqualTo("drawer: disk LABEL=" + label + " missing (insert it: a snapshot is taken on "
                + "insertion by the daemon, or with hb backup run drawer)\n"
                + "  last run: OK at " + local + ", 2 snapshot(s), newest 2026-11-29T221500Z\n"
                + "  snapshot 2026-11-29T221500Z done: 1 files, 1 changed (6 B), verified\n");
    }

    /** A scheduled whole-system backup: its profile, its schedule with the next time, and the last skip. */
    @Test
    void statusShowsTheProfileTheScheduleAndTheLastSkip() throws Exception {
        String label = "JHBT-" + UUID.randomUUID().toString().substring(0, 8);
        Files.writeString(dir.resolve("sync.yaml"), """
                state_dir: %s
                backups:
                  system:
                    label: %s
                    mount_point: /mnt/jhb-system
                    paths: [/, /boot]
                    profile: system
                    schedule: "30 2 * * *"
                """.formatted(dir.resolve("state"), label));
        String skip = "scheduled snapshot due 2026-12-06T02:30:00Z skipped: disk LABEL=" + label + " is missing (put it"
                + " back in the drawer; a snapshot is taken when it is inserted)";
        new BackupStateStore(dir.resolve("state")).write(BackupState.initial("system").withSkip(DiskState.MISSING, skip));
        HbRun r = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).matches("(?s)system: disk LABEL=" + label + " missing .*\n"
                + "  last run: never\n"
                + "  profile: system \\(one file system per path: /, /boot\\)\n"
                + "  schedule: 30 2 \\* \\* \\* \\(while the disk is in the drawer; next \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:00\\)\n"
                + "  skipped: " + java.util.regex.Pattern.quote(skip) + "\n");
    }

    @Test
    void aBadScheduleOrProfileIsOneLineWithItsLineAndNothingRuns() throws Exception {
        Files.writeString(dir.resolve("sync.yaml"), """
                state_dir: %s
                backups:
                  system:
                    label: L
                    mount_point: /mnt/jhb-system
                    paths: [/]
                    schedule: "every night"
                """.formatted(dir.resolve("state")));
        HbRun r = hb("backup", "verify", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err().lines().toList()).containsExactly(
                "hb: " + dir.resolve("sync.yaml") + ":6: backup system: path / is a whole system; list the data"
                        + " directories, or add \"profile: system\" to back up the whole system",
                dir.resolve("sync.yaml") + ":7: backup system: schedule [every night] has 2 fields, expected 5 (minute hour"
                        + " day month weekday) or 6 (with leading seconds); write a cron expression such as \"*/5 * * * *\"");
        assertThat(r.out()).isEmpty();
        assertThat(dir.resolve("state")).doesNotExist();
    }

    @Test
    void statusOfARunThatNeverFinished() throws Exception {
        syncYaml("JHBT-x");
        Instant start = Instant.parse("2026-11-29T22:15:00Z");
        new BackupStateStore(dir.resolve("state")).write(new BackupState("drawer", DiskState.PRESENT, BackupResult.NEVER,
                Optional.of(start), Optional.empty(), "running since " + start, 0, Optional.empty(), 0, 0));
        HbRun r = hb("backup", "status", "--config-dir", dir.toString());
        String local = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault()).format(start);
        assertThat(r.out()).endsWith("\n  last run: started " + local + ", not finished (running now, or interrupted), "
                + "0 snapshot(s)\n");
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
        assertThat(r.err()).isEqualTo("hb: backup drawer: REFUSED: disk LABEL=" + label
                + " is missing: no snapshot taken (insert the disk and try again)\n");
        assertThat(dir.resolve("mnt")).doesNotExist();
        HbRun s = hb("backup", "status", "--config-dir", dir.toString());
        assertThat(s.out()).contains(label + " missing (insert it").endsWith("\n  last run: never\n");
        HbRun l = hb("backup", "list", "--config-dir", dir.toString());
        assertThat(l.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(l.err()).isEqualTo("hb: backup drawer: disk LABEL=" + label + " is missing (insert the disk and try again)\n");
    }

    @Test
    void restoreOfAPathNoBackupHoldsIsRefused() throws Exception {
        syncYaml("JHBT-x");
        HbRun r = hb("backup", "restore", "/etc/passwd", "--config-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).isEqualTo("hb: /etc/passwd is not under the paths of any backup (backed up: "
                + dir.resolve("src") + ")\n");
    }
}
