package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter on a real unix datagram socket in a temporary directory (no root, no /dev/log). */
class UnixDatagramSenderTest {
    @Test
    void aRecordArrivesAsOneDatagramAndAReceiverRestartedAtThePathGetsTheNext(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("log");
        try (UnixDatagramSender sender = UnixDatagramSender.open(path)) {
            Socket receiver = bind(path);
            try {
                sender.send("<134>Dec  1 09:05:07 jheartbeat[1]: info: one".getBytes(StandardCharsets.UTF_8));
                assertThat(receive(receiver)).isEqualTo("<134>Dec  1 09:05:07 jheartbeat[1]: info: one");
            } finally {
                receiver.close();
            }
            // the receiver is gone, its socket file stays: refused, not blocked
            assertThatThrownBy(() -> sender.send("two".getBytes(StandardCharsets.UTF_8))).isInstanceOf(IOException.class)
                    .hasMessage("Connection refused");
            java.nio.file.Files.delete(path);
            assertThatThrownBy(() -> sender.send("three".getBytes(StandardCharsets.UTF_8)))
                    .isInstanceOf(IOException.class).hasMessage("No such file or directory");
            Socket again = bind(path); // a restarted syslog daemon: same path, new socket, no reconnect needed
            try {
                sender.send("four".getBytes(StandardCharsets.UTF_8));
                assertThat(receive(again)).isEqualTo("four");
            } finally {
                again.close();
            }
        }
    }

    private static Socket bind(Path path) throws IOException {
        Socket s = Socket.newSocketDomainDgram();
        s.bind(new DomainSocketAddress(path.toString()));
        return s;
    }

    /** Polls the non-blocking receiver; the bound (60 s) only catches a hang. */
    private static String receive(Socket s) throws Exception {
        ByteBuffer buf = ByteBuffer.allocateDirect(SyslogFormat.MAX_RECORD_BYTES);
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            io.netty.channel.unix.DomainDatagramSocketAddress from = s.recvFromDomainSocket(buf, 0, buf.capacity());
            if (from != null) {
                byte[] b = new byte[from.receivedAmount()];
                buf.get(0, b);
                return new String(b, StandardCharsets.UTF_8);
            }
            Thread.sleep(5);
        }
        throw new AssertionError("nothing received");
    }
}
