package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fallbackcommand and callback programs, run through the process runner on real processes. */
class ProgramsTest {
    @TempDir
    Path tmp;

    @Test
    void aProgramRunsBesideTheCallerAndItsExitIsReported() throws Exception {
        Path marker = tmp.resolve("ran");
        OsProcessRunner runner = new OsProcessRunner(tmp, 1024);
        assertThat(Programs.start(runner, List.of("sh", "-c", "echo $0 > " + marker, "fallback-start"),
                Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS)).isZero();
        assertThat(Files.readString(marker)).isEqualTo("fallback-start\n");
        assertThat(Programs.start(runner, List.of("sh", "-c", "echo failed >&2; exit 4"), Duration.ofSeconds(30))
                .get(30, TimeUnit.SECONDS)).isEqualTo(4);
    }

    @Test
    void aProgramThatCannotStartIsReportedNotThrown() throws Exception {
        assertThat(Programs.start(new OsProcessRunner(tmp, 1024), List.of("/nonexistent/callback", "/etc/x.cf"),
                Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS)).isEqualTo(ProcessResult.NO_EXIT_CODE);
    }

    @Test
    void aHungProgramIsKilledAtItsLimit() throws Exception {
        assertThat(Programs.start(new OsProcessRunner(tmp, 1024), List.of("sleep", "60"), Duration.ofMillis(200))
                .get(30, TimeUnit.SECONDS)).isNotZero();
    }
}
