package org.jheartbeat.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.junit.jupiter.api.Test;

class RecordingProcessRunnerTest {
    private static final Duration T = Duration.ofSeconds(1);

    @Test
    void longestPrefixWinsAndSequencesRepeatTheLast() throws IOException {
        var runner = new RecordingProcessRunner()
                .on(List.of("ip"), ProcessResult.exited(1, "short"))
                .on(List.of("ip", "addr"), ProcessResult.exited(0, "a"), ProcessResult.exited(0, "b"));
        assertThat(runner.run(ProcessSpec.of(T, "ip", "addr", "show")).stdout()).isEqualTo("a");
        assertThat(runner.run(ProcessSpec.of(T, "ip", "addr", "show")).stdout()).isEqualTo("b");
        assertThat(runner.run(ProcessSpec.of(T, "ip", "addr", "show")).stdout()).isEqualTo("b");
        assertThat(runner.run(ProcessSpec.of(T, "ip", "route")).stdout()).isEqualTo("short");
        assertThat(runner.run(ProcessSpec.of(T, "arping")).exitCode()).isZero();
        assertThat(runner.argvs()).hasSize(5);
        assertThat(runner.argvsStartingWith(List.of("ip", "addr"))).hasSize(3);
    }

    @Test
    void scriptedStartFailure() {
        var runner = new RecordingProcessRunner().failOn(List.of("x"), new IOException("no such file"));
        assertThatThrownBy(() -> runner.run(ProcessSpec.of(T, "x"))).hasMessage("no such file");
        assertThat(runner.argvs()).containsExactly(List.of("x"));
    }
}
