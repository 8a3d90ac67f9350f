package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jheartbeat.cli.error.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb web}'s refusals before it listens, in process: a bad option is a usage error (64), a bad jheartbeat.yaml a
 * configuration error (2), as the exit codes of {@code hb --help} define them. Each would otherwise start the console
 * and run until stopped: the bound only catches that.
 */
class WebOptionsTest {
    @TempDir
    Path dir;

    private HbRun web(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> HbRun.hb(args));
    }

    @Test
    void aListenOptionNotLoopbackWithoutTlsIsAUsageError() {
        HbRun r = web("web", "--config-dir", dir.toString(), "--listen", "0.0.0.0:8480");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("web: --listen 0.0.0.0:8480 is not a loopback address").doesNotContain("\tat ");
    }

    @Test
    void aWebListenNotLoopbackWithoutTlsIsAConfigurationError() throws Exception {
        Files.writeString(dir.resolve("jheartbeat.yaml"), "web:\n  listen:\n    node1: 192.168.1.1:8480\n");
        HbRun r = web("web", "--config-dir", dir.toString(), "--node-name", "node1");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("jheartbeat.yaml:3: web: listen: node1: 192.168.1.1 is not a loopback address");
    }

    @Test
    void aRelativeUsersFileIsRefusedAsWebUsersFileIs() {
        HbRun r = web("web", "--config-dir", dir.toString(), "--listen", "127.0.0.1:0", "--users-file", "relative");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("web: --users-file relative is not an absolute path; give one, e.g. --users-file"
                + " /etc/ha.d/web-users");
        HbRun add = web("web", "user", "add", "root", "--config-dir", dir.toString(), "--users-file", "relative");
        assertThat(add.code()).as(add.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(add.err()).contains("web user add: --users-file relative is not an absolute path");
        assertThat(dir.resolve("relative")).doesNotExist();
    }
}
