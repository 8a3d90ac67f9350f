package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.cli.HbRun.hb;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.state.StateDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Something that is not a jheartbeat daemon answers on the control socket: the operator gets one line
 * saying so and exit 1, without a Java class name (a stack trace tells an operator nothing).
 */
class MalformedAnswerTest {
    @TempDir
    Path dir;

    @Test
    void aMalformedAnswerIsOneLineWithoutAClassName() throws Exception {
        Path socket = new StateDirectory(dir).controlSocket();
        try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            server.bind(UnixDomainSocketAddress.of(socket));
            Thread answer = new Thread(() -> {
                try (SocketChannel c = server.accept()) {
                    c.read(ByteBuffer.allocate(4096));
                    c.write(ByteBuffer.wrap("HTTP/1.1 400 Bad Request\n\n".getBytes(StandardCharsets.US_ASCII)));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            answer.start();
            HbRun r = hb("status", "--state-dir=" + dir);
            answer.join(10_000);
            assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(r.err()).startsWith("hb: malformed answer from daemon: [HTTP/1.1 400 Bad Request")
                    .doesNotContain("Exception").hasLineCount(1);
        }
    }
}
