package org.jheartbeat.resources.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.stream.Stream;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.lookup.ScriptLocator;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.jheartbeat.resources.ocf.OcfDirectory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stop-failure policy (Heartbeat's retries, then BLOCKED: the group's stop
 * fails and the resources it depends on stay up) holds for every agent class, through the real
 * agents of {@link StandardResourceAgents} on a recording process runner. A status that fails
 * after the failed stops keeps the group blocked for every class except Heartbeat's scripts.
 */
class StopFailureEveryClassTest {
    @TempDir
    Path dir;
    private Path resourceD;
    private Path initD;
    private Path ocfRoot;
    private final RecordingProcessRunner runner = new RecordingProcessRunner();
    private final List<Duration> pauses = new ArrayList<>();

    /**
     * One class: its token, the argv prefixes of its stop and status, and status answers.
     *
     * @param name    for the test name
     * @param token   the haresources token (paths under the temp dir are filled in)
     * @param stop    argv prefix of a stop, relative names resolved in {@link #resolve}
     * @param status  argv prefix of a status
     * @param running what status prints while the resource still runs
     * @param failed  a status that fails (neither running nor stopped)
     * @param blocksOnFailedStatus whether a failed status keeps the group blocked
     */
    record Case(String name, String token, List<String> stop, List<String> status, ProcessResult running,
                ProcessResult failed, boolean blocksOnFailedStatus) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> classes() {
        return Stream.of(
                new Case("heartbeat resource.d", "svc::arg", List.of("RD/svc", "arg", "stop"),
                        List.of("RD/svc", "arg", "status"), ProcessResult.exited(0, "svc is running"),
                        ProcessResult.exited(1, ""), false),
                new Case("lsb", "lsb:svc", List.of("ID/svc", "stop"), List.of("ID/svc", "status"),
                        ProcessResult.exited(0, ""), ProcessResult.exited(4, "unknown"), true),
                new Case("ocf", "ocf:test:Dummy::state=/run/x", List.of("OCF/resource.d/test/Dummy", "stop"),
                        List.of("OCF/resource.d/test/Dummy", "monitor"), ProcessResult.exited(0, ""),
                        ProcessResult.exited(1, ""), true),
                new Case("systemd", "systemd:svc", List.of("systemctl", "stop", "svc"),
                        List.of("systemctl", "is-active", "svc"), ProcessResult.exited(0, "active\n"),
                        ProcessResult.exited(1, "System has not been booted with systemd\n"), true),
                new Case("drbddisk", "drbddisk::r0", List.of("drbdadm", "secondary", "r0"),
                        List.of("drbdadm", "role", "r0"), ProcessResult.exited(0, "Primary/Secondary\n"),
                        ProcessResult.exited(10, ""), true));
    }

    @BeforeEach
    void agents() throws IOException {
        resourceD = Files.createDirectories(dir.resolve("ha.d/resource.d"));
        initD = Files.createDirectories(dir.resolve("init.d"));
        ocfRoot = dir.resolve("ocf");
        executable(resourceD.resolve("svc"));
        executable(resourceD.resolve("left"));
        executable(initD.resolve("svc"));
        executable(Files.createDirectories(ocfRoot.resolve("resource.d/test")).resolve("Dummy"));
        runner.on(List.of(ocfRoot.resolve("resource.d/test/Dummy").toString(), "meta-data"), ProcessResult.exited(0,
                "<resource-agent name=\"Dummy\"><parameters><parameter name=\"state\"/></parameters></resource-agent>"));
    }

    private static void executable(Path p) throws IOException {
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private List<String> resolve(List<String> argv) {
        List<String> out = new ArrayList<>(argv);
        String first = out.get(0)
                .replace("RD/", resourceD + "/").replace("ID/", initD + "/").replace("OCF/", ocfRoot + "/");
        out.set(0, first);
        return out;
    }

    private ResourceGroupRunner groupRunner() {
        Executor inline = Runnable::run;
        StandardResourceAgents agents = new StandardResourceAgents(new ScriptLocator(resourceD, initD), runner,
                IpCommands.DEFAULT, GratuitousArp.DEFAULT, inline, new OcfDirectory(ocfRoot, runner), "systemctl",
                "drbdadm", pauses::add);
        return new ResourceGroupRunner(agents, pauses::add, 10, Duration.ofSeconds(1));
    }

    /** "left" (a Heartbeat script the resource depends on) then the resource of the class under test. */
    private static ResourceGroupDecl group(String token) {
        return new ResourceGroupDecl(NodeName.of("node1"), Stream.of("left", token)
                .map(t -> HaresourcesParser.resource(t).orElseThrow()).toList(), 1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("classes")
    void aResourceThatKeepsRunningAfterElevenStopsBlocksItsGroup(Case c) {
        runner.on(resolve(c.stop()), ProcessResult.exited(1, ""));
        runner.on(resolve(c.status()), c.running());
        GroupResult result = groupRunner().stop(group(c.token()));

        assertThat(result.success()).isFalse();
        assertThat(result.message()).startsWith("Resource STOP failure in group left: [" + c.token());
        assertThat(result.tokens(ResourceStep.STOP_FAILED)).containsExactly(c.token());
        assertThat(result.outcomes()).singleElement().satisfies(o -> assertThat(o.attempts()).isEqualTo(11));
        assertThat(runner.argvsStartingWith(resolve(c.stop()))).hasSize(11);
        assertThat(runner.argvsStartingWith(List.of(resourceD.resolve("left").toString(), "stop")))
                .as("the resource it depends on stays up").isEmpty();
        assertThat(pauses).hasSize(10).containsOnly(Duration.ofSeconds(1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("classes")
    void aStatusThatFailsAfterTheFailedStopsBlocksEveryClassButHeartbeats(Case c) {
        runner.on(resolve(c.stop()), ProcessResult.exited(1, ""));
        runner.on(resolve(c.status()), c.failed());
        GroupResult result = groupRunner().stop(group(c.token()));

        assertThat(result.success()).isEqualTo(!c.blocksOnFailedStatus());
        assertThat(result.tokens(ResourceStep.STOP_FAILED)).hasSize(c.blocksOnFailedStatus() ? 1 : 0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("classes")
    void aStopThatSucceedsOnARetryReleasesTheGroup(Case c) {
        runner.on(resolve(c.stop()), ProcessResult.exited(1, ""), ProcessResult.exited(1, ""), ProcessResult.exited(0, ""));
        // only systemd asks again after a successful stop (is-active must say the unit is down)
        runner.on(resolve(c.status()), ProcessResult.exited(3, "inactive\n"));
        GroupResult result = groupRunner().stop(group(c.token()));
        assertThat(result.success()).as(result.message()).isTrue();
        assertThat(runner.argvsStartingWith(resolve(c.stop()))).hasSize(3);
        assertThat(result.tokens(ResourceStep.STOPPED)).containsExactly(c.token(), "left");
    }
}
