package org.jheartbeat.director.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SMTP client against a real SMTP server (Python's standard {@code smtpd}, on 127.0.0.1 and a
 * free port): the envelope, the headers and the dot-stuffed body as received; refusals.
 */
class SmtpClientTest {
    static final Duration T = Duration.ofSeconds(20);

    @Test
    void aMessageArrivesWithItsEnvelopeAndDotStuffedLines(@TempDir Path dir) throws Exception {
        try (SmtpSink sink = new SmtpSink(dir, false)) {
            String msg = "From: director@example.org\nTo: ops@example.org, oncall@example.org\nSubject: test\n\n"
                    + "line one\n.a line that starts with a dot\n.\nlast\n";
            new SmtpClient("127.0.0.1", sink.port(), T, T, "lvs1").send("root@lvs1",
                    List.of("ops@example.org", "oncall@example.org"), msg);
            List<SmtpSink.Received> got = sink.received();
            assertThat(got).hasSize(1);
            SmtpSink.Received r = got.get(0);
            assertThat(r.mailFrom()).isEqualTo("root@lvs1");
            assertThat(r.rcptTo()).containsExactly("ops@example.org", "oncall@example.org");
            assertThat(r.header("Subject")).isEqualTo("test");
            assertThat(r.header("To")).isEqualTo("ops@example.org, oncall@example.org");
            assertThat(r.body()).isEqualTo("line one\n.a line that starts with a dot\n.\nlast");
        }
    }

    @Test
    void aRefusalIsAReplyExceptionWithItsCode(@TempDir Path dir) throws Exception {
        try (SmtpSink sink = new SmtpSink(dir, true)) {
            assertThatThrownBy(() -> new SmtpClient("127.0.0.1", sink.port(), T, T, "lvs1").send("root@lvs1",
                    List.of("ops@example.org"), "Subject: x\n\nbody\n"))
                    .isInstanceOf(SmtpClient.ReplyException.class)
                    .hasMessageContaining("end of data answered 554")
                    .satisfies(e -> assertThat(((SmtpClient.ReplyException) e).code()).isEqualTo(554));
            assertThat(sink.received()).isEmpty();
        }
    }

    @Test
    void aRefusedConnectionIsAnIoException() throws Exception {
        int port = SmtpSink.freePort();
        assertThatThrownBy(() -> new SmtpClient("127.0.0.1", port, T, T, "lvs1").send("root@lvs1",
                List.of("ops@example.org"), "Subject: x\n\nbody\n")).isInstanceOf(IOException.class)
                .hasMessageContaining("refused");
    }

    @Test
    void dotStuffingAndLineEnds() {
        assertThat(new String(SmtpClient.dotStuffed("a\n.b\n..c\nd"), StandardCharsets.UTF_8))
                .isEqualTo("a\r\n..b\r\n...c\r\nd\r\n");
        assertThat(new String(SmtpClient.dotStuffed("a\r\n.\r\n"), StandardCharsets.UTF_8)).isEqualTo("a\r\n..\r\n");
    }

    @Test
    void theSmtpDirectiveNamesAHostAndAnOptionalPort() {
        assertThat(SmtpClient.parse("mail.example.org")).isEqualTo(new SmtpClient.Server("mail.example.org", 25));
        assertThat(SmtpClient.parse("127.0.0.1:2525")).isEqualTo(new SmtpClient.Server("127.0.0.1", 2525));
        assertThat(SmtpClient.parse("[::1]:587")).isEqualTo(new SmtpClient.Server("::1", 587));
        assertThat(SmtpClient.parse("::1")).isEqualTo(new SmtpClient.Server("::1", 25));
        assertThatThrownBy(() -> SmtpClient.parse("host:smtp")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port smtp is not a number in 1..65535");
        assertThatThrownBy(() -> SmtpClient.parse("host:0")).isInstanceOf(IllegalArgumentException.class);
    }
}
