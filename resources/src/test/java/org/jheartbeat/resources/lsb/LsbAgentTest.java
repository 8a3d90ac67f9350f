package org.jheartbeat.resources.lsb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.junit.jupiter.api.Test;

class LsbAgentTest {
    private static final Path SCRIPT = Path.of("/etc/init.d/lighttpd");
    private final RecordingProcessRunner runner = new RecordingProcessRunner();

    private LsbAgent agent(OperationTimeouts t) {
        return new LsbAgent(SCRIPT, new AgentRef.Lsb("lighttpd", t), runner);
    }

    @Test
    void exitCodesDecideNotText() {
        // "running" in the text of a stopped service: the code wins (Heartbeat's text rule does not apply)
        runner.on(List.of(SCRIPT.toString(), "status"), ProcessResult.exited(3, "lighttpd is not running but was running"),
                ProcessResult.exited(0, ""), ProcessResult.exited(1, "dead"), ProcessResult.exited(4, "?"));
        LsbAgent a = agent(OperationTimeouts.NONE);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        assertThat(a.status().outcome()).isEqualTo(AgentOutcome.FAILED);
    }

    @Test
    void startAndStopRunTheScriptAndReadTheCode() {
        runner.on(List.of(SCRIPT.toString(), "start"), ProcessResult.exited(0, ""), ProcessResult.exited(5, ""));
        runner.on(List.of(SCRIPT.toString(), "stop"), new ProcessResult(1, "", "cannot stop\n", false));
        LsbAgent a = agent(OperationTimeouts.NONE.with("op_start_timeout", "5s"));
        assertThat(a.start().isOk()).isTrue();
        assertThat(a.start().message()).isEqualTo("start rc=5 (program is not installed)");
        assertThat(a.stop().message()).isEqualTo("stop rc=1 (generic or unspecified error): cannot stop");
        assertThat(runner.argvs()).containsExactly(List.of(SCRIPT.toString(), "start"),
                List.of(SCRIPT.toString(), "start"), List.of(SCRIPT.toString(), "stop"));
        assertThat(runner.specs().get(0).timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(runner.specs().get(2).timeout()).isEqualTo(LsbAgent.DEFAULT_START_STOP_TIMEOUT);
        assertThat(a.isScript()).isTrue();
        assertThat(a.failedStatusMeansStopped()).isFalse();
    }
}
