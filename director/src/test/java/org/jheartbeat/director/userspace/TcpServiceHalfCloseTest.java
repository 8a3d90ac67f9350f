package org.jheartbeat.director.userspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoopGroup;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real server's FIN reaches the client while the client may still send (the director shuts the client's output
 * down on its socket, not through Netty's {@code shutdownOutput()}, {@link RelayChannels#shutdownOutput}): the real
 * answers and half-closes, the client reads the answer and the end of the stream, then sends its last words, which
 * reach the real, and closes; both transports, real sockets on loopback.
 */
class TcpServiceHalfCloseTest {
    @Test
    void theRealsFinReachesTheClientWhoseLaterBytesStillReachTheReal() throws Exception {
        for (boolean nio : new boolean[] {false, true}) {
            halfClose(new Transport(nio));
        }
    }

    static void halfClose(Transport transport) throws Exception {
        EventLoopGroup group = transport.group(2);
        try (ServerSocket real = new ServerSocket(0, 8, TcpServiceLoopTest.LO)) {
            CompletableFuture<String> heard = CompletableFuture.supplyAsync(() -> {
                try (Socket s = real.accept()) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("hello\n".getBytes(StandardCharsets.UTF_8));
                    s.shutdownOutput(); // the real's FIN first
                    return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (Exception e) {
                    return e.toString();
                }
            });
            int vport = TcpServiceLoopTest.freePort();
            TcpService svc = TcpServiceLoopTest.service(group, transport, vport, real.getLocalPort());
            svc.bind(new InetSocketAddress(TcpServiceLoopTest.LO, vport));
            try (Socket c = new Socket(TcpServiceLoopTest.LO, vport)) {
                c.setSoTimeout(10_000);
                InputStream in = c.getInputStream();
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).as("%s: the answer, then EOF",
                        transport.name()).isEqualTo("hello\n");
                OutputStream out = c.getOutputStream();
                out.write("bye\n".getBytes(StandardCharsets.UTF_8));
                c.shutdownOutput();
                assertThat(heard.get(10, TimeUnit.SECONDS)).as("%s: what the client sent after the real's FIN",
                        transport.name()).isEqualTo("bye\n");
            }
            svc.close();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
