package org.jheartbeat.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OsProcessRunnerTest {
    private static final Duration TEN_S = Duration.ofSeconds(10);

    @TempDir
    Path tmp;

    @Test
    void capturesExitCodeStdoutStderrAndEnv() throws IOException {
        var runner = new OsProcessRunner(tmp, 1024);
        var result = runner.run(new ProcessSpec(
                List.of("/bin/sh", "-c", "echo out $X; echo err >&2; exit 3"), Map.of("X", "42"), TEN_S));
        assertThat(result).isEqualTo(new ProcessResult(3, "out 42\n", "err\n", false));
        assertThat(result.succeeded()).isFalse();
        try (var files = Files.list(tmp)) {
            assertThat(files).as("capture files are deleted").isEmpty();
        }
    }

    @Test
    void stdinIsDevNull() throws IOException {
        var result = new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(TEN_S, "/bin/cat"));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdout()).isEmpty();
    }

    @Test
    void outputIsBounded() throws IOException {
        var result = new OsProcessRunner(tmp, 10).run(ProcessSpec.of(TEN_S, "/bin/sh", "-c", "seq 1 1000"));
        assertThat(result.stdout()).hasSize(10).isEqualTo("1\n2\n3\n4\n5\n");
    }

    @Test
    void backgroundChildHoldingStdoutDoesNotBlock() throws Exception {
        var result = new OsProcessRunner(tmp, 1024)
                .run(ProcessSpec.of(TEN_S, "/bin/sh", "-c", "sleep 30 & echo $!"));
        assertThat(result.succeeded()).isTrue();
        long pid = Long.parseLong(result.stdout().trim());
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void timeoutKillsTheWholeTree() throws Exception {
        Path pidFile = tmp.resolve("child.pid");
        // the timeout leaves the shell (however loaded the machine) time to start the child and write its pid
        var result = new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(Duration.ofSeconds(3),
                "/bin/sh", "-c", "sleep 30 & echo $! > " + pidFile + "; wait"));
        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(ProcessResult.NO_EXIT_CODE);
        long childPid = Long.parseLong(Files.readString(pidFile).trim());
        var child = ProcessHandle.of(childPid);
        child.ifPresent(h -> h.onExit().join());
        assertThat(ProcessHandle.of(childPid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
    }

    @Test
    void missingProgramIsAnIOException() {
        assertThatThrownBy(() -> new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(TEN_S, "/nonexistent/prog")))
                .isInstanceOf(IOException.class);
    }

    @Test
    void specValidation() {
        assertThatThrownBy(() -> ProcessSpec.of(TEN_S)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessSpec.of(Duration.ZERO, "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
