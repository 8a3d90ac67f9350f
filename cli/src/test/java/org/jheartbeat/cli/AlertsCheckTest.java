package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb config check} and the daemon read jheartbeat.yaml's {@code alerts:} and name a mistake with its line. */
class AlertsCheckTest {
    @TempDir
    Path dir;

    @Test
    void aGoodSectionChecksCleanAndAMistakeIsFileLineWhatToDoExitTwoAndNoStart() throws Exception {
        Path cfg = ConfigDirBuilder.validHere().haresources("node1 198.18.0.100/24/lo\n").writeTo(dir);
        Path script = dir.resolve("alert.sh");
        Files.writeString(script, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path yaml = cfg.resolve("jheartbeat.yaml");
        Files.writeString(yaml, "alerts:\n  - script: " + script + "\n    kinds: [node-dead]\n"
                + "  - mail: {to: [root], smtp: 127.0.0.1:25}\n    rate_limit: 5/min\n");
        HbRun ok = HbRun.hb("config", "check", "--config-dir", cfg.toString());
        assertThat(ok.code()).as(ok.err()).isZero();

        Files.writeString(yaml, "alerts:\n  - script: " + script + "\n    kinds: [node-died]\n");
        HbRun bad = HbRun.hb("config", "check", "--config-dir", cfg.toString());
        assertThat(bad.code()).as(bad.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(bad.err()).contains(yaml + ":3: alerts: kinds: unknown kind [node-died]; did you mean"
                + " 'node-dead'?").doesNotContain("Exception");
        HbRun d = HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node2");
        assertThat(d.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(d.err()).contains("unknown kind [node-died]");
    }
}
