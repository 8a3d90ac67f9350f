package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One mistake in a config file draws exactly one message, not a second one about the default put in
 * the refused value's place or about the lines after it: each test asserts the whole output.
 */
class OneMistakeOneMessageTest {
    @TempDir
    Path dir;

    private HbRun check(ConfigDirBuilder b) {
        Path cfg = ConfigCheckCommandTest.withLabweb(b.writeTo(dir.resolve("cfg")));
        return HbRun.hb("config", "check", "--config-dir", cfg.toString(), "--node-name", "node1",
                "--state-dir", dir.resolve("state").toString());
    }

    private String footer() {
        return "1 error(s) in " + dir.resolve("cfg") + "; fix them before starting the daemon (it refuses every error"
                + " but a missing resource script, which fails only that script's group).\n";
    }

    @Test
    void aBadDeadtimeIsOneErrorNotAlsoAnInitdeadBelowTheDefaultDeadtime() {
        HbRun r = check(ConfigDirBuilder.validHere().haCfReplace("deadtime 3", "deadtime 3x"));
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo(dir.resolve("cfg/ha.cf") + ":2: deadtime: invalid time [3x]: unknown unit 'x';"
                + " use a bare number of seconds, 'ms' or 'us'\n" + footer());
    }

    @Test
    void aBadAutoFailbackIsOneErrorNotAlsoAWarningThatThereIsNoAutoFailbackLine() {
        HbRun r = check(ConfigDirBuilder.validHere().haCfReplace("auto_failback on", "auto_failback maybe"));
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo(dir.resolve("cfg/ha.cf") + ":7: invalid auto_failback [maybe]: expected on, off"
                + " or legacy\n" + footer());
    }

    @Test
    void oneUnindentedRealLineInABlockIsOneError() throws Exception {
        Path cf = Files.writeString(dir.resolve("ldirectord.cf"), """
                checktimeout=3
                checkinterval=1
                virtual=198.18.0.200:80
                real=198.18.0.11:80 gate
                    real=198.18.0.12:80 gate
                    service=http
                    request="index.html"
                    receive="ok"
                    scheduler=wlc
                    protocol=tcp
                    checktype=negotiate
                """);
        HbRun r = HbRun.hb("lvs", "check", "--no-topology", cf.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo(cf + ":4: 'real' belongs inside a virtual= block: indent it by 4 spaces or a tab"
                + " under its virtual= line\n1 error(s) in " + cf + "; fix them before starting the director.\n");
    }
}
