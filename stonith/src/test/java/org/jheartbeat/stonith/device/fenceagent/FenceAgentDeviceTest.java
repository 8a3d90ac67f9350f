package org.jheartbeat.stonith.device.fenceagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FenceAgentDeviceTest {
    private static final Duration T = Duration.ofSeconds(30);
    private static final Path AGENT = Path.of("/usr/sbin/fence_x");
    private static final String META = """
            <?xml version="1.0" ?>
            <resource-agent name="fence_x" shortdesc="x">
            <parameters>
              <parameter name="action" unique="0" required="1"><content type="string" default="reboot"/></parameter>
              <parameter name="ip" unique="0" required="1" obsoletes="ipaddr"><content type="string"/></parameter>
              <parameter name="ipaddr" unique="0" required="1" deprecated="1"><content type="string"/></parameter>
              <parameter name="password" unique="0" required="0"><content type="string"/></parameter>
              <parameter name="plug" unique="0" required="1"><content type="string"/></parameter>
              <parameter name="verbose" unique="0" required="0"><content type="boolean"/></parameter>
            </parameters>
            <actions><action name="on"/><action name="off"/><action name="reboot"/><action name="status"/>
            <action name="monitor"/></actions>
            </resource-agent>
            """;

    @TempDir
    Path dir;

    private static RecordingProcessRunner runner(ProcessResult... results) {
        return new RecordingProcessRunner()
                .on(List.of(AGENT.toString(), "-o", "metadata"), ProcessResult.exited(0, META))
                .on(List.of("/bin/sh", "-c"), results);
    }

    @Test
    void namesFromMetadata() throws Exception {
        var d = new FenceAgentDevice("fence_x", AGENT, runner(ProcessResult.exited(0, "")), T, T);
        assertThat(d.configNames()).containsExactly("ip", "hostlist");
        assertThat(d.optionalNames()).containsExactly("ipaddr", "password", "hostmap");
        assertThat(d.plugOption()).isEqualTo("plug");
    }

    @Test
    void optionsGoToStdinWithPlugFromHostmap() throws Exception {
        var r = runner(ProcessResult.exited(0, "Success: Rebooted"));
        var d = new FenceAgentDevice("fence_x", AGENT, r, T, T);
        d.configure(Map.of("ip", "10.0.0.9", "password", "s3cret", "hostlist", "node1 node2", "hostmap", "node2:7"));
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "Node2")).isEqualTo(StonithResult.OK);
        var spec = r.specs().get(1);
        assertThat(spec.argv()).containsExactly("/bin/sh", "-c", FenceAgentDevice.WRAPPER, AGENT.toString());
        assertThat(spec.env().get(FenceAgentDevice.STDIN_VAR).lines())
                .containsExactlyInAnyOrder("action=reboot", "nodename=node2", "plug=7", "ip=10.0.0.9", "password=s3cret")
                .startsWith("action=reboot");
        d.reset(ResetRequest.POWER_OFF, "node1");
        assertThat(r.specs().get(2).env().get(FenceAgentDevice.STDIN_VAR)).contains("action=off\n", "plug=node1\n");
    }

    @Test
    void exitCodesAndErrors() throws Exception {
        var d = new FenceAgentDevice("fence_x", AGENT, runner(ProcessResult.exited(1, ""),
                new ProcessResult(-1, "", "", true), ProcessResult.exited(2, "Status: OFF"), ProcessResult.exited(1, "")), T, T);
        d.configure(Map.of("ip", "x", "hostlist", "node1"));
        assertThat(d.reset(ResetRequest.POWER_ON, "node1")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(d.reset(ResetRequest.POWER_ON, "node1")).isEqualTo(StonithResult.TIMEOUT);
        assertThat(d.status()).isEqualTo(StonithResult.OK); // monitor exit 2: reachable, off
        assertThat(d.status()).isEqualTo(StonithResult.ACCESS);
        assertThat(d.reset(ResetRequest.POWER_ON, "node9")).isEqualTo(StonithResult.BADHOST);
    }

    @Test
    void configErrors() throws Exception {
        var d = new FenceAgentDevice("fence_x", AGENT, runner(ProcessResult.exited(0, "")), T, T);
        assertThatThrownBy(() -> d.configure(Map.of("hostlist", "n1"))).hasMessageContaining("'ip' is missing");
        assertThatThrownBy(() -> d.configure(Map.of("ip", "x", "hostlist", "n1", "action", "off")))
                .hasMessageContaining("unknown parameter 'action'");
        assertThatThrownBy(() -> d.configure(Map.of("ip", "x\naction=off", "hostlist", "n1")))
                .hasMessageContaining("one line");
        assertThatThrownBy(() -> d.configure(Map.of("ip", "x", "hostlist", "n1", "hostmap", "n1")))
                .hasMessageContaining("node:plug");
        assertThatThrownBy(() -> new FenceAgentDevice("ipmi", AGENT, runner(ProcessResult.exited(0, "")), T, T))
                .isInstanceOf(StonithConfigException.class);
    }

    @Test
    void fallsBackToFixedSetWithoutMetadata() throws Exception {
        var r = new RecordingProcessRunner().on(List.of(AGENT.toString()), ProcessResult.exited(1, ""));
        var d = new FenceAgentDevice("fence_x", AGENT, r, T, T);
        assertThat(d.configNames()).containsExactly("hostlist");
        assertThat(d.optionalNames()).containsAll(FenceAgentDevice.FALLBACK_OPTIONS);
        d.configure(Map.of("ip", "x", "hostlist", "n1"));
        assertThat(d.stdinFor("reboot", "n1")).isEqualTo("action=reboot\nnodename=n1\nplug=n1\nip=x\n");
    }

    @Test
    void metadataParserRefusesDoctype() {
        assertThatThrownBy(() -> FenceAgentMetadata.parse("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e SYSTEM "
                + "\"file:///etc/passwd\">]><resource-agent>&e;</resource-agent>")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> FenceAgentMetadata.parse("<other/>")).hasMessageContaining("resource-agent");
    }

    /** Debian's real fence_dummy (no hardware: a status file), through stdin, end to end. */
    @Test
    void drivesRealFenceDummy() throws Exception {
        Path agent = Path.of("/usr/sbin/fence_dummy");
        assumeThat(Files.isExecutable(agent)).isTrue();
        Path status = dir.resolve("dummy.status");
        var d = new FenceAgentDevice("fence_dummy", agent, new OsProcessRunner(), T, T);
        assertThat(d.plugOption()).isNull(); // fence_dummy has no plug option
        assertThat(d.configNames()).containsExactly("hostlist");
        d.configure(Map.of("status_file", status.toString(), "hostlist", "node2"));
        assertThat(d.reset(ResetRequest.POWER_ON, "node2")).isEqualTo(StonithResult.OK);
        assertThat(Files.readString(status).strip()).isEqualTo("on");
        assertThat(d.nodeStatus("node2")).isEqualTo(StonithResult.OK);
        assertThat(d.reset(ResetRequest.POWER_OFF, "node2")).isEqualTo(StonithResult.OK);
        assertThat(Files.readString(status).strip()).isEqualTo("off");
        assertThat(d.nodeStatus("node2")).isEqualTo(StonithResult.ISOFF);
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "node2")).isEqualTo(StonithResult.OK);
        assertThat(Files.readString(status).strip()).isEqualTo("on");
        assertThat(d.status()).isEqualTo(StonithResult.OK);
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "node3")).isEqualTo(StonithResult.BADHOST);
    }

    @Test
    void findsInstalledAgents() {
        assumeThat(Files.isExecutable(Path.of("/usr/sbin/fence_dummy"))).isTrue();
        assertThat(FenceAgents.installed(FenceAgents.searchPath())).contains("fence_dummy");
        assertThat(FenceAgents.locate("fence_dummy", FenceAgents.searchPath())).isPresent();
        assertThat(FenceAgents.locate("fence_nope", FenceAgents.searchPath())).isEmpty();
    }
}
