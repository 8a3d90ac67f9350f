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
        store.write(later);
        assertThat(store.read("drawer")).isEqualTo(later);
        try (var files = Files.list(dir.resolve("state"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("backup-drawer.state");
        }
    }

    @Test
    void malformedFileIsAClearError() throws Exception {
        BackupStateStore store = new BackupStateStore(dir);
        Files.writeString(store.file("d"), "disk=SIDEWAYS\n");
        assertThatThrownBy(() -> store.read("d")).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("malformed " + store.file("d"));
    }
}
