package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotNamesTest {

    @Test
    void namesAreUtcSecondsAndParseBack() {
        Instant t = Instant.parse("2026-11-29T22:15:00.987Z");
        assertThat(SnapshotNames.name(t)).isEqualTo("2026-11-29T221500Z");
        assertThat(SnapshotNames.parse("2026-11-29T221500Z")).contains(Instant.parse("2026-11-29T22:15:00Z"));
    }

    @Test
    void incompleteAndForeignNamesAreNotSnapshots() {
        assertThat(SnapshotNames.parse("2026-11-29T221500Z.incomplete")).isEmpty();
        assertThat(SnapshotNames.parse("2026-11-29T22150Z")).isEmpty();
        assertThat(SnapshotNames.parse("2026-13-29T221500Z")).isEmpty();
        assertThat(SnapshotNames.parse("lost+found")).isEmpty();
        List<String> dir = List.of("lost+found", "2026-11-29T221500Z.incomplete", "2026-11-28T000000Z");
        assertThat(SnapshotNames.snapshots(dir)).containsExactly("2026-11-28T000000Z");
        assertThat(SnapshotNames.incomplete(dir)).containsExactly("2026-11-29T221500Z.incomplete");
    }

    @Test
    void orderingIsByTimeAndNewestIsTheLinkDest() {
        List<String> dir = List.of("2026-11-29T000000Z", "2025-12-31T235959Z", "2026-01-01T000000Z", "x");
        assertThat(SnapshotNames.snapshots(dir))
                .containsExactly("2025-12-31T235959Z", "2026-01-01T000000Z", "2026-11-29T000000Z");
        assertThat(SnapshotNames.newest(dir)).contains("2026-11-29T000000Z");
        assertThat(SnapshotNames.newest(List.of("a.incomplete"))).isEmpty();
    }

    @Test
    void rotationDeletesTheOldestBeyondKeep() {
        List<String> dir = List.of("2026-11-03T000000Z", "2026-11-01T000000Z", "2026-11-02T000000Z",
                "2026-11-04T000000Z.incomplete", "lost+found");
        assertThat(SnapshotNames.toDelete(dir, 2)).containsExactly("2026-11-01T000000Z");
        assertThat(SnapshotNames.toDelete(dir, 1)).containsExactly("2026-11-01T000000Z", "2026-11-02T000000Z");
        assertThat(SnapshotNames.toDelete(dir, 3)).isEmpty();
        assertThat(SnapshotNames.toDelete(dir, 7)).isEmpty();
        assertThatThrownBy(() -> SnapshotNames.toDelete(dir, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
