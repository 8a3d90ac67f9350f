package org.jheartbeat.core.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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

    /**
     * A real program writes 100 MB to stdout and then waits until its capture file takes less than
     * 512 KiB of disk (its allocated blocks, as stat(1) reports them): it ends only if the runner cut the
     * file back while it ran. The 60 s timeout only catches a runner that never does.
     */
    @Test
    void aProgramWritingAHundredMegabytesDoesNotFillTheDisk() throws IOException {
        String script = "head -c 104857600 /dev/zero | tr '\\0' x\n"
                + "while [ \"$(stat -L -c %b /proc/$$/fd/1)\" -gt 1024 ]; do sleep 0.05; done\n"
                + "echo cut back >&2\n";
        var result = new OsProcessRunner(tmp, 65536).run(ProcessSpec.of(Duration.ofSeconds(60), "/bin/sh", "-c", script));
        assertThat(result.timedOut()).as("the capture file was never cut back").isFalse();
        assertThat(result.stdout()).hasSize(65536).matches("x+");
        assertThat(result.stderr()).isEqualTo("cut back\n");
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
    void theTimeoutCountsFromTheStartEvenWhenShorterThanTheLaunch() throws Exception {
        // 1 ms is less than starting the executor thread and the program takes: still a timeout
        var result = new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(Duration.ofMillis(1), "/bin/sleep", "30"));
        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(ProcessResult.NO_EXIT_CODE);
    }

    @Test
    void missingProgramIsAnIOException() {
        assertThatThrownBy(() -> new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(TEN_S, "/nonexistent/prog",
                "-p", "s3cret-password")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot run program \"/nonexistent/prog\"")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> new OsProcessRunner(tmp, 1024).stream(ProcessSpec.of(TEN_S, "/nonexistent/prog"),
                null, OutputStream.nullOutputStream(), OutputStream.nullOutputStream()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot run program \"/nonexistent/prog\"");
    }

    @Test
    void streamFeedsStdinAndCopiesBothOutputs() throws IOException {
        var out = new ByteArrayOutputStream();
        var err = new ByteArrayOutputStream();
        ProcessExit exit = new OsProcessRunner(tmp, 1024).stream(new ProcessSpec(
                        List.of("/bin/sh", "-c", "cat; echo err $X >&2; exit 4"), Map.of("X", "42"), TEN_S),
                new ByteArrayInputStream(new byte[] {'a', 0, (byte) 0xff, '\n'}), out, err);
        assertThat(exit).isEqualTo(new ProcessExit(4, false));
        assertThat(out.toByteArray()).containsExactly('a', 0, (byte) 0xff, '\n');
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("err 42\n");
    }

    @Test
    void streamWithoutStdinReadsDevNull() throws IOException {
        var out = new ByteArrayOutputStream();
        ProcessExit exit = new OsProcessRunner(tmp, 1024).stream(ProcessSpec.of(TEN_S, "/bin/sh", "-c",
                "cat; echo done"), null, out, out);
        assertThat(exit).isEqualTo(new ProcessExit(0, false));
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("done\n");
    }

    @Test
    void streamTimeoutKillsTheWholeTree() throws Exception {
        Path pidFile = tmp.resolve("child.pid");
        ProcessExit exit = new OsProcessRunner(tmp, 1024).stream(ProcessSpec.of(Duration.ofMillis(300),
                "/bin/sh", "-c", "sleep 30 & echo $! > " + pidFile + "; wait"), null,
                OutputStream.nullOutputStream(), OutputStream.nullOutputStream());
        assertThat(exit).isEqualTo(new ProcessExit(ProcessResult.NO_EXIT_CODE, true));
        assertDead(Long.parseLong(Files.readString(pidFile).trim()));
    }

    @Test
    void anInterruptKillsTheWholeTreeAndKeepsTheFlag() throws Exception {
        Path pidFile = tmp.resolve("child.pid");
        var failure = new AtomicReference<Throwable>();
        var flagAfter = new AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                new OsProcessRunner(tmp, 1024).run(ProcessSpec.of(Duration.ofMinutes(5),
                        "/bin/sh", "-c", "sleep 30 & echo $! > " + pidFile + ".tmp; mv " + pidFile + ".tmp "
                                + pidFile + "; wait", "sh", "-p", "s3cret-password"));
            } catch (Throwable e) {
                failure.set(e);
            }
            flagAfter.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pidFile));
        t.interrupt();
        t.join(30_000);
        assertThat(t.isAlive()).isFalse();
        assertThat(failure.get()).isInstanceOf(InterruptedIOException.class)
                .as("the message reaches the log; arguments may be secrets (upscmd -p)")
                .hasMessage("interrupted while running /bin/sh");
        assertThat(flagAfter.get()).isTrue();
        assertDead(Long.parseLong(Files.readString(pidFile).trim()));
    }

    private static void assertDead(long pid) {
        ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
    }

    @Test
    void specValidation() {
        assertThatThrownBy(() -> ProcessSpec.of(TEN_S)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessSpec.of(Duration.ZERO, "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
