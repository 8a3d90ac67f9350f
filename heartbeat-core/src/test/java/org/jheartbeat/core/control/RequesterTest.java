package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ControlServer#requester()}: a change from another process names that process (pid and command, as the
 * kernel's socket table shows the client of the socket as it was bound, before its rename into place).
 */
class RequesterTest {
    @TempDir
    Path dir;

    @Test
    void aChangeFromAnotherProcessNamesItsPidAndCommand() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/socat")) && Files.isExecutable(Path.of("/usr/bin/ss")),
                "needs socat and ss");
        Path sock = dir.resolve("control.sock");
        try (ControlServer s = new ControlServer(sock, r -> ControlResponse.ok(ControlServer.requester() + "\n"))) {
            s.start();
            Process p = new ProcessBuilder("/usr/bin/socat", "-t", "5", "-", "UNIX-CONNECT:" + sock)
                    .redirectErrorStream(true).start();
            p.getOutputStream().write("cleanup\n".getBytes(StandardCharsets.US_ASCII));
            p.getOutputStream().flush();
            String answer = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            String me = ProcessHandle.current().info().user().orElse("root");
            assertThat(answer).startsWith("OK\nuser " + me + " (group ").contains(", pid " + p.pid() + " (socat)");
        }
        assertThat(ControlServer.requester()).isEmpty();
    }
}
