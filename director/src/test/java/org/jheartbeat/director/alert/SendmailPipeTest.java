package org.jheartbeat.director.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sendmail path against a recording fake sendmail (a shell script that saves its arguments
 * and standard input): a real delivery would need a configured MTA (Exim with a mail spool),
 * which this machine does not have; what the director owes is the command line and the message.
 */
class SendmailPipeTest {

    /** A sendmail that saves argv and stdin to DIR and exits with the given status. */
    static Path fakeSendmail(Path dir, String extra) throws IOException {
        Path p = dir.resolve("sendmail");
        Files.writeString(p, "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + dir + "/argv'\ncat > '" + dir + "/stdin'\n"
                + extra + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    void theMessageIsPipedToSendmailDashTDashOi(@TempDir Path dir) throws Exception {
        Path sendmail = fakeSendmail(dir, "exit 0");
        new SendmailPipe(sendmail, Duration.ofSeconds(20)).send("To: ops@example.org\nSubject: s\n\n.body\n");
        assertThat(Files.readString(dir.resolve("argv"))).isEqualTo("-t\n-oi\n");
        assertThat(Files.readString(dir.resolve("stdin"))).isEqualTo("To: ops@example.org\nSubject: s\n\n.body\n");
    }

    @Test
    void aFailingSendmailIsAnIoExceptionWithItsStatusAndOutput(@TempDir Path dir) throws Exception {
        Path sendmail = fakeSendmail(dir, "echo 'no such user' >&2\nexit 67");
        assertThatThrownBy(() -> new SendmailPipe(sendmail, Duration.ofSeconds(20)).send("To: x@y\n\nb\n"))
                .isInstanceOf(IOException.class).hasMessageContaining("exited with status 67: no such user");
        assertThatThrownBy(() -> new SendmailPipe(dir.resolve("absent"), Duration.ofSeconds(20)).send("x\n"))
                .isInstanceOf(IOException.class);
    }

    @Test
    void aHangingSendmailIsKilledAtTheTimeout(@TempDir Path dir) throws Exception {
        Path sendmail = fakeSendmail(dir, "exec sleep 60");
        assertThatThrownBy(() -> new SendmailPipe(sendmail, Duration.ofMillis(500)).send("To: x@y\n\nb\n"))
                .isInstanceOf(IOException.class).hasMessageContaining("did not finish");
    }

    @Test
    void thePropertyOverridesTheProgram() {
        String before = System.getProperty(SendmailPipe.PROPERTY);
        try {
            System.clearProperty(SendmailPipe.PROPERTY);
            assertThat(SendmailPipe.configuredProgram()).isEqualTo(Path.of("/usr/sbin/sendmail"));
            System.setProperty(SendmailPipe.PROPERTY, "/tmp/x/sendmail");
            assertThat(SendmailPipe.configuredProgram()).isEqualTo(Path.of("/tmp/x/sendmail"));
        } finally {
            if (before == null) {
                System.clearProperty(SendmailPipe.PROPERTY);
            } else {
                System.setProperty(SendmailPipe.PROPERTY, before);
            }
        }
    }
}
