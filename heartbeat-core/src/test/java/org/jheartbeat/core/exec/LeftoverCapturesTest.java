package org.jheartbeat.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output a background child writes after its start script ended: real processes, real files, disk use as
 * the kernel counts it (allocated blocks of the child's stdout, through {@code /proc/PID/fd/1}).
 */
class LeftoverCapturesTest {
    @TempDir
    Path tmp;

    /**
     * A script leaves a child behind that writes 40 MiB into the script's stdout after the script ended, then
     * waits holding it: the file's space goes back to (almost) nothing. On a runner that only deletes the
     * name, the 40 MiB stay allocated until the child exits. The awaits only catch a runner that never does.
     */
    @Test
    void aBackgroundChildWritingAfterItsScriptEndedDoesNotFillTheDisk() throws Exception {
        Path done = tmp.resolve("done");
        String script = "( sleep 1; i=0; while [ $i -lt 40 ]; do head -c 1048576 /dev/zero; i=$((i+1)); done;"
                + " touch " + done + "; exec sleep 600 ) & echo $!";
        ProcessResult r = new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(Duration.ofSeconds(30), "/bin/sh", "-c",
                script));
        long child = Long.parseLong(r.stdout().trim());
        try {
            await().atMost(2, TimeUnit.MINUTES).until(() -> Files.exists(done));
            await().atMost(2, TimeUnit.MINUTES).pollInterval(Duration.ofMillis(200))
                    .until(() -> allocatedKiB(child) <= 1024);
            try (var files = Files.list(tmp)) {
                assertThat(files.map(p -> p.getFileName().toString())).containsExactly("done");
            }
        } finally {
            ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** A file is let go once no other process holds it, and kept while one does. */
    @Test
    void aFileIsLetGoOnceNoOtherProcessHoldsIt() throws Exception {
        LeftoverCaptures leftovers = new LeftoverCaptures(Path.of("/proc"));
        Path held = tmp.resolve("held.txt");
        Process sleeper = new ProcessBuilder("sleep", "600").redirectOutput(held.toFile()).start();
        try {
            leftovers.adopt(held);
            Path free = Files.writeString(tmp.resolve("free.txt"), "x");
            leftovers.adopt(free);
            assertThat(held).doesNotExist();
            assertThat(free).doesNotExist();
            leftovers.release();
            assertThat(leftovers.size()).isEqualTo(1);
        } finally {
            sleeper.destroyForcibly();
            assertThat(sleeper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        leftovers.release();
        assertThat(leftovers.size()).isZero();
        leftovers.adopt(tmp.resolve("missing.txt"));
        assertThat(leftovers.size()).isZero();
    }

    /** Disk space taken by the child's stdout, in KiB (stat's %b blocks of %B bytes). */
    private static long allocatedKiB(long pid) throws IOException, InterruptedException {
        Process stat = new ProcessBuilder("stat", "-L", "-c", "%b %B", "/proc/" + pid + "/fd/1").start();
        String[] f = new String(stat.getInputStream().readAllBytes()).trim().split(" ");
        assertThat(stat.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return Long.parseLong(f[0]) * Long.parseLong(f[1]) / 1024;
    }
}
