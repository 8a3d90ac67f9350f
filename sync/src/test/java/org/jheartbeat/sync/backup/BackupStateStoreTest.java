package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupStateStoreTest {
    @TempDir
    Path dir;

    @Test
    void missingFileIsTheInitialState() {
        BackupState s = new BackupStateStore(dir.resolve("none")).read("drawer");
        assertThat(s).isEqualTo(BackupState.initial("drawer"));
        assertThat(s.lastResult()).isEqualTo(BackupResult.NEVER);
        assertThat(s.disk()).isEqualTo(DiskState.MISSING);
    }

    @Test
    void roundTripKeepsEveryField() throws Exception {
        BackupStateStore store = new BackupStateStore(dir.resolve("state"));
        BackupState s = new BackupState("drawer", DiskState.PRESENT, BackupResult.FULL,
                Optional.of(Instant.parse("2026-11-29T22:15:00Z")), Optional.of(Instant.parse("2026-11-29T22:16:01.5Z")),
                "disk LABEL=x is full (0 bytes free): snapshot not taken, previous snapshots intact\nsecond line = ok",
                3, Optional.of("2026-11-28T101010Z"), 1_234_567_890_123L, 42L);
        store.write(s);
        assertThat(store.file("drawer")).isEqualTo(dir.resolve("state/backup-drawer.state"));
        assertThat(new BackupStateStore(dir.resolve("state")).read("drawer")).isEqualTo(s);
        BackupState later = s.withDisk(DiskState.MISSING, "disk LABEL=x is missing");
        assertThat(later.lastRunMessage()).as("a disk poll keeps the last run's line").isEqualTo(s.message());
        store.write(later);
        assertThat(store.read("drawer")).isEqualTo(later);
        assertThat(store.read("drawer").lastRunMessage()).isEqualTo(s.message());
        try (var files = Files.list(dir.resolve("state"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("backup-drawer.state");
        }
    }

    @Test
    void aFileWrittenBeforeLastRunMessageExistedUsesTheMessage() throws Exception {
        BackupStateStore store = new BackupStateStore(dir);
        Files.writeString(store.file("d"), "disk=PRESENT\nlastResult=OK\nlastEnd=2026-11-29T22\\:15\\:05Z\n"
                + "message=snapshot x done\nsnapshots=1\n");
        BackupState s = store.read("d");
        assertThat(s.lastRunMessage()).isEqualTo("snapshot x done");
        assertThat(s.lastEnd()).contains(Instant.parse("2026-11-29T22:15:05Z"));
        assertThat(s.snapshots()).isEqualTo(1);
    }

    @Test
    void malformedFileIsAClearError() throws Exception {
        BackupStateStore store = new BackupStateStore(dir);
        Files.writeString(store.file("d"), "disk=SIDEWAYS\n");
        assertThatThrownBy(() -> store.read("d")).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("malformed " + store.file("d"));
    }
}
