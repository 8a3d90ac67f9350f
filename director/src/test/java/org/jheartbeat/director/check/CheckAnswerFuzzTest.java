package org.jheartbeat.director.check;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;

/**
 * Fuzzers of every health check's reading of a server's answer. The checks read as they talk, so
 * each case goes through the real check against one loopback {@link AnswerServer} that sends the
 * mutated answer at once (after reading the request where the answer must carry its id: DNS; for
 * LDAP one response per request, {@link #LDAP_IN_TURN}) and then ends the stream: a case costs a loopback connection, and ends at the end of the answer, not
 * at a timeout. RADIUS (UDP, a signed answer) is fuzzed through its pure judge.
 *
 * <p>Seeds: real Debian 12 servers captured on loopback ({@code answers/}: Exim 4.96 over
 * {@code exim4 -bs}, lighttpd 1.4.69, Dovecot 2.3.19 IMAP and POP3, MariaDB 10.11's greeting,
 * PostgreSQL 15's answers to a good start-up, a missing database and a missing role, BIND 9.18's
 * answers to the check's query, OpenLDAP 2.5 slapd's answers to a bind and base search, vsFTPd
 * 3.0.3's control stream of a RETR, a missing file and a refused login, INN 2.7.1's innd and nnrpd
 * greetings, Kamailio 5.6.3's answer to the check's OPTIONS; {@code answers/README.md} says how), and
 * the answers the check tests script (every protocol but RADIUS's server side, and simpletcp only).
 *
 * <p>Properties: the check returns (a hang bound, far above its own timeout, catches a check that
 * does not), throws nothing, and a down result has a reason that is one line of printable text of
 * bounded length (it goes to the log). RADIUS: only a correctly signed Access-Accept is up.
 * Cases: {@code -Djhb.fuzz.tries} (docs/fuzzing.md).
 */
class CheckAnswerFuzzTest {
    /** The check's own timeout: cases end at the answer's end long before it. */
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** Only a hang: a check that has not returned this long after its timeout. */
    private static final long HANG_BOUND_S = 30;
    /** Longest reason accepted (the log line of a real server). */
    static final int MAX_REASON = CheckResult.MAX_REASON;

