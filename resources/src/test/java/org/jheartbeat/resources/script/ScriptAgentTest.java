package org.jheartbeat.resources.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.AgentResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScriptAgentTest {
    @TempDir
    Path dir;
    private final OsProcessRunner runner = new OsProcessRunner();
    private Path pidFile;

    /** A script whose status prints the content of $1 and whose start/stop log to $1.log. */
    private Path script(String name, String body) throws IOException {
        Path script = dir.resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    private ScriptAgent textStatusAgent(String statusText, int statusExit) throws IOException {
        Path text = dir.resolve("status.txt");
        Files.writeString(text, statusText);
        Path script = script("textstatus", """
                case "$2" in
                  status) cat "$1"; exit %d;;
                  start|stop) echo "$2" >> "$1.log"; exit 0;;
                esac""".formatted(statusExit));
        return new ScriptAgent(script, List.of(text.toString()), runner);
    }

    @Test
    void statusIsDecidedByStdoutTextAndIgnoresTheExitCode() throws IOException {
        assertThat(textStatusAgent("Not running\n", 0).status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(textStatusAgent("running\n", 3).status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(textStatusAgent("INFO:  Running OK\n", 1).status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(textStatusAgent("OK\n", 0).status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(textStatusAgent("x?! garbage\n", 0).status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(textStatusAgent("", 0).status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        AgentResult status = textStatusAgent("labweb is running\nsecond line\n", 0).status();
        assertThat(status.message()).isEqualTo("labweb is running");
    }

    @Test
    void startIsSkippedWhenStatusSaysRunning() throws IOException {
        ScriptAgent agent = textStatusAgent("running\n", 0);
        assertThat(agent.start().isOk()).isTrue();
        assertThat(dir.resolve("status.txt.log")).doesNotExist();
    }

    @Test
    void startRunsWhenStopped() throws IOException {
        ScriptAgent agent = textStatusAgent("Not running\n", 0);
        assertThat(agent.start()).isEqualTo(new AgentResult(AgentOutcome.OK, "", 0));
        assertThat(Files.readString(dir.resolve("status.txt.log"))).isEqualTo("start\n");
    }

    @Test
    void knownStoppedStartRunsStartWithoutAskingStatus() throws IOException {
        ScriptAgent agent = textStatusAgent("running\n", 0);
        assertThat(agent.startKnownStopped()).isEqualTo(new AgentResult(AgentOutcome.OK, "", 0));
        assertThat(Files.readString(dir.resolve("status.txt.log"))).isEqualTo("start\n");
    }

    @Test
    void argsComeBeforeTheOperation() throws IOException {
        Path script = script("echoargs", "echo \"$@\" > " + dir.resolve("argv.txt"));
        new ScriptAgent(script, List.of("one", "two"), runner).stop();
        assertThat(Files.readString(dir.resolve("argv.txt"))).isEqualTo("one two stop\n");
    }

    @Test
    void nonZeroStartOrStopIsAFailureWithItsExitCode() throws IOException {
        Path script = script("broken", "[ \"$1\" = status ] && exit 0; echo \"cannot $1\" >&2; exit 3");
        ScriptAgent agent = new ScriptAgent(script, List.of(), runner);
        assertThat(agent.start()).isEqualTo(AgentResult.failed("start returned 3: cannot start", 3));
        assertThat(agent.stop()).isEqualTo(AgentResult.failed("stop returned 3: cannot stop", 3));
    }

    @Test
    void startThatBackgroundsADaemonWithInheritedStdoutReturns() throws IOException {
        pidFile = dir.resolve("daemon.pid");
        Path script = script("daemon", """
                case "$1" in
                  status) echo "stopped";;
                  start) sleep 600 & echo $! > %s; echo "daemon started"; exit 0;;
                esac""".formatted(pidFile));
        ScriptAgent agent = new ScriptAgent(script, List.of(), runner);
        // returns when the script exits, not when the daemon's inherited stdout closes (600 s later);
        // the bound only has to tell the two apart, whatever the machine's load
        AgentResult result = assertTimeoutPreemptively(Duration.ofSeconds(60), agent::start);
        assertThat(result.isOk()).isTrue();
        long pid = Long.parseLong(Files.readString(pidFile).trim());
        assertThat(ProcessHandle.of(pid)).as("the daemon outlives the script").isPresent();
    }

    @Test
    void timedOutStartIsAFailure() throws IOException {
        Path script = script("hang", "[ \"$1\" = status ] && exit 0; exec sleep 30");
        ScriptAgent agent = new ScriptAgent(script, List.of(), runner, Duration.ofMillis(300), Duration.ofSeconds(5));
        AgentResult result = agent.start();
        assertThat(result.outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(result.message()).isEqualTo("start timed out after 300 ms");
    }

    @Test
    void unrunnableScriptFailsStatusAndStart() {
        ScriptAgent agent = new ScriptAgent(dir.resolve("gone"), List.of(), runner);
        assertThat(agent.status().outcome()).isEqualTo(AgentOutcome.FAILED);
        assertThat(agent.start().outcome()).isEqualTo(AgentOutcome.FAILED);
    }

    @AfterEach
    void killDaemonByPid() throws IOException {
        if (pidFile != null && Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
