package org.jheartbeat.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public class LdirectordParserTest {
    private static final Path FILE = Path.of("/etc/ha.d/ldirectord.cf");
    /** Names resolve only through this table: the tests never ask DNS. */
    private final LdirectordParser parser = new LdirectordParser(name -> Optional.ofNullable(Map.of(
            "web1", "198.18.0.21", "vip", "198.18.0.100").get(name)).map(LdirectordParserTest::addr));

    private static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private LdirectordParser.Result parse(String text) {
        return parser.parse(FILE, text);
    }

    private LdirectordConfig ok(String text) {
        LdirectordParser.Result r = parse(text);
        assertThat(r.diagnostics().stream().filter(ConfigDiagnostic::isError)).isEmpty();
        return r.config().orElseThrow();
    }

    @Test
    void theSeedConfigLoadsExactlyWithLdirectordsDefaults() throws Exception {
        Path seed = Path.of(getClass().getResource("/org/jheartbeat/director/seed-ldirectord.cf").toURI());
        LdirectordParser.Result r = parser.parse(seed);
        assertThat(r.diagnostics()).isEmpty();
        LdirectordConfig c = r.config().orElseThrow();
        assertThat(c.globals().autoReload()).isTrue();
        assertThat(c.globals().checkInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.globals().readdQuiescent()).isFalse();
        assertThat(c.virtuals()).hasSize(1);
        VirtualService v = c.virtuals().get(0);
        assertThat(v.key()).isEqualTo(ServiceKey.of(Protocol.TCP, new Endpoint(addr("198.18.0.100"), 80)));
        assertThat(v.line()).isEqualTo(10);
        assertThat(v.reals()).extracting(r2 -> r2.endpoint().toString(), RealServer::forward, RealServer::weight)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("198.18.0.21:80", Forward.GATE, 1),
                        org.assertj.core.groups.Tuple.tuple("198.18.0.22:80", Forward.GATE, 1));
        assertThat(v.scheduler()).isEqualTo("lc");
        assertThat(v.persistent()).contains(90);
        assertThat(v.checkType()).isEqualTo("connect");
        assertThat(v.service()).isEqualTo("http");
        assertThat(v.quiescent()).isFalse();
        assertThat(v.checkTimeout()).isEqualTo(Duration.ofSeconds(20));
        // negotiatetimeout falls back to the global checktimeout, as ldirectord resolves it
        assertThat(v.negotiateTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(v.timeoutOfOneCheck()).isEqualTo(Duration.ofSeconds(20));
        assertThat(v.checkInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(v.failureCount()).isEqualTo(1);
        assertThat(v.cleanStop()).isTrue();
        assertThat(v.ipvsadmServiceFlags()).containsExactly("-t", "198.18.0.100:80", "-s", "lc", "-p", "90");
    }

    @Test
    void defaultsAreLdirectordsCodeDefaults() {
        LdirectordConfig c = ok("virtual=198.18.0.100:80\n    real=198.18.0.21:80 masq\n"
                + "virtual=198.18.0.100:8080\n    real=198.18.0.21 gate\n"
                + "virtual=198.18.0.100:53\n    real=198.18.0.21:53 gate\n");
        VirtualService http = c.virtuals().get(0);
        assertThat(http.scheduler()).isEqualTo("wrr");
        assertThat(http.checkType()).isEqualTo("negotiate");
        assertThat(http.service()).isEqualTo("http");
        assertThat(http.checkTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(http.negotiateTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(http.timeoutOfOneCheck()).isEqualTo(Duration.ofSeconds(30));
        assertThat(http.checkInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(http.quiescent()).isFalse();
        assertThat(http.cleanStop()).isTrue();
        assertThat(http.failureCount()).isEqualTo(1);
        assertThat(http.httpMethod()).isEqualTo("GET");
        assertThat(http.checkCommand()).isEqualTo("/bin/true");
        assertThat(c.globals().logFile()).isEqualTo("/var/log/ldirectord.log");
        assertThat(c.virtuals().get(1).service()).isEqualTo("none");
        // a real without a port takes the virtual's port
        assertThat(c.virtuals().get(1).reals().get(0).endpoint().port()).isEqualTo(8080);
        assertThat(c.virtuals().get(2).key().protocol()).isEqualTo(Protocol.UDP);
        assertThat(c.virtuals().get(2).service()).isEqualTo("dns");
    }

    @Test
    void everyDirectiveOfLdirectord4IsAccepted() {
        String text = String.join("\n",
                "checktimeout = 3", "negotiatetimeout = 7", "checkinterval = 2", "checkcount = 2",
                "failurecount = 3", "autoreload = no", "callback = \"/usr/local/bin/cfg-changed\"",
                "fallback = 198.18.0.99:80 masq", "fallback6 = [2001:db8::99]:80", "fallbackcommand = /bin/true",
                "logfile = \"local0\"", "execute = other.cf", "fork = yes", "supervised = no", "quiescent = yes",
                "readdquiescent = yes", "emailalert = \"root@localhost\"", "emailalertfrom = director@localhost",
                "emailalertfreq = 3600", "emailalertstatus = starting,running", "smtp = 198.18.0.25",
                "cleanstop = no", "maintenancedir = /etc/ha.d/maintenance",
                "virtual = vip:http",
                "\treal = web1:http gate 5 \"/alive\", \"ok\" l:10 u:100",
                "\treal = 198.18.0.30->198.18.0.32:80 gate",
                "\tscheduler = wlc", "\tschedflags = sh-port", "\tpersistent = 600", "\tnetmask = 255.255.255.0",
                "\tprotocol = tcp", "\tchecktype = 5", "\tservice = http", "\tcheckport = 8080",
                "\trequest = \"index.html\"", "\treceive = \"It works\"", "\thttpmethod = GET",
                "\tvirtualhost = www.example.org", "\tlogin = \"u\"", "\tpasswd = \"p\"", "\tdatabase = \"d\"",
                "\tsecret = \"s\"", "\tcheckcommand = /usr/local/bin/check", "\tfallback = 198.18.0.98 gate",
                "\tfallbackcommand = \"/usr/local/bin/sorry\"", "\tquiescent = no", "\tcleanstop = yes",
                "\tchecktimeout = 4", "\tnegotiatetimeout = 9", "\tcheckcount = 1", "\tfailurecount = 2",
                "\tcheckinterval = 3", "\temailalert = \"ops@localhost\"", "\temailalertfreq = 60",
                "\temailalertstatus = all", "\tsmtp = 198.18.0.26", "\tmonitorfile = /var/log/mon.log",
                "\tservicename = web", "\tcomment = the web farm", "\tload = \"none\"",
                "virtual = 7", "\treal = 198.18.0.21 gate", "\tservice = http", "\tcheckport = 80",
                "virtual6 = [2001:db8::100]:443", "\treal6 = [2001:db8::21]:443 gate",
                "virtual = 198.18.0.100:5353", "\tprotocol = udp", "\tops = yes", "\treal = 198.18.0.21:5353 masq",
                "");
        LdirectordParser.Result r = parse(text);
        assertThat(r.diagnostics()).isEmpty();
        LdirectordConfig c = r.config().orElseThrow();
        assertThat(c.globals().callback()).contains("/usr/local/bin/cfg-changed");
        assertThat(c.globals().execute()).containsExactly("other.cf");
        assertThat(c.globals().logFile()).isEqualTo("local0");
        VirtualService v = c.virtuals().get(0);
        assertThat(v.key().address()).isEqualTo("198.18.0.100:80");
        assertThat(v.reals()).hasSize(4);
        RealServer first = v.reals().get(0);
        assertThat(first.weight()).isEqualTo(5);
        assertThat(first.request()).contains("/alive");
        assertThat(first.receive()).contains("ok");
        assertThat(first.lowerThreshold()).isEqualTo(10);
        assertThat(first.upperThreshold()).isEqualTo(100);
        assertThat(v.reals().subList(1, 4)).extracting(x -> x.endpoint().toString())
                .containsExactly("198.18.0.30:80", "198.18.0.31:80", "198.18.0.32:80");
        assertThat(v.request()).contains("/index.html");
        assertThat(v.checkTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(v.negotiateTimeout()).isEqualTo(Duration.ofSeconds(9));
        assertThat(v.timeoutOfOneCheck()).isEqualTo(Duration.ofSeconds(9)); // checktype N is negotiate
        assertThat(v.checkInterval()).isEqualTo(Duration.ofSeconds(3)); // fork = yes
        assertThat(v.failureCount()).isEqualTo(2);
        assertThat(v.fallback()).contains(new FallbackServer(new Endpoint(addr("198.18.0.98"), 80), Forward.GATE));
        assertThat(v.fallbackCommand()).contains("/usr/local/bin/sorry");
        assertThat(v.quiescent()).isFalse();
        assertThat(v.ipvsadmServiceFlags()).containsExactly("-t", "198.18.0.100:80", "-s", "wlc", "-p", "600", "-M",
                "255.255.255.0", "-b", "sh-port");
        VirtualService mark = c.virtuals().get(1);
        assertThat(mark.key().protocol()).isEqualTo(Protocol.FWM);
        assertThat(mark.reals().get(0).endpoint().port()).isZero();
        // the global fallback, resolved for this virtual; global quiescent applies
        assertThat(mark.fallback()).contains(new FallbackServer(new Endpoint(addr("198.18.0.99"), 80), Forward.MASQ));
        assertThat(mark.quiescent()).isTrue();
        assertThat(mark.cleanStop()).isFalse();
        VirtualService v6 = c.virtuals().get(2);
        assertThat(v6.key().address()).isEqualTo("[2001:db8::100]:443");
        assertThat(v6.fallback().orElseThrow().endpoint().toString()).isEqualTo("[2001:db8::99]:80");
        assertThat(c.virtuals().get(3).ipvsadmServiceFlags()).containsExactly("-u", "198.18.0.100:5353", "-o", "-s",
                "wrr");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown directive|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 gate\\n    shceduler=lc|3|did you mean 'scheduler'",
        "3-space indent|virtual=198.18.0.100:80\\n   real=198.18.0.21:80 gate|2|at least 4 spaces or a tab",
        "indented outside block|\\tchecktimeout=3|1|outside a virtual= block",
        "global inside block|virtual=198.18.0.100:80\\n    autoreload=yes|2|global directive",
        "per-virtual at top|scheduler=lc|1|belongs inside a virtual= block",
        "no key = value|virtual=198.18.0.100:80\\n    real 198.18.0.21:80 gate|2|expected 'directive = value'",
        "real without forward|virtual=198.18.0.100:80\\n    real=198.18.0.21:80|2|forwarding method is required",
        "bad forward|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 route|2|gate, masq or ipip",
        "weight too big|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 gate 99999999999|2|out of range",
        "bad address|virtual=198.18.0.300:80|1|not an IPv4 address",
        "no port|virtual=198.18.0.100|1|has no port",
        "unresolvable|virtual=nosuchhost.invalid:80|1|does not resolve",
        "unknown port name|virtual=198.18.0.100:nosuchport|1|unknown port name",
        "connecttimeout|connecttimeout=5|1|in favour of negotiatetimeout",
        "timeout|virtual=198.18.0.100:80\\n    timeout=5|2|in favour of negotiatetimeout",
        "callback unquoted|callback=/bin/true|1|quoted value",
        "logfile unquoted|logfile=/var/log/x|1|quoted value",
        "checktimeout zero|checktimeout=0|1|greater than 0",
        "checkinterval words|checkinterval=ten|1|greater than 0",
        "yes/no|autoreload=maybe|1|yes or no",
        "quiescent bad|virtual=198.18.0.100:80\\n    quiescent=sometimes|2|yes or no",
        "negotiate_connect|virtual=198.18.0.100:80\\n    checktype=negotiate_connect|2|not a keyword",
        "bad checktype|virtual=198.18.0.100:80\\n    checktype=tcp|2|checktype must be",
        "unknown service|virtual=198.18.0.100:80\\n    service=htpp|2|did you mean 'http'",
        "protocol mismatch|virtual=7\\n    protocol=tcp|2|does not fit",
        "bad protocol|virtual=198.18.0.100:80\\n    protocol=sctp|2|tcp, udp or fwm",
        "ops on tcp|virtual=198.18.0.100:80\\n    ops=yes|2|UDP services only",
        "bad netmask|virtual=198.18.0.100:80\\n    persistent=60\\n    netmask=255.0.255.0|3|dotted netmask",
        "persistent words|virtual=198.18.0.100:80\\n    persistent=long|2|whole number",
        "checkport range|virtual=198.18.0.100:80\\n    checkport=70000|2|from 1 to 65535",
        "request unquoted|virtual=198.18.0.100:80\\n    request=/x|2|quoted value",
        "bad regex|virtual=198.18.0.100:80\\n    receive=\"([\"|2|not a valid regular expression",
        "bad httpmethod|virtual=198.18.0.100:80\\n    httpmethod=POST|2|GET or HEAD",
        "reversed range|virtual=198.18.0.100:80\\n    real=198.18.0.30->198.18.0.20:80 gate|2|ends before it starts",
        "v6 range|virtual6=[2001:db8::1]:80\\n    real6=[2001:db8::2]->[2001:db8::3]:80 gate|2|not supported for IPv6",
        "v6 in virtual|virtual=2001:db8::1:80|1|must be bracketed",
        "v4 in virtual6|virtual6=[198.18.0.1]:80|1|not an IPv6 address",
        "real twice|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 gate\\n    real=198.18.0.21:80 masq|3|listed twice",
        "virtual twice|virtual=198.18.0.100:80\\nvirtual=198.18.0.100:80|2|configured twice",
        "unclosed quote|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 gate 1 \"/x|2|not closed",
        "request alone|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 gate 1 \"/x\"|2|needs its \"receive\"",
        "threshold range|virtual=198.18.0.100:80\\n    real=198.18.0.21:80 gate 1 u:70000|2|out of range 0-65535",
        "upper case key|Virtual=198.18.0.100:80|1|lower case",
        "sql without query|virtual=198.18.0.100:3306\\n    real=198.18.0.21:3306 gate|1|needs request",
        "bad fallback|fallback=198.18.0.99:80 tunnel\\nvirtual=198.18.0.100:80|1|gate, masq or ipip",
        "emailalertstatus|emailalertstatus=sometimes\\nvirtual=198.18.0.100:80|1|comma list",
        "emailalertstatus none with another|emailalertstatus=none,running\\nvirtual=198.18.0.100:80|1|comma list",
        "smtp port|smtp=mail.example.org:smtp\\nvirtual=198.18.0.100:80|1|write smtp = HOST or HOST:PORT",
        "smtp port in a block|virtual=198.18.0.100:80\\n\\tsmtp=127.0.0.1:70000|2|port 70000 is not a number",
    })
    void badInputIsReportedAtItsLineWithWhatToDo(String what, String text, int line, String message) {
        LdirectordParser.Result r = parse(text.replace("\\n", "\n").replace("\\t", "\t"));
        assertThat(r.config()).as(what).isEmpty();
        List<ConfigDiagnostic> errors = r.diagnostics().stream().filter(ConfigDiagnostic::isError)
                .collect(Collectors.toList());
        assertThat(errors).as(what).isNotEmpty();
        assertThat(errors.get(0).line()).as(what + ": " + errors).isEqualTo(line);
        assertThat(errors.get(0).message()).as(what).contains(message);
        assertThat(errors.get(0).format()).startsWith(FILE + ":" + line + ": ");
    }

    @Test
    void everyProblemIsReportedNotOnlyTheFirst() {
        LdirectordParser.Result r = parse("checktimeout=x\nvirtual=198.18.0.100:80\n    real=198.18.0.21:80\n"
                + "    scheduler=LC\n  bad\nfoo=bar\n");
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::line).containsExactly(1, 3, 4, 5, 6);
    }

    @Test
    void warningsDoNotStopTheConfig() {
        LdirectordParser.Result r = parse("virtual=198.18.0.100:80\n    real=198.18.0.21:80 gate\n"
                + "    netmask=255.255.255.0\n    scheduler=fancy\n    checkinterval=3\n");
        assertThat(r.config()).isPresent();
        assertThat(r.diagnostics()).allMatch(d -> !d.isError()).extracting(ConfigDiagnostic::line)
                .containsExactlyInAnyOrder(3, 4, 5);
    }

    @Test
    void commentsAndBlankLinesAreIgnoredButHashesInQuotesAreKept() {
        LdirectordConfig c = ok("# comment\n\nvirtual=198.18.0.100:80 # the web\n    # inside\n"
                + "    receive=\"a#b\"\n    real=198.18.0.21:80 gate\n");
        assertThat(c.virtuals().get(0).receive()).contains("a#b");
    }

    @Test
    void aProductionSizedConfigWithSeventyVirtualsLoadsAndChecksQuickly() throws Exception {
        String text = seventyVirtuals(10);
        Path f = Files.createTempFile("ldirectord-70", ".cf");
        try {
            Files.writeString(f, text);
            new LdirectordParser().parse(f); // warm-up
            long t0 = System.nanoTime();
            LdirectordParser.Result r = new LdirectordParser().parse(f);
            long micros = (System.nanoTime() - t0) / 1000;
            System.out.printf("ldirectord.cf with 70 virtual services, 280 reals, %d lines: loaded and checked in"
                    + " %.1f ms%n", text.split("\n").length, micros / 1000.0);
            assertThat(r.diagnostics()).isEmpty();
            assertThat(r.config().orElseThrow().virtuals()).hasSize(70);
            assertThat(micros).as("hang guard only").isLessThan(30_000_000);
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /** 70 virtual services of 4 reals each, with the given checkinterval. */
    public static String seventyVirtuals(int checkInterval) {
        StringBuilder sb = new StringBuilder("checktimeout=5\ncheckinterval=" + checkInterval
                + "\nautoreload=yes\nquiescent=no\n");
        for (int i = 0; i < 70; i++) {
            sb.append("virtual=198.18.2.").append(i + 1).append(":80\n");
            for (int j = 0; j < 4; j++) {
                sb.append("\treal=198.18.3.").append(10 + j).append(":80 gate ").append(j + 1).append('\n');
            }
            sb.append("\tservice=http\n\tscheduler=wlc\n\tpersistent=90\n\tprotocol=tcp\n\tchecktype=connect\n");
        }
        return sb.toString();
    }

    /** A file that is not there, a directory, a huge file: one line 0 message each, what to do, no class names. */
    @Test
    void aFileThatCannotBeAConfigIsOneClearMessage(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path missing = dir.resolve("nope.cf");
        assertThat(new LdirectordParser().parse(missing).diagnostics()).extracting(ConfigDiagnostic::toString)
                .containsExactly(missing + ":0: no such file; give the path of the ldirectord.cf (a bare name is"
                        + " looked for in /etc/ha.d and /etc/ha.d/conf first)");
        Path d = Files.createDirectory(dir.resolve("d.cf"));
        assertThat(new LdirectordParser().parse(d).diagnostics()).extracting(ConfigDiagnostic::toString)
                .containsExactly(d + ":0: is a directory; give the path of the ldirectord.cf file");
        Path huge = Files.write(dir.resolve("huge.cf"), new byte[(1 << 20) + 1]);
        LdirectordParser.Result r = new LdirectordParser().parse(huge);
        assertThat(r.config()).isEmpty();
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::toString).containsExactly(huge + ":0: is 1048577"
                + " bytes; an ldirectord.cf is limited to 1048576 bytes: is this the right file?");
    }

    /** Binary junk: one error at the line of the first control byte, not one per line (tryout). */
    @Test
    void binaryJunkIsOneError(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path f = Files.write(dir.resolve("junk.cf"), new byte[] {'c', 'h', 'e', 'c', 'k', 't', 'i', 'm', 'e', 'o', 'u',
            't', '=', '5', '\n', '\t', (byte) 0xfd, 0x1a, '\n', 0, '\n'});
        LdirectordParser.Result r = new LdirectordParser().parse(f);
        assertThat(r.config()).isEmpty();
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::toString).containsExactly(f + ":2: binary data"
                + " (byte 0x1A), not text: is this the right file? (an ldirectord.cf has only printable characters,"
                + " blanks and tabs)");
    }
}
