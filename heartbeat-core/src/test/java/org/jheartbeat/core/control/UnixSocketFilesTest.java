package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control socket appears at its path with its final mode, never with the umask's (real sockets). */
class UnixSocketFilesTest {
    @TempDir
    Path dir;

    @Test
    void theSocketHasItsModeRightAfterBindingWorksAndLeavesNothingBehind() throws Exception {
        Path socket = dir.resolve("control.sock");
        Files.writeString(socket, "stale");
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            UnixSocketFiles.bind(server, socket, "rw-rw----", Optional.of("no-such-group-jhb"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-rw----");
            try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(socket));
                 SocketChannel accepted = server.accept()) {
                assertThat(c.isConnected()).isTrue();
                assertThat(accepted).isNotNull();
            }
        }
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).containsExactly("control.sock");
        }
    }

    /**
     * The daemon's own start, traced: the socket is never bound at its final path (where it would have
     * the umask's mode until a chmod), only renamed there after its chmod.
     */
    @Test
    void theControlServerNeverBindsAtTheFinalPath() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/strace")), "needs strace");
        Path socket = dir.resolve("control.sock");
        Path log = dir.resolve("strace.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder("/usr/bin/strace", "-f", "-qq", "-o", log.toString(), "-e",
                "trace=bind,chmod,fchmodat,rename,renameat,renameat2", java, "-Xshare:off", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), SocketBindMain.class.getName(), socket.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("traced JVM finished").isTrue();
        assertThat(p.exitValue()).isZero();
        List<String> calls = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(socket.toString())).toList();
        assertThat(calls).as("syscalls naming the socket path").noneMatch(l -> l.contains("bind(")
                && l.contains("\"" + socket + "\""));
        assertThat(calls).anyMatch(l -> l.contains("rename") && l.contains("\"" + socket + "\""));
    }
}
