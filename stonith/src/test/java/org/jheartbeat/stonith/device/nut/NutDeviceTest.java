package org.jheartbeat.stonith.device.nut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.Test;

class NutDeviceTest {
    private static final List<String> UPSCMD = List.of("setsid", "-w", "/bin/sh", "-c", NutDevice.WRAPPER,
            "upscmd", "-u", "fence", "upsb@nodea");
    private static final List<String> UPSC = List.of("upsc", "upsb@nodea", "ups.status");
    private final List<Duration> sleeps = new ArrayList<>();
    private final Sleeper sleeper = sleeps::add;

    private NutDevice device(RecordingProcessRunner runner, Map<String, String> extra) throws Exception {
        NutDevice d = new NutDevice(runner, sleeper);
        Map<String, String> p = new HashMap<>(Map.of("hostname", "NodeB", "ups", "upsb@nodea",
                "username", "fence", "password", "pw"));
        p.putAll(extra);
        d.configure(p);
        return d;
    }

    @Test
    void offSendsTwiceWithinNutWindowThenWaitsForOff() throws Exception {
        var r = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OL\n"),
                ProcessResult.exited(0, "OL\n"), ProcessResult.exited(0, "OFF\n"));
        NutDevice d = device(r, Map.of());
        assertThat(d.configNames()).containsExactly("hostname", "ups", "username", "password");
        assertThat(d.reset(ResetRequest.POWER_OFF, "nodeb")).isEqualTo(StonithResult.OK);
        List<String> off = new ArrayList<>(UPSCMD);
        off.add("load.off");
        assertThat(r.argvs()).containsExactly(off, off, UPSC, UPSC, UPSC);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(5), NutDevice.POLL_INTERVAL, NutDevice.POLL_INTERVAL);
    }

    @Test
    void resetUsesClusterGlueDefaultAndCommandArguments() throws Exception {
        var r = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OB LB OFF"));
        device(r, Map.of("repeat", "1")).reset(ResetRequest.GENERIC_RESET, "nodeb");
        assertThat(r.argvs().get(0)).endsWith("upsb@nodea", "shutdown.return");
        var r2 = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OFF"));
        device(r2, Map.of("reset", "shutdown.return cs")).reset(ResetRequest.GENERIC_RESET, "nodeb");
        assertThat(r2.argvs().get(0)).endsWith("upsb@nodea", "shutdown.return", "cs");
    }

    @Test
    void onWaitsForOnlineWithoutOff() throws Exception {
        var r = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OFF"), ProcessResult.exited(0, "OL CHRG"));
        assertThat(device(r, Map.of()).reset(ResetRequest.POWER_ON, "nodeb")).isEqualTo(StonithResult.OK);
        assertThat(r.argvs().get(0)).endsWith("load.on");
    }

    @Test
    void notConfirmedIsFailureNotSuccess() throws Exception {
        var r = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OL"));
        NutDevice d = device(r, Map.of("confirmtimeout", "10"));
        assertThat(d.reset(ResetRequest.POWER_OFF, "nodeb")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(r.argvsStartingWith(UPSC)).hasSize(5);
    }

    @Test
    void upscmdFailuresAndBadHost() throws Exception {
        var r = new RecordingProcessRunner().on(UPSCMD, ProcessResult.exited(1, "ERR ACCESS-DENIED"));
        NutDevice d = device(r, Map.of());
        assertThat(d.reset(ResetRequest.POWER_OFF, "nodeb")).isEqualTo(StonithResult.RESETFAIL);
        assertThat(r.argvs()).hasSize(1); // no second send, no polling
        assertThat(d.reset(ResetRequest.POWER_OFF, "nodea")).isEqualTo(StonithResult.BADHOST);
        var t = new RecordingProcessRunner().on(UPSCMD, new ProcessResult(-1, "", "", true));
        assertThat(device(t, Map.of()).reset(ResetRequest.POWER_OFF, "nodeb")).isEqualTo(StonithResult.TIMEOUT);
        var missing = new RecordingProcessRunner().failOn(List.of("setsid"), new IOException("no such file"));
        assertThat(device(missing, Map.of()).reset(ResetRequest.POWER_OFF, "nodeb")).isEqualTo(StonithResult.OOPS);
    }

    @Test
    void passwordGoesToTheStdinWrapperNeverIntoArgv() throws Exception {
        var r = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OFF"));
        device(r, Map.of("repeat", "1", "password", "pw-secret")).reset(ResetRequest.POWER_OFF, "nodeb");
        var spec = r.specs().get(0);
        assertThat(String.join(" ", spec.argv())).doesNotContain("pw-secret").doesNotContain(" -p ");
        assertThat(spec.env()).containsEntry(NutDevice.PASSWORD_VAR, "pw-secret");
        var d = new NutDevice(r, sleeper);
        assertThatThrownBy(() -> d.configure(Map.of("hostname", "b", "ups", "u", "username", "x",
                "password", "a\nb"))).hasMessageContaining("'password'").hasMessageContaining("line break");
    }

    @Test
    void status() throws Exception {
        var r = new RecordingProcessRunner().on(UPSC, ProcessResult.exited(0, "OL"), ProcessResult.exited(1, ""));
        NutDevice d = device(r, Map.of());
        assertThat(d.status()).isEqualTo(StonithResult.OK);
        assertThat(d.status()).isEqualTo(StonithResult.ACCESS);
        assertThat(d.hostList()).containsExactly("nodeb");
    }

    @Test
    void configErrors() {
        var d = new NutDevice(new RecordingProcessRunner(), sleeper);
        assertThatThrownBy(() -> d.configure(Map.of("hostname", "b", "ups", "u", "username", "x")))
                .hasMessageContaining("'password'");
        Map<String, String> ok = Map.of("hostname", "b", "ups", "u", "username", "x", "password", "y");
        Map<String, String> badDelay = new HashMap<>(ok);
        badDelay.put("repeatdelay", "20");
        assertThatThrownBy(() -> d.configure(badDelay)).hasMessageContaining("'repeatdelay'");
        Map<String, String> unknown = new HashMap<>(ok);
        unknown.put("outlet", "1");
        assertThatThrownBy(() -> d.configure(unknown)).hasMessageContaining("unknown parameter 'outlet'");
    }
}
