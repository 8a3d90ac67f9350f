package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control socket's bounds: one line of at most 256 bytes, silent clients do not block others. */
class ControlSocketTest {
    @TempDir
    Path dir;

    @Test
    void answersOneLineAndRefusesAnOverlongOne() throws Exception {
        Path p = dir.resolve("c.sock");
        try (ControlSocket s = new ControlSocket(p, line -> "OK\n" + line.toUpperCase() + "\n")) {
            assertThat(ControlSocket.request(p, "ping", 5_000)).isEqualTo("OK\nPING\n");
            assertThat(ControlSocket.request(p, "x".repeat(400), 5_000))
                    .startsWith("ERR request too long or not terminated by a newline");
        }
        assertThatThrownBy(() -> ControlSocket.request(p, "ping", 5_000)).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void aSilentClientDoesNotBlockTheNext() throws Exception {
        Path p = dir.resolve("c.sock");
        try (ControlSocket s = new ControlSocket(p, line -> "OK\n");
             SocketChannel silent = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            silent.connect(UnixDomainSocketAddress.of(p));
            silent.write(ByteBuffer.wrap("stat".getBytes()));
            long t0 = System.nanoTime();
            assertThat(ControlSocket.request(p, "status", 5_000)).isEqualTo("OK\n");
            System.out.printf("control answer beside a silent client: %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        }
    }
}
