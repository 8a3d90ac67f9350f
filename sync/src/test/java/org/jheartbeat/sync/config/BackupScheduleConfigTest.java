package org.jheartbeat.sync.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code schedule:} and {@code profile:} of a backup in sync.yaml, and their errors with file:line. */
class BackupScheduleConfigTest {
    private static final Path SRC = Path.of("/etc/ha.d/sync.yaml");

    @Test
    void aScheduledWholeSystemBackupParses() throws Exception {
        SyncConfig c = SyncConfigParser.parse("""
                backups:
                  system:
                    label: JHB-SYSTEM
                    mount_point: /mnt/jhb-backup
                    paths: [/, /boot, /srv]
                    profile: system
                    schedule: "30 2 * * *"
                  data:
                    label: JHB-DATA
                    mount_point: /mnt/data-backup
                    paths: [/srv/web]
                """, SRC);
        BackupSpec sys = c.backup("system").orElseThrow();
        assertThat(sys.profile()).isEqualTo(BackupProfile.SYSTEM);
        assertThat(sys.system()).isTrue();
        assertThat(sys.schedule()).contains("30 2 * * *");
        assertThat(sys.paths()).containsExactly(Path.of("/"), Path.of("/boot"), Path.of("/srv"));
        assertThat(sys.line()).isEqualTo(2);
        BackupSpec data = c.backup("data").orElseThrow();
        assertThat(data.profile()).isEqualTo(BackupProfile.DATA);
        assertThat(data.schedule()).isEmpty();
        assertThat(data).isEqualTo(new BackupSpec("data", Optional.of("JHB-DATA"), Optional.empty(), Optional.empty(),
                Path.of("/mnt/data-backup"), List.of(Path.of("/srv/web")), BackupSpec.DEFAULT_KEEP,
                BackupSpec.DEFAULT_POLL, true, List.of(), 8));
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', textBlock = """
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/]\\n | 5 | backup d: path / is a whole system; list the data directories, or add "profile: system" to back up the whole system
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/]\\n    profile: full\\n | 6 | backup d: profile [full] is not data or system; write profile: system for a whole-system backup, or remove the line
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/a]\\n    schedule: '*/5 * *'\\n | 6 | backup d: schedule [*/5 * *] has 3 fields, expected 5 (minute hour day month weekday) or 6 (with leading seconds); write a cron expression such as "*/5 * * * *"
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/a]\\n    schedule: '@daily'\\n | 6 | backup d: schedule [@daily]: cron macros like @hourly are not supported; write the fields, e.g. "0 * * * *" for hourly
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/a]\\n    schedule: '0 0 31 2 *'\\n | 6 | backup d: schedule [0 0 31 2 *] never fires (no such date); write a cron expression such as "*/5 * * * *"
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/a]\\n    shedule: '0 3 * * *'\\n | 6 | unknown key [shedule] in backup d; did you mean schedule?
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt/b\\n    paths: [/, /]\\n    profile: system\\n | 5 | backup d: path / is listed twice; keep one
            backups:\\n  d:\\n    label: L\\n    mount_point: /srv/b\\n    paths: [/srv]\\n | 4 | backup d: mount_point /srv/b overlaps the source /srv; mount the disk outside every source path (or back up a whole system with profile: system)
            backups:\\n  d:\\n    label: L\\n    mount_point: /mnt\\n    paths: [/, /mnt/data]\\n    profile: system\\n | 4 | backup d: mount_point /mnt overlaps the source /mnt/data; mount the disk outside every source path
            """)
    void eachErrorHasItsLineAndOneMessage(String text, int line, String message) {
        assertThatThrownBy(() -> SyncConfigParser.parse(text.replace("\\n", "\n"), SRC))
                .isInstanceOf(SyncConfigException.class)
                .hasMessage(SRC + ":" + line + ": " + message);
    }

    @Test
    void aBackupWithAProblemIsLeftOutWhole() {
        assertThatThrownBy(() -> SyncConfigParser.parse("""
                backups:
                  good:
                    label: G
                    mount_point: /mnt/g
                    paths: [/srv]
                  bad:
                    label: B
                    mount_point: /mnt/b
                    paths: [/]
                    profile: system
                    schedule: "61 * * * *"
                """, SRC)).isInstanceOf(SyncConfigException.class)
                .satisfies(e -> assertThat(((SyncConfigException) e).diagnostics()).hasSize(1))
                .hasMessageStartingWith(SRC + ":11: backup bad: schedule [61 * * * *] ");
    }

    @Test
    void theSystemProfileAcceptsTheDiskMountedUnderRoot() throws Exception {
        BackupSpec b = SyncConfigParser.parse("backups:\n  s:\n    label: S\n    mount_point: /mnt/backup\n"
                + "    paths: [/]\n    profile: system\n", SRC).backup("s").orElseThrow();
        assertThat(b.mountPoint()).isEqualTo(Path.of("/mnt/backup"));
        assertThat(b.paths()).containsExactly(Path.of("/"));
    }
}
