package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.unix.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.cli.logging.DatagramReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * {@code hb lvs daemon}'s {@code logfile} (ldirectord.cf(5)): a syslog facility sends the director's lines to
 * syslog with ident {@code ldirectord}, as ldirectord does (here to a real unix datagram socket bound by the
 * test in place of {@code /dev/log}); a path gets ldirectord's {@code [date|config|pid] message} lines.
 */
class LvsLoggingTest {
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        LvsLogging.close();
    }

    @Test
    void aSyslogFacilitySendsTheLinesToSyslogAsLdirectord() throws Exception {
        Path sock = dir.resolve("log");
        Socket receiver = DatagramReceiver.bind(sock);
        try {
            LvsLogging.configure(dir.resolve("ldirectord.cf"), "local0", false, sock);
            LoggerFactory.getLogger("org.jheartbeat.director.runtime.Test")
                    .info("Deleted real server: 198.18.0.21:80 (198.18.0.150:80)");
            String record = DatagramReceiver.receive(receiver);
            // local0 (16) * 8 + info (6) = 134
            assertThat(record).startsWith("<134>")
                    .contains(" ldirectord[" + ProcessHandle.current().pid() + "]: ")
                    .endsWith("Deleted real server: 198.18.0.21:80 (198.18.0.150:80)");
        } finally {
            receiver.close();
        }
    }

    @Test
    void aPathGetsLdirectordsLines() throws Exception {
        Path log = dir.resolve("ldirectord.log");
        LvsLogging.configure(dir.resolve("ldirectord.cf"), log.toString(), false, dir.resolve("no-syslog"));
        LoggerFactory.getLogger("org.jheartbeat.director.runtime.Test").info("Added real server: 198.18.0.22:80");
        LvsLogging.close();
        assertThat(Files.readString(log)).matches("(?s)\\[\\w{3} \\w{3} +\\d+ \\d\\d:\\d\\d:\\d\\d \\d{4}\\|ldirectord.cf\\|"
                + ProcessHandle.current().pid() + "\\] Added real server: 198.18.0.22:80\\n");
    }
}
