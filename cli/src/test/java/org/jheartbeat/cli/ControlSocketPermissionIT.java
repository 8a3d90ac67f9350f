package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.lab.Lab;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.control.ControlServer;
import org.junit.jupiter.api.Test;

/**
 * The control socket is usable by root and group haclient only (mode 0660): anyone else gets a
 * clear "permission denied" and exit 4, never a partial answer.
 */
class ControlSocketPermissionIT {

    @Test
    void anotherUserGetsPermissionDeniedAndExitFour() throws Exception {
        assumeTrue(Lab.isRoot(), "switching to user nobody needs root");
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "hbperm");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (ControlServer server = new ControlServer(dir.resolve("control.sock"), req -> ControlResponse.ok("secret\n"))) {
            server.start();
            assertThat(Files.getPosixFilePermissions(dir.resolve("control.sock")))
                    .isEqualTo(PosixFilePermissions.fromString("rw-rw----"));
            Process p = new ProcessBuilder(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                    "java", "-jar", System.getProperty("hb.jar", "target/hb.jar"), "status", "--state-dir", dir.toString()))
                    .redirectErrorStream(true).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as(out).isEqualTo(ExitCodes.PERMISSION);
            assertThat(out).startsWith("hb: permission denied on " + dir.resolve("control.sock"))
                    .contains("haclient").doesNotContain("secret").doesNotContain("Exception");
        } finally {
            Files.deleteIfExists(dir.resolve("control.sock"));
            Files.deleteIfExists(dir);
        }
    }
}
