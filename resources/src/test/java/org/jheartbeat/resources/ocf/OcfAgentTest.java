package org.jheartbeat.resources.ocf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.junit.jupiter.api.Test;

/** The OCF environment, timeouts and exit-code mapping of {@link OcfAgent}. */
class OcfAgentTest {
    private static final String TOKEN = "ocf:heartbeat:Filesystem::device=/dev/loop0::directory=/srv/web::fstype=ext4"
            + "::op_stop_timeout=2min";
    private static final Path EXE = Path.of("/usr/lib/ocf/resource.d/heartbeat/Filesystem");
    private static final OcfMetadata MD = OcfMetadata.parse("<resource-agent name=\"Filesystem\"><actions>"
            + "<action name=\"start\" timeout=\"60s\"/><action name=\"stop\" timeout=\"60s\"/>"
            + "<action name=\"monitor\" timeout=\"40s\"/></actions></resource-agent>");
    private final RecordingProcessRunner runner = new RecordingProcessRunner();

    private OcfAgent agent() {
        AgentRef.Ocf ref = (AgentRef.Ocf) HaresourcesParser.resource(TOKEN).orElseThrow().agentRef();
        return new OcfAgent(ref, TOKEN, EXE, Path.of("/usr/lib/ocf"), MD, runner);
    }

    @Test
    void environmentIsTheOcfApis() {
        ProcessSpec start = agent().spec("start");
        assertThat(start.argv()).containsExactly(EXE.toString(), "start");
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("OCF_ROOT", "/usr/lib/ocf");
        expected.put("OCF_RA_VERSION_MAJOR", "1");
        expected.put("OCF_RA_VERSION_MINOR", "0");
        expected.put("OCF_RESOURCE_INSTANCE", OcfEnvironment.instanceName(TOKEN));
        expected.put("OCF_RESOURCE_TYPE", "Filesystem");
        expected.put("OCF_RESOURCE_PROVIDER", "heartbeat");
        expected.put("OCF_RESKEY_device", "/dev/loop0");
        expected.put("OCF_RESKEY_directory", "/srv/web");
        expected.put("OCF_RESKEY_fstype", "ext4");
        expected.put("OCF_RESKEY_CRM_meta_timeout", "60000");
        assertThat(start.env()).isEqualTo(expected);
        assertThat(start.env()).doesNotContainKey("OCF_RESKEY_op_stop_timeout");
        assertThat(start.timeout()).as("meta-data").isEqualTo(Duration.ofSeconds(60));
        assertThat(agent().spec("stop").timeout()).as("haresources wins").isEqualTo(Duration.ofMinutes(2));
        assertThat(agent().spec("stop").env()).containsEntry("OCF_RESKEY_CRM_meta_timeout", "120000");
        assertThat(agent().spec("monitor").timeout()).isEqualTo(Duration.ofSeconds(40));
        assertThat(agent().spec("validate-all").timeout()).as("not in meta-data: 20 s").isEqualTo(OcfAgent.DEFAULT_TIMEOUT);
    }

    @Test
    void instanceNamesAreFileSafeStableAndBounded() {
        assertThat(OcfEnvironment.instanceName("ocf:heartbeat:IPaddr2::ip=198.18.0.100"))
                .isEqualTo("ocf_heartbeat_IPaddr2__ip_198.18.0.100");
        String longToken = TOKEN + "::options=" + "x".repeat(100);
        String name = OcfEnvironment.instanceName(longToken);
        assertThat(name).hasSize(OcfEnvironment.MAX_INSTANCE).matches("[A-Za-z0-9_.-]+")
                .isEqualTo(OcfEnvironment.instanceName(longToken)).isNotEqualTo(OcfEnvironment.instanceName(longToken + "y"));
    }

    @Test
    void monitorCodesMapToStatus() {
        runner.on(List.of(EXE.toString(), "monitor"), ProcessResult.exited(0, ""), ProcessResult.exited(7, ""),
                ProcessResult.exited(8, ""), ProcessResult.exited(1, ""), ProcessResult.exited(5, ""),
                new ProcessResult(-1, "", "", true));
        OcfAgent a = agent();
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(a.status().outcome()).as("OCF_RUNNING_MASTER").isEqualTo(AgentOutcome.RUNNING);
        assertThat(a.status().outcome()).as("OCF_ERR_GENERIC: failed, not stopped").isEqualTo(AgentOutcome.FAILED);
        assertThat(a.status().message()).isEqualTo("monitor rc=5 OCF_ERR_INSTALLED");
        assertThat(a.status().message()).isEqualTo("monitor timed out after 40000 ms");
    }

    @Test
    void startAndStopSucceedOnlyOnSuccess() {
        runner.on(List.of(EXE.toString(), "start"), new ProcessResult(6, "", "ocf-exit-reason:bad fstype\n", false));
        runner.on(List.of(EXE.toString(), "stop"), ProcessResult.exited(0, ""));
        assertThat(agent().start().message()).isEqualTo("start rc=6 OCF_ERR_CONFIGURED: ocf-exit-reason:bad fstype");
        assertThat(agent().start().exitCode()).isEqualTo(6);
        assertThat(agent().stop().isOk()).isTrue();
        assertThat(agent().failedStatusMeansStopped()).isFalse();
    }
}
