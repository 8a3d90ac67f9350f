package org.jheartbeat.stonith.device.ssh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.Test;

class SshDeviceTest {
    private static final List<String> PING = List.of("ping", "-c", "1", "-w", "1", "nodeb");
    private final List<java.time.Duration> sleeps = new ArrayList<>();

    private SshDevice device(RecordingProcessRunner r) throws Exception {
        SshDevice d = new SshDevice(r, sleeps::add);
        d.configure(Map.of("hostlist", "nodea NodeB"));
        return d;
    }

    @Test
    void resetRunsSshThenWaitsUntilPingFails() throws Exception {
        var r = new RecordingProcessRunner().on(PING, ProcessResult.exited(0, ""), ProcessResult.exited(0, ""),
                ProcessResult.exited(1, ""));
        assertThat(device(r).reset(ResetRequest.GENERIC_RESET, "NODEB")).isEqualTo(StonithResult.OK);
        assertThat(r.argvs().get(0)).containsExactly("ssh", "-q", "-x", "-n", "-l", "root", "nodeb",
                SshDevice.REBOOT_COMMAND);
        assertThat(r.argvsStartingWith(PING)).hasSize(3);
        assertThat(sleeps).hasSize(3);
    }

    @Test
    void offUsesPoweroffAndHostThatStaysUpFails() throws Exception {
        var r = new RecordingProcessRunner().on(PING, ProcessResult.exited(0, ""));
        assertThat(device(r).reset(ResetRequest.POWER_OFF, "nodeb")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(r.argvs().get(0)).endsWith(SshDevice.POWEROFF_COMMAND);
        assertThat(r.argvsStartingWith(PING)).hasSize(SshDevice.PING_ATTEMPTS);
    }

    @Test
    void refusesPowerOnUnknownHostAndSshFailure() throws Exception {
        var r = new RecordingProcessRunner().on(List.of("ssh"), ProcessResult.exited(255, ""));
        SshDevice d = device(r);
        assertThat(d.reset(ResetRequest.POWER_ON, "nodeb")).isEqualTo(StonithResult.INVAL);
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodec")).isEqualTo(StonithResult.BADHOST);
        assertThat(r.argvs()).isEmpty();
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodea")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(d.status()).isEqualTo(StonithResult.OK);
        assertThat(d.hostList()).containsExactly("nodea", "nodeb");
    }

    @Test
    void needsHostlist() {
        assertThatThrownBy(() -> new SshDevice().configure(Map.of("hostlist", " ")))
                .hasMessageContaining("'hostlist'");
    }
}
