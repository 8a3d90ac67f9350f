package org.jheartbeat.sync.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobStateStoreTest {
    @Test
    void roundTripsEveryFieldAndLeavesNoTempFile(@TempDir Path dir) throws Exception {
        JobStateStore store = new JobStateStore(dir.resolve("state"));
        assertThat(store.read("web")).isEqualTo(JobState.never("web"));
        JobState s = new JobState("web", Optional.of(Instant.parse("2026-01-02T03:04:05.678Z")),
                Optional.of(Instant.parse("2026-01-02T03:04:07Z")), JobResult.PARTIAL, "10 files, a=b: c\nd",
                1_048_576L, 3, 10_000, 2, Optional.of(Instant.parse("2026-01-02T03:04:05.678Z")),
                Map.of("/srv/web", 9_000L, "/srv/my sql", 1_000L));
        store.write(s);
        assertThat(new JobStateStore(dir.resolve("state")).read("web")).isEqualTo(s);
        try (var files = Files.list(dir.resolve("state"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("web.state");
        }
        assertThat(Files.readString(store.fileOf("web"))).contains("result=PARTIAL").contains("bytesTransferred=1048576");
        store.write(s.running(Instant.parse("2026-01-02T04:00:00Z")));
        JobState r = store.read("web");
        assertThat(r.result()).isEqualTo(JobResult.RUNNING);
        assertThat(r.lastSuccess()).isEqualTo(s.lastSuccess());
        assertThat(r.successCounts()).isEqualTo(s.successCounts());
    }
}
