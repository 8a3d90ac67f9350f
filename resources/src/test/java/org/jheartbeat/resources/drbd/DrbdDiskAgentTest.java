package org.jheartbeat.resources.drbd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in drbddisk against a recording {@code drbdadm} script: DRBD's kernel module cannot be
 * loaded on the test machine, so the script journals its arguments and keeps the role in a file.
 */
class DrbdDiskAgentTest {
    @TempDir
    Path dir;
    private final List<Duration> pauses = new ArrayList<>();

    private Path drbdadm(int refusePrimary) throws IOException {
        Files.writeString(dir.resolve("refusals"), Integer.toString(refusePrimary));
        Path script = dir.resolve("drbdadm");
        Files.writeString(script, """
                #!/bin/sh
                d=$(dirname "$0")
                echo "$*" >>"$d/journal"
                case "$1" in
                  primary) n=$(cat "$d/refusals"); if [ "$n" -gt 0 ]; then echo $((n-1)) >"$d/refusals";
                           echo "State change failed: (-1) Multiple primaries not allowed" >&2; exit 11; fi
                           echo Primary >"$d/role" ;;
                  secondary) echo Secondary >"$d/role" ;;
                  role) echo "$(cat "$d/role" 2>/dev/null || echo Secondary)/Secondary" ;;
                esac
                """);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void promotesDemotesAndReadsTheRole() throws IOException {
        DrbdDiskAgent a = new DrbdDiskAgent(List.of("r0"), new OsProcessRunner(), pauses::add, drbdadm(2).toString());
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(a.start().isOk()).isTrue();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(a.stop().isOk()).isTrue();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(Files.readAllLines(dir.resolve("journal"))).containsExactly("role r0", "primary r0", "primary r0",
                "primary r0", "role r0", "secondary r0", "role r0");
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(1));
    }

    @Test
    void givesUpPromotingAfterSixAttemptsAndDefaultsToAll() throws IOException {
        DrbdDiskAgent a = new DrbdDiskAgent(List.of(), new OsProcessRunner(), pauses::add, drbdadm(100).toString());
        assertThat(a.start().message()).contains("primary all returned 11: State change failed");
        assertThat(Files.readAllLines(dir.resolve("journal"))).hasSize(DrbdDiskAgent.PROMOTE_ATTEMPTS)
                .allMatch(l -> l.equals("primary all"));
        assertThat(a.failedStatusMeansStopped()).isFalse();
    }
}
