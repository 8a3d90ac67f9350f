package org.jheartbeat.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.unix.Socket;
import java.io.IOException;
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
        return DatagramReceiver.bind(path);
    }

    private static String receive(Socket s) throws Exception {
        return DatagramReceiver.receive(s);
    }
}
