package org.jheartbeat.resources.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.ResourceClass;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.AgentNotFoundException;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.drbd.DrbdDiskAgent;
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.lsb.LsbAgent;
import org.jheartbeat.resources.ocf.OcfAgent;
import org.jheartbeat.resources.ocf.OcfDirectory;
import org.jheartbeat.resources.script.ScriptAgent;
import org.jheartbeat.resources.systemd.SystemdAgent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StandardResourceAgents} picks the agent by the token's class. */
class ClassDispatchTest {
    @TempDir
    Path tmp;
    private Path initDir;
    private Path ocfRoot;
    private final RecordingProcessRunner runner = new RecordingProcessRunner();
    private StandardResourceAgents agents;

    @BeforeEach
    void dirs() throws IOException {
        Path configDir = Files.createDirectories(tmp.resolve("ha.d/resource.d")).getParent();
        initDir = Files.createDirectories(tmp.resolve("init.d"));
        ocfRoot = tmp.resolve("ocf");
        executable(initDir.resolve("lighttpd"));
        executable(configDir.resolve("resource.d/labweb"));
        executable(Files.createDirectories(ocfRoot.resolve("resource.d/heartbeat")).resolve("Dummy"));
        agents = new StandardResourceAgents(ScriptLocator.of(configDir, initDir), runner, IpCommands.DEFAULT,
                GratuitousArp.DEFAULT, Runnable::run, new OcfDirectory(ocfRoot, runner), "systemctl", "drbdadm",
                d -> { });
    }

    private static void executable(Path p) throws IOException {
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private ResourceAgent agent(String token) {
        return agents.forSpec(HaresourcesParser.resource(token).orElseThrow());
    }

    @Test
    void builtInFilesystemRunsTheOcfAgentWithHeartbeatsPositionalArguments() throws IOException {
        executable(ocfRoot.resolve("resource.d/heartbeat/Filesystem"));
        runner.on(List.of(ocfRoot.resolve("resource.d/heartbeat/Filesystem").toString(), "meta-data"),
                ProcessResult.exited(0, "<resource-agent name=\"Filesystem\"/>"));
        OcfAgent fs = (OcfAgent) agent("Filesystem::/dev/loop7::/srv/web::ext4::noatime");
        assertThat(fs.resourceClass()).isEqualTo(ResourceClass.OCF);
        var spec = fs.spec("start");
        assertThat(spec.argv()).containsExactly(ocfRoot.resolve("resource.d/heartbeat/Filesystem").toString(), "start");
        assertThat(spec.env()).containsEntry("OCF_RESKEY_device", "/dev/loop7")
                .containsEntry("OCF_RESKEY_directory", "/srv/web").containsEntry("OCF_RESKEY_fstype", "ext4")
                .containsEntry("OCF_RESKEY_options", "noatime").containsEntry("OCF_RESOURCE_TYPE", "Filesystem");
        assertThatThrownBy(() -> agent("Filesystem::/dev/loop7")).isInstanceOf(ResourceAgentException.class)
                .hasMessageContaining("Filesystem takes DEVICE::DIRECTORY");
        // an admin's own resource.d/Filesystem keeps Heartbeat's rules
        executable(tmp.resolve("ha.d/resource.d/Filesystem"));
        assertThat(agent("Filesystem::/dev/loop7::/srv/web")).isInstanceOf(ScriptAgent.class);
    }

    @Test
    void eachClassGetsItsAgent() {
        runner.on(List.of(ocfRoot.resolve("resource.d/heartbeat/Dummy").toString(), "meta-data"), ProcessResult.exited(0,
                "<resource-agent name=\"Dummy\"><actions><action name=\"start\" timeout=\"7s\"/></actions></resource-agent>"));
        assertThat(agent("labweb::8080")).isInstanceOf(ScriptAgent.class).extracting(ResourceAgent::resourceClass)
                .isEqualTo(ResourceClass.HEARTBEAT);
        assertThat(agent("lsb:lighttpd")).isInstanceOf(LsbAgent.class);
        assertThat(((LsbAgent) agent("lsb::lighttpd")).spec("start").argv())
                .containsExactly(initDir.resolve("lighttpd").toString(), "start");
        assertThat(agent("systemd:mariadb")).isInstanceOf(SystemdAgent.class);
        assertThat(agent("drbddisk::r0")).isInstanceOf(DrbdDiskAgent.class);
        OcfAgent ocf = (OcfAgent) agent("ocf:heartbeat:Dummy::state=/tmp/x");
        assertThat(ocf.timeout("start")).isEqualTo(Duration.ofSeconds(7));
        agent("ocf:heartbeat:Dummy::state=/tmp/y");
        assertThat(runner.argvsStartingWith(List.of(ocfRoot.resolve("resource.d/heartbeat/Dummy").toString(),
                "meta-data"))).as("meta-data read once per agent").hasSize(1);
    }

    @Test
    void anLsbResourceIsLookedForInTheInitDirectoryOnly() {
        assertThatThrownBy(() -> agent("lsb:labweb")).isInstanceOf(AgentNotFoundException.class)
                .hasMessageContaining(initDir.resolve("labweb").toString());
    }

    @Test
    void missingOcfAgentAndBadTokens() {
        assertThatThrownBy(() -> agent("ocf:heartbeat:Nope")).isInstanceOf(AgentNotFoundException.class);
        assertThatThrownBy(() -> agents.forSpec(new ResourceSpec("lbs:x", List.of(), "lbs:x")))
                .isInstanceOf(ResourceAgentException.class).hasMessageContaining("unknown resource class");
    }

    @Test
    void unreadableMetaDataLeavesTheDefaultTimeoutsNotAFailure() {
        runner.on(List.of(ocfRoot.resolve("resource.d/heartbeat/Dummy").toString(), "meta-data"),
                ProcessResult.exited(1, "garbage"));
        OcfAgent ocf = (OcfAgent) agent("ocf:heartbeat:Dummy::state=/tmp/x");
        assertThat(ocf.timeout("stop")).isEqualTo(OcfAgent.DEFAULT_TIMEOUT);
    }
}