    private static final AnswerServer SERVER = start();
    private static final ExecutorService RUNNER = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-check");
        t.setDaemon(true);
        return t;
    });
    private static final AnswerServer.Prelude AT_ONCE = (in, a) -> a;

    private static AnswerServer start() {
        try {
            return new AnswerServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterContainer
    static void stop() throws IOException {
        SERVER.close();
    }

    static byte[] answer(String name) {
        try (InputStream in = CheckAnswerFuzzTest.class.getResourceAsStream("answers/" + name)) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] text(String s) {
        return s.getBytes(ISO_8859_1);
    }

    static List<byte[]> seeds(Object... seeds) {
        List<byte[]> out = new ArrayList<>();
        for (Object s : seeds) {
            out.add(s instanceof String t ? text(t) : (byte[]) s);
        }
        return out;
    }

    /** Runs one check of the loopback server with the answer and checks the result's form. */
    static CheckResult check(String service, CheckTarget target, byte[] bytes, AnswerServer.Prelude how, Mutant m)
            throws Exception {
        SERVER.serve(bytes, how);
        HealthCheck check = Checks.forService("negotiate", service);
        Future<CheckResult> result = RUNNER.submit(() -> check.check(target, TIMEOUT));
        CheckResult r;
        try {
            r = result.get(TIMEOUT.toSeconds() + HANG_BOUND_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            result.cancel(true);
            throw new AssertionError("the " + service + " check hangs on " + m);
        }
        checkForm(r, m);
        return r;
    }

    static void checkForm(CheckResult r, Object m) {
        if (r.up()) {
            assertThat(r.reason()).as("%s", m).isEmpty();
            return;
        }
        assertThat(r.reason()).as("%s", m).isNotBlank().hasSizeLessThanOrEqualTo(MAX_REASON);
        for (char c : r.reason().toCharArray()) {
            assertThat(c < 0x20 || (c >= 0x7f && c < 0xa0)).as("control character %s in reason [%s] of %s",
                    (int) c, r.reason(), m).isFalse();
        }
    }

    private static CheckTarget target() {
        return CheckTarget.of(SERVER.address());
    }

    // --- HTTP ---

    static final List<byte[]> HTTP = seeds(answer("http-200.bin"), answer("http-404.bin"), answer("http-301.bin"),
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nTest \r\n4;x=y\r\nPage\r\n0\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 200 OK\r\n\r\nTest Page",
            "HTTP/1.1 302 Found\r\nLocation: /new?x=1\r\n\r\n");

    @Provide
    Arbitrary<Mutant> http() {
        return Mutations.of(HTTP);
    }

    /**
     * Whether the answer could redirect the check to another address: a Location with an authority
     * ({@code //}). The check follows a redirect to an address literal (as ldirectord), and a mutated
     * {@code 127.0.0.1} is often a public address: such cases are skipped, so the fuzzer's packets stay
     * on loopback.
     */
    static boolean mayLeaveLoopback(byte[] answer) {
        String text = new String(answer, ISO_8859_1).toLowerCase(java.util.Locale.ROOT);
        int location = text.indexOf("location");
        return location >= 0 && text.indexOf("//", location) >= 0;
    }

    @Property
    void httpAnswers(@ForAll("http") Mutant m) throws Exception {
        Assume.that(!mayLeaveLoopback(m.bytes()));
        check("http", target().withRequest("/index.html").withReceive("Test Page"), m.bytes(), AT_ONCE, m);
    }

    // --- SMTP, POP3, IMAP, NNTP, FTP, SIP, simpletcp: line protocols ---

    static final List<byte[]> SMTP = seeds(answer("smtp-exim.bin"),
            "220-mx.example.test ESMTP\r\n220 ready\r\n250 ok\r\n221 bye\r\n",
            "220 old\r\n502 unknown\r\n250 hello\r\n221 bye\r\n", "421 busy\r\n");
    static final List<byte[]> POP = seeds(answer("pop-ok.bin"), "+OK POP3 ready\r\n+OK\r\n-ERR [AUTH] bad password\r\n");
    static final List<byte[]> IMAP = seeds(answer("imap-ok.bin"),
            "* OK [CAPABILITY IMAP4rev1] ready\r\n* CAPABILITY IMAP4rev1\r\na1 NO [AUTHENTICATIONFAILED] no\r\n",
            "* PREAUTH ready\r\n* BYE\r\na2 OK\r\n");
    static final List<byte[]> NNTP = seeds(answer("nntp-inn-ok.bin"), answer("nntp-nnrpd-reader.bin"),
            "200 news ready\r\n", "201 no posting\r\n", "400 go away\r\n");
    static final List<byte[]> SIP = seeds(answer("sip-kamailio-ok.bin"), "SIP/2.0 200 OK\r\nVia: SIP/2.0/TCP 127.0.0.1:5060;branch=z9hG4bK1\r\n"
            + "CSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n", "SIP/2.0 404 Not Found\r\n\r\n");
    static final List<byte[]> SIMPLETCP = seeds("hello\r\nstatus: alive\r\n", "hello\r\nstatus: confused\r\n");

    /**
     * The FTP seeds, their {@code 227} replies naming the answer server's port (a captured reply names
     * the port vsFTPd had opened), so the data connection comes back to it.
     */
    static List<byte[]> ftpSeeds() {
        int p = SERVER.port();
        String pasv = "(127,0,0,1," + (p >> 8) + "," + (p & 0xff) + ")";
        List<byte[]> vsftpd = new ArrayList<>();
        for (String name : List.of("ftp-vsftpd-retr.bin", "ftp-vsftpd-nofile.bin", "ftp-vsftpd-badlogin.bin")) {
            vsftpd.add(text(new String(answer(name), ISO_8859_1).replaceAll("\\(127,0,0,1,\\d+,\\d+\\)", pasv)));
        }
        List<byte[]> out = new ArrayList<>(vsftpd);
        out.addAll(seeds("220 ftp ready\r\n331 password please\r\n230 in\r\n250 cwd ok\r\n200 type ok\r\n"
                        + "227 Entering Passive Mode (127,0,0,1," + (p >> 8) + "," + (p & 0xff) + ")\r\n"
                        + "150 opening\r\n226 done\r\n221 bye\r\n",
                "220-welcome\r\n220 ftp ready\r\n530 login incorrect\r\n"));
        return out;
    }

    @Provide
    Arbitrary<Mutant> smtp() {
        return Mutations.of(SMTP);
    }

    @Provide
    Arbitrary<Mutant> pop() {
        return Mutations.of(POP);
    }

    @Provide
    Arbitrary<Mutant> imap() {
        return Mutations.of(IMAP);
    }

    @Provide
    Arbitrary<Mutant> nntp() {
        return Mutations.of(NNTP);
    }

    @Provide
    Arbitrary<Mutant> ftp() {
        return Mutations.of(ftpSeeds());
    }

    @Provide
    Arbitrary<Mutant> sip() {
        return Mutations.of(SIP);
    }

    @Provide
    Arbitrary<Mutant> simpletcp() {
        return Mutations.of(SIMPLETCP);
    }

    @Property
    void smtpAnswers(@ForAll("smtp") Mutant m) throws Exception {
        check("smtp", target(), m.bytes(), AT_ONCE, m);
    }

    @Property
    void popAnswers(@ForAll("pop") Mutant m) throws Exception {
        check("pop", target().withLogin("web", "pw"), m.bytes(), AT_ONCE, m);
    }

    @Property
    void imapAnswers(@ForAll("imap") Mutant m) throws Exception {
        check("imap", target().withLogin("web", "pw"), m.bytes(), AT_ONCE, m);
    }

    @Property
    void nntpAnswers(@ForAll("nntp") Mutant m) throws Exception {
        check("nntp", target(), m.bytes(), AT_ONCE, m);
    }

    @Property
    void ftpAnswers(@ForAll("ftp") Mutant m) throws Exception {
        // the data connection gets the same answer: "ready" is in the tests' greeting, "Transfer" in vsFTPd's
        check("ftp", target().withRequest("/index.html").withReceive("ready|Transfer"), m.bytes(), AT_ONCE, m);
    }

    @Property
    void sipAnswers(@ForAll("sip") Mutant m) throws Exception {
        check("sip", target().withProtocol("tcp"), m.bytes(), AT_ONCE, m);
    }

    @Property
    void simpletcpAnswers(@ForAll("simpletcp") Mutant m) throws Exception {
        check("simpletcp", target().withRequest("PING\\nNOW").withReceive("status: alive"), m.bytes(), AT_ONCE, m);
    }

    // --- binary protocols: MySQL, PostgreSQL, DNS over TCP, LDAP ---

    static final List<byte[]> MYSQL = seeds(answer("mysql-greeting.bin"), new byte[] {9, 0, 0, 0, 10, '8', '.', '0', 0, 1, 0, 0, 0},
            Mutations.concat(new byte[] {29, 0, 0, 0, (byte) 0xff, 0x10, 0x04}, text("#08004Too many connections")));
    static final List<byte[]> PGSQL = seeds(answer("pgsql-ok.bin"), answer("pgsql-nodb.bin"),
            answer("pgsql-norole.bin"), new byte[] {'R', 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4},
            new byte[] {'R', 0, 0, 0, 8, 0, 0, 0, 0},
            Mutations.concat(new byte[] {'E', 0, 0, 0, 48}, text("SFATAL\0C3D000\0Mdatabase \"web\" does not exist\0\0")));

    @Provide
    Arbitrary<Mutant> mysql() {
        return Mutations.of(MYSQL);
    }

    @Provide
    Arbitrary<Mutant> pgsql() {
        return Mutations.of(PGSQL);
    }

    @Property
    void mysqlAnswers(@ForAll("mysql") Mutant m) throws Exception {
        check("mysql", target(), m.bytes(), AT_ONCE, m);
    }

    @Property
    void pgsqlAnswers(@ForAll("pgsql") Mutant m) throws Exception {
        check("pgsql", target().withLogin("web", "pw").withDatabase("shop"), m.bytes(), AT_ONCE, m);
    }

    /** A DNS answer to the query for host.example.test (A 198.18.0.10), id 0: the server puts the query's in. */
    static byte[] dnsAnswer(int type, byte[] rdata, int rcode) {
        byte[] query = DnsWire.query(0, "host.example.test", DnsWire.TYPE_A);
        return DnsCheckTest.answer(query, type, rdata, rcode);
    }

    static final List<byte[]> DNS = seeds(answer("dns-bind-a.bin"), answer("dns-bind-nxdomain.bin"), dnsAnswer(1, new byte[] {(byte) 198, 18, 0, 10}, 0),
            dnsAnswer(12, new byte[] {4, 'h', 'o', 's', 't', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 4, 't', 'e', 's', 't', 0}, 0),
            dnsAnswer(28, new byte[16], 0), dnsAnswer(1, null, 3));

    /** Reads the length-prefixed query, and answers with the answer's id set to the query's, length-prefixed. */
    static final AnswerServer.Prelude DNS_TCP = (in, a) -> {
        DataInputStream d = new DataInputStream(in);
        byte[] q = new byte[d.readUnsignedShort()];
        d.readFully(q);
        byte[] out = Arrays.copyOf(a, a.length);
        if (out.length >= 2 && q.length >= 2) {
            out[0] = q[0];
            out[1] = q[1];
        }
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        framed.write(out.length >> 8);
        framed.write(out.length);
        framed.write(out, 0, out.length);
        return framed.toByteArray();
    };

    @Provide
    Arbitrary<Mutant> dns() {
        return Mutations.of(DNS);
    }

    @Property
    void dnsAnswersOverTcp(@ForAll("dns") Mutant m) throws Exception {
        check("dns", target().withProtocol("tcp").withRequest("/host.example.test").withReceive("198.18.0.10"),
                m.bytes(), DNS_TCP, m);
    }

    @Property
    void dnsWireDecodeThrowsOnlyIllegalArgument(@ForAll("dns") Mutant m) {
        try {
            DnsWire.Response r = DnsWire.decode(m.bytes());
            assertThat(r.answers()).as("%s", m).hasSizeLessThanOrEqualTo(512);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).as("%s", m).isNotBlank();
        }
    }

    static final List<byte[]> LDAP = seeds(answer("ldap-slapd-search.bin"), answer("ldap-slapd-nosuch.bin"),
            answer("ldap-slapd-badbind.bin"), Mutations.concat(
                    Ber.message(1, 0x61, Ber.result(0)),
                    Ber.message(2, 0x64, Mutations.concat(Ber.tlv(0x04, text("dc=example,dc=test")), Ber.tlv(0x30, new byte[0]))),
                    Ber.message(2, 0x65, Ber.result(0))),
            Ber.message(1, 0x61, Ber.result(49)),
            Mutations.concat(Ber.message(1, 0x61, Ber.result(0)), Ber.message(2, 0x65, Ber.result(32))));

    @Provide
    Arbitrary<Mutant> ldap() {
        return Mutations.of(LDAP);
    }

    /**
     * Answers the check's bind, then its search, each with the next part of the answer ({@link BerStream}):
     * sent at once, JNDI dropped the search's answer, which arrived before the search, so only the
     * bind's answer was ever read.
     */
    static final AnswerServer.Prelude LDAP_IN_TURN = new AnswerServer.Prelude() {
        @Override
        public byte[] answer(InputStream in, byte[] answer) {
            throw new UnsupportedOperationException("a dialogue");
        }

        @Override
        public byte[] answer(java.net.Socket client, byte[] answer) throws IOException {
            return BerStream.inTurn(client, answer);
        }
    };

    @Property
    void ldapAnswers(@ForAll("ldap") Mutant m) throws Exception {
        check("ldap", target().withRequest("/dc=example,dc=test").withReceive("example"), m.bytes(), LDAP_IN_TURN, m);
    }

    /** Minimal BER for the LDAP seeds (as LdapCheckTest's server writes). */
    static final class Ber {
        static byte[] result(int code) {
            return new byte[] {0x0a, 0x01, (byte) code, 0x04, 0x00, 0x04, 0x00};
        }

        static byte[] message(int id, int op, byte[] body) {
            return tlv(0x30, Mutations.concat(tlv(0x02, new byte[] {(byte) id}), tlv(op, body)));
        }

        static byte[] tlv(int tag, byte[] value) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(tag);
            if (value.length < 128) {
                out.write(value.length);
            } else {
                out.write(0x82);
                out.write(value.length >> 8);
                out.write(value.length);
            }
            out.write(value, 0, value.length);
            return out.toByteArray();
        }
    }
}
