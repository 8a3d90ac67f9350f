package org.jheartbeat.cli.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RealtimeThreadsTest {
    @Test
    void onlyTheLoopTheMediaEventLoopAndTheVmThreadAreChosen() {
        assertThat(RealtimeThreads.beatsDependOn("hb-loop")).isTrue();
        assertThat(RealtimeThreads.beatsDependOn("hb-media-1-1")).isTrue();
        assertThat(RealtimeThreads.beatsDependOn("VM Thread")).isTrue();
        for (String other : List.of("hb-group-group1", "hb-monitor", "hb-control-1", "C1 CompilerThre", "java",
                "hb-loopy", "GC Thread#0", "hb-state-write")) {
            assertThat(RealtimeThreads.beatsDependOn(other)).as(other).isFalse();
        }
    }

    @Test
    void selectReadsEachTasksCommAndSkipsWhatIsNotAThread(@TempDir Path dir) throws Exception {
        task(dir, "101", "java\n");
        task(dir, "102", "hb-loop\n");
        task(dir, "103", "hb-media-1-1\n");
        task(dir, "104", "hb-group-web\n");
        Files.createDirectories(dir.resolve("105")); // a thread that ended: no comm any more
        Files.createDirectories(dir.resolve("notatask"));
        assertThat(RealtimeThreads.select(dir, RealtimeThreads::beatsDependOn))
                .extracting(RealtimeThreads.Task::tid)
                .containsExactlyInAnyOrder(102L, 103L);
    }

    @Test
    void thisJvmHasAVmThread() throws Exception {
        assertThat(RealtimeThreads.select(Path.of("/proc/self/task"), "VM Thread"::equals)).hasSize(1);
    }

    private static void task(Path dir, String tid, String comm) throws Exception {
        Files.createDirectories(dir.resolve(tid));
        Files.writeString(dir.resolve(tid).resolve("comm"), comm);
    }
}
