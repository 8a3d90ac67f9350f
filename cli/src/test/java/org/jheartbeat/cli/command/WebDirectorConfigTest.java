package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb web}'s default {@code --director-config}: ldirectord.cf in {@code --config-dir}, then its conf/. */
class WebDirectorConfigTest {
    @Test
    void theDefaultIsLookedUpInTheConfigDir(@TempDir Path dir) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        assertThat(WebCommand.directorSocket(null, dir)).isEmpty();
        Files.writeString(conf.resolve("ldirectord.cf"), "checktimeout=3\n");
        assertThat(WebCommand.directorSocket(null, dir)).contains(Path.of("/run/jheartbeat/lvs-ldirectord.cf.sock"));
        Files.writeString(dir.resolve("lvs-web.cf"), "checktimeout=3\n");
        assertThat(WebCommand.directorSocket("lvs-web.cf", dir)).contains(Path.of("/run/jheartbeat/lvs-lvs-web.cf.sock"));
        // a name given is used even when no file is found (the director may run from elsewhere)
        assertThat(WebCommand.directorSocket("other.cf", dir)).contains(Path.of("/run/jheartbeat/lvs-other.cf.sock"));
    }
}
