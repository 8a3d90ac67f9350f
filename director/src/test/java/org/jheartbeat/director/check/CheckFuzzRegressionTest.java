package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The answers the check fuzzers (docs/fuzzing.md) found mishandled, shrunk. */
class CheckFuzzRegressionTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static CheckResult answered(String service, String answer) throws Exception {
        return answered(service, answer.getBytes(StandardCharsets.ISO_8859_1), null);
    }

    /** The check of a server that sends {@code answer} at once and ends (with {@code like}'s settings, if given). */
    private static CheckResult answered(String service, byte[] answer, CheckTarget like) throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(answer);
            out.flush();
            client.shutdownOutput();
            ScriptedServer.hang(in);
        })) {
            CheckTarget t = like == null ? s.target() : new CheckTarget(s.address(), like.request(), like.receive(),
                    like.virtualHost(), like.login(), like.password(), like.database(), like.secret(),
                    like.httpMethod(), like.protocol(), like.virtualService(), like.virtualPort(), like.realPort(),
                    like.checkCommand(), like.checkCount());
            return Checks.forService("negotiate", service).check(t, TIMEOUT);
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

    /**
     * Found while capturing seeds from a real PostgreSQL 15 (trust authentication): it answers a
     * start-up for a missing database with AuthenticationOk and only then the error, and the check
     * stopped at the AuthenticationOk: up for a database that does not exist.
     */
    @Test
    void pgsqlReadsOnAfterAuthenticationOkUntilReadyForQueryOrTheError() throws Exception {
        CheckTarget shop = CheckTarget.of(new java.net.InetSocketAddress(0)).withLogin("postgres", "").withDatabase("shop");
        CheckResult missing = answered("pgsql", CheckAnswerFuzzTest.answer("pgsql-nodb.bin"), shop);
        assertThat(missing.up()).isFalse();
        assertThat(missing.reason()).isEqualTo("PostgreSQL refused: 3D000 database \"shop\" does not exist");
        CheckResult role = answered("pgsql", CheckAnswerFuzzTest.answer("pgsql-norole.bin"), shop);
        assertThat(role.reason()).isEqualTo("PostgreSQL refused: 28000 role \"web\" does not exist");
        CheckResult ok = answered("pgsql", CheckAnswerFuzzTest.answer("pgsql-ok.bin"), shop);
        assertThat(ok.up()).as(ok.reason()).isTrue();
        byte[] cut = java.util.Arrays.copyOf(CheckAnswerFuzzTest.answer("pgsql-ok.bin"), 9); // R 0 only
        assertThat(answered("pgsql", cut, shop).up()).isFalse();
    }
}
