package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The answers the check fuzzers (docs/fuzzing.md) found mishandled, shrunk. */
class CheckFuzzRegressionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static CheckResult answered(String service, String answer) throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            client.shutdownOutput();
            ScriptedServer.hang(in);
        })) {
            return Checks.forService("negotiate", service).check(s.target(), TIMEOUT);
        }
    }

    /** CheckAnswerFuzzTest.smtpAnswers/nntpAnswers/popAnswers (200 cases): a NUL, ESC or BS of the server reached the reason, and so the log. */
    @Test
    void controlCharactersOfAServersAnswerReachTheReasonEscaped() throws Exception {
        CheckResult smtp = answered("smtp", "\u000020 vm ESMTP\r\n");
        assertThat(smtp.up()).isFalse();
        assertThat(smtp.reason()).isEqualTo("not a reply line: \"\\x0020 vm ESMTP\"");
        CheckResult nntp = answered("nntp", "\u001b[2J\u001b[1;1H200 fine\r\n");
        assertThat(nntp.reason()).isEqualTo("NNTP greeting does not start with 2: \"\\x1b[2J\\x1b[1;1H200 fine\"");
        CheckResult http = answered("http", "\bTTP/1.1 200 OK\r\n\r\n");
        assertThat(http.reason()).doesNotContain("\b").contains("\\x08TTP/1.1 200 OK");
    }

    @Test
    void aReasonIsOneLineOfAtMostAThousandCharacters() {
        CheckResult r = CheckResult.down("a\r\nb\tc\u0085" + "x".repeat(5000), 0);
        assertThat(r.reason()).startsWith("a  b c\\x85xxx").hasSize(CheckResult.MAX_REASON).endsWith("…");
        assertThat(CheckResult.down("x".repeat(CheckResult.MAX_REASON), 0).reason()).doesNotContain("…");
    }
}
