package org.jheartbeat.resources.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd class's command sequence. systemd is not PID 1 on the test machine (nor in the lab's
 * namespaces), so {@code systemctl} is a recording script: it appends its arguments to a journal and
 * keeps the unit's state in a file, as the real one would report it ({@code is-active} prints the
 * state, exit 0 only for active). It runs through the real {@link OsProcessRunner}.
 */
class SystemdAgentTest {
    @TempDir
    Path dir;

    private Path systemctl(String startBehaviour) throws IOException {
        Path script = dir.resolve("systemctl");
        Files.writeString(script, """
                #!/bin/sh
                d=$(dirname "$0")
                echo "$*" >>"$d/journal"
                state=$(cat "$d/state" 2>/dev/null || echo inactive)
                case "$1" in
                  start) %s ;;
                  stop) echo inactive >"$d/state"; exit 0 ;;
                  is-active) echo "$state"; [ "$state" = active ] && exit 0; exit 3 ;;
                esac
                """.formatted(startBehaviour));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private List<String> journal() throws IOException {
        return Files.readAllLines(dir.resolve("journal"));
    }

    private SystemdAgent agent(Path systemctl) {
        return new SystemdAgent(new AgentRef.Systemd("mariadb", OperationTimeouts.NONE), new OsProcessRunner(),
                systemctl.toString());
    }

    @Test
    void startWaitsForTheJobThenChecksIsActive() throws IOException {
        SystemdAgent a = agent(systemctl("echo active >\"$d/state\"; exit 0"));
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(a.start().isOk()).isTrue();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(a.stop().isOk()).isTrue();
        assertThat(journal()).containsExactly("is-active mariadb", "start mariadb", "is-active mariadb",
                "is-active mariadb", "stop mariadb", "is-active mariadb");
        assertThat(a.spec("start").timeout()).isEqualTo(SystemdAgent.DEFAULT_START_STOP_TIMEOUT);
    }

    @Test
    void aStartJobThatSucceedsForAUnitThatDiedFails() throws IOException {
        SystemdAgent a = agent(systemctl("echo failed >\"$d/state\"; exit 0"));
        AgentResult r = a.start();
        assertThat(r.outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(r.message()).isEqualTo("start job finished but the unit is failed");
    }

    @Test
    void aFailedStartJobFails() throws IOException {
        SystemdAgent a = agent(systemctl("echo 'Job for mariadb.service failed.' >&2; exit 1"));
        AgentResult r = a.start();
        assertThat(r.message()).contains("returned 1: Job for mariadb.service failed.");
        assertThat(journal()).containsExactly("start mariadb");
    }

    @Test
    void unitStates() {
        assertThat(SystemdAgent.UnitState.parse("active\n")).isEqualTo(SystemdAgent.UnitState.ACTIVE);
        assertThat(SystemdAgent.UnitState.parse("deactivating\n").outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(SystemdAgent.UnitState.parse("failed\n").outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(SystemdAgent.UnitState.parse("inactive\n").outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(SystemdAgent.UnitState.parse("").outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(SystemdAgent.UnitState.parse("System has not been booted with systemd").outcome())
                .isEqualTo(AgentOutcome.FAILED);
    }
}
