package org.jheartbeat.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OsProcessRunner#start}: a program watched while it runs, on real processes. */
class OsProcessRunnerStartTest {
    @TempDir
    Path tmp;

    @Test
    void theExitCodeAndTheStartOfStderrAreKeptAndTheCaptureFileGoes() throws Exception {
        OsProcessRunner runner = new OsProcessRunner(tmp, 8);
        StartedProcess p = runner.start(ProcessSpec.of(Duration.ofSeconds(30), "sh", "-c",
                "echo out; echo 'no such device eth9' >&2; exit 3"));
        assertThat(p.pid()).isPositive();
        assertThat(p.awaitExit(Duration.ofSeconds(30))).isEqualTo(3);
        assertThat(p.onExit().get(30, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(p.stderr()).isEqualTo("no such");
        assertThat(p.isAlive()).isFalse();
        try (var files = Files.list(tmp)) {
            assertThat(files).isEmpty();
        }
    }

    /**
     * A started program writes 100 MB to stderr and then waits until its capture file takes less than
     * 512 KiB of disk: it ends only if the runner cut the file back while it ran (60 s catches a hang).
     */
    @Test
    void aProgramWritingAHundredMegabytesToStderrDoesNotFillTheDisk() throws Exception {
        String script = "head -c 104857600 /dev/zero | tr '\\0' x >&2\n"
                + "while [ \"$(stat -L -c %b /proc/$$/fd/2)\" -gt 1024 ]; do sleep 0.05; done\n";
        StartedProcess p = new OsProcessRunner(tmp, 65536).start(ProcessSpec.of(Duration.ofSeconds(120), "/bin/sh",
                "-c", script));
        try {
            assertThat(p.awaitExit(Duration.ofSeconds(60))).as("the capture file was never cut back").isZero();
        } finally {
            p.kill();
        }
        assertThat(p.stderr()).hasSize(65536).matches("x+");
    }

    @Test
    void aRunningProgramIsLeftRunningByAShortWaitAndKilledWithItsChildren() throws Exception {
        StartedProcess p = new OsProcessRunner(tmp, 64).start(ProcessSpec.of(Duration.ofSeconds(60), "sh", "-c",
                "sleep 60 & wait"));
        assertThat(p.awaitExit(Duration.ofMillis(10))).isEqualTo(ProcessResult.NO_EXIT_CODE);
        assertThat(p.isAlive()).isTrue();
        var children = ProcessHandle.of(p.pid()).orElseThrow().descendants().toList();
        p.kill();
        assertThat(p.awaitExit(Duration.ofSeconds(30))).isNotEqualTo(ProcessResult.NO_EXIT_CODE);
        for (ProcessHandle c : children) {
            assertThat(c.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
        }
    }

    @Test
    void theSpecsTimeoutKillsAProgramNobodyWaitsFor() throws Exception {
        StartedProcess p = new OsProcessRunner(tmp, 64).start(ProcessSpec.of(Duration.ofMillis(200), "sleep", "60"));
        assertThat(p.onExit().get(30, TimeUnit.SECONDS)).isNotZero();
        assertThat(p.isAlive()).isFalse();
    }

    @Test
    void aMissingProgramCannotStartAndLeavesNoFile() throws Exception {
        assertThatThrownBy(() -> new OsProcessRunner(tmp, 64).start(ProcessSpec.of(Duration.ofSeconds(5),
                "/nonexistent/arping"))).isInstanceOf(IOException.class);
        try (var files = Files.list(tmp)) {
            assertThat(files).isEmpty();
        }
    }
}
