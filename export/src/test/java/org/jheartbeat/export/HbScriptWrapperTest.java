package org.jheartbeat.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exported OCF wrapper {@code hb-script} run as Pacemaker runs an agent (action as the only
 * argument, parameters as {@code OCF_RESKEY_*}) around a Heartbeat R1 script whose status is text:
 * OCF exit codes 0/7 from Heartbeat's text rule, arguments passed before the action, idempotent
 * start and stop, and the codes for a missing script (a probe on a node without it is "not running").
 */
class HbScriptWrapperTest {
    @TempDir
    Path tmp;

    private Path agent() throws Exception {
        Path a = tmp.resolve("hb-script");
        Files.writeString(a, HbScriptWrapper.text());
        Files.setPosixFilePermissions(a, PosixFilePermissions.fromString("rwxr-xr-x"));
        return a;
    }

    /** An R1 script: {@code r1 STATEFILE start|stop|status}, status said in words, exit code always 0. */
    private Path r1() throws Exception {
        Path s = tmp.resolve("r1");
        Files.writeString(s, "#!/bin/sh\nf=$1\ncase $2 in\n  start) echo on >\"$f\" ;;\n  stop) rm -f \"$f\" ;;\n"
                + "  status) if [ -f \"$f\" ]; then echo 'r1 is running'; else echo 'r1 is NOT running'; fi ;;\nesac\nexit 0\n");
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
        return s;
    }

    private record Run(int code, String out) { }

    private Run run(String action, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(agent().toString(), action).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out);
    }

    @Test
    void startMonitorStopFollowHeartbeatsTextRuleWithOcfCodes() throws Exception {
        Path state = tmp.resolve("state");
        Map<String, String> env = Map.of("OCF_RESKEY_script", r1().toString(), "OCF_RESKEY_args", state.toString());
        assertThat(run("monitor", env).code()).as("probe: not running").isEqualTo(7);
        assertThat(run("start", env).code()).isZero();
        assertThat(state).exists();
        assertThat(run("monitor", env).code()).isZero();
        assertThat(run("start", env).code()).as("start when running").isZero();
        assertThat(run("stop", env).code()).isZero();
        assertThat(state).doesNotExist();
        assertThat(run("stop", env).code()).as("stop when stopped").isZero();
        assertThat(run("monitor", env).code()).isEqualTo(7);
        assertThat(run("promote", env).code()).as("unimplemented").isEqualTo(3);
    }

    @Test
    void metaDataAndMissingScriptCodes() throws Exception {
        Run md = run("meta-data", Map.of());
        assertThat(md.code()).isZero();
        assertThat(md.out()).contains("<resource-agent name=\"hb-script\"", "<parameter name=\"script\" required=\"1\"");
        assertThat(run("validate-all", Map.of()).code()).as("no script parameter: not configured").isEqualTo(6);
        Map<String, String> missing = Map.of("OCF_RESKEY_script", tmp.resolve("nope").toString());
        assertThat(run("validate-all", missing).code()).as("not installed").isEqualTo(5);
        assertThat(run("monitor", missing).code()).as("probe where the script is not installed").isEqualTo(7);
        assertThat(run("stop", missing).code()).isZero();
        assertThat(run("start", missing).code()).isEqualTo(5);
    }
}
