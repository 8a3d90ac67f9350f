package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDiagnostic.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HaCfParserTest {
    private static final Path FILE = Path.of("/etc/ha.d/ha.cf");

    private static HaCfParser.Result parse(String text) {
        return HaCfParser.parse(FILE, text);
    }

    @Test
    void readsTimersInMillis() {
        HaCf cf = parse("keepalive 500ms\ndeadtime 3\nwarntime 0.5\ninitdead 10\n").haCf();
        assertThat(cf.keepaliveMs()).contains(new HaCf.Setting<>(500L, 1));
        assertThat(cf.deadtimeMs()).contains(new HaCf.Setting<>(3000L, 2));
        assertThat(cf.warntimeMs()).contains(new HaCf.Setting<>(500L, 3));
        assertThat(cf.initdeadMs()).contains(new HaCf.Setting<>(10_000L, 4));
    }

    @Test
    void commentsAnywhereAndBlankLinesAreIgnored() {
        HaCfParser.Result r = parse("# header\n\n   \t\nkeepalive 2 # two seconds\n#node x\nnode a# b\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().keepaliveMs()).contains(new HaCf.Setting<>(2000L, 4));
        assertThat(r.haCf().nodeNames()).containsExactly(NodeName.of("a"));
    }

    @Test
    void ordinaryDirectivesApplyPerTokenSplitOnBlanksTabsAndCommas() {
        HaCf cf = parse("node Alpha\tbeta,gamma\nbcast eth0 eth1\n").haCf();
        assertThat(cf.nodes()).containsExactly(new NodeDecl(NodeName.of("alpha"), 1),
                new NodeDecl(NodeName.of("beta"), 1), new NodeDecl(NodeName.of("gamma"), 1));
        assertThat(cf.media()).containsExactly(new MediumDecl.Bcast("eth0", 694, 2), new MediumDecl.Bcast("eth1", 694, 2));
    }

    @Test
    void aPathDirectiveGivenTwoWordsIsAnErrorAtItsLineAndNotApplied() {
        // a tester's 'logfile a b' passed hb config check and the daemon logged to b, as Heartbeat 3.0.6 would
        HaCfParser.Result r = parse("keepalive 2\nlogfile /var/log/ha-log /tmp/x\n");
        assertThat(r.haCf().logging().logfile()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.format()).isEqualTo(FILE + ":2: logfile takes one path, but this line gives 2"
                    + " (/var/log/ha-log /tmp/x): Heartbeat 3.0.6 splits the line at blanks, tabs and commas and"
                    + " applies each word in turn, so it would use the last, /tmp/x; write one path, without blanks"
                    + " or commas (line ignored)");
        });
        assertThat(parse("logfile /var/log/ha,log\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).startsWith("logfile takes one path, but this line gives 2"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"keepalive 2 3", "deadtime 20,30", "warntime 5\t6", "initdead 60 70", "deadping 20 30",
        "udpport 694 695", "auto_failback on off", "nice_failback on off", "logfacility daemon local0",
        "debugfile /a /b", "baud 9600 19200", "watchdog /dev/null /dev/zero", "crm no no", "pacemaker off off"})
    void everyOneValueDirectiveRefusesASecondWordOnItsLine(String line) {
        String keyword = line.split(" ")[0];
        assertThat(parse(line + "\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(1);
            assertThat(d.message()).startsWith(keyword + " takes one ").contains("but this line gives 2")
                    .endsWith("(line ignored)");
        });
    }

    @Test
    void listDirectivesStillTakeSeveralWordsOnALine() {
        HaCfParser.Result r = parse("node a b\nping 198.18.0.254 198.18.1.254\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().nodeNames()).hasSize(2);
        assertThat(r.haCf().pingNodes()).hasSize(2);
    }

    @Test
    void ucastGetsTheWholeLineAndTheUdpportInForce() {
        HaCfParser.Result r = parse("udpport 695\nucast eth1 198.18.1.2\nucast eth2 peer.example.org\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().udpPort()).isEqualTo(695);
        assertThat(r.haCf().media()).containsExactly(new MediumDecl.Ucast("eth1", "198.18.1.2", 695, 2),
                new MediumDecl.Ucast("eth2", "peer.example.org", 695, 3));
    }

    @Test
    void ucastExtraTokensAreIgnoredWithAWarning() {
        HaCfParser.Result r = parse("ucast eth1 10.0.0.2 10.0.0.3\n");
        assertThat(r.haCf().media()).containsExactly(new MediumDecl.Ucast("eth1", "10.0.0.2", 694, 1));
        assertThat(r.diagnostics()).extracting(ConfigDiagnostic::severity, ConfigDiagnostic::line)
                .containsExactly(tuple(Severity.WARNING, 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ucast eth1", "ucast eth1 10.0.0.300", "ucast eth1 bad_host!", "ucast eth0/1 10.0.0.2"})
    void badUcastIsAnError(String line) {
        HaCfParser.Result r = parse(line + "\n");
        assertThat(r.haCf().media()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(1);
        });
    }

    @Test
    void udpportAfterMediaIsAnErrorNamingTheFirstMediumLineWhenItDiffers() {
        HaCfParser.Result r = parse("keepalive 1\nbcast eth0\nudpport 700\n");
        assertThat(r.haCf().udpPort()).isEqualTo(694);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.message()).contains("udpport must come before the media lines").contains("line 2")
                    .contains("keep port 694");
        });
    }

    @Test
    void udpportAfterMediaIsOnlyAWarningWhenItEqualsTheirPort() {
        HaCfParser.Result r = parse("udpport 700\nucast eth1 198.18.1.2\nudpport 700\n");
        assertThat(r.haCf().media()).containsExactly(new MediumDecl.Ucast("eth1", "198.18.1.2", 700, 2));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(3);
            assertThat(d.message()).isEqualTo("udpport 700 comes after the media lines (first on line 2); Heartbeat"
                    + " ignores it for them, and it equals the port they already use, so nothing changes: move it"
                    + " above line 2");
        });
        assertThat(parse("ucast eth1 198.18.1.2\nudpport 694\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.isError()).isFalse());
    }

    @Test
    void udpportAfterMcastOrSerialIsFineMcastHasItsOwnPort() {
        HaCfParser.Result r = parse("mcast eth1 239.0.0.1 694 1 0\nudpport 700\nbcast eth1\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().media()).containsExactly(new MediumDecl.Mcast("eth1", "239.0.0.1", 694, 1, false, 1),
                new MediumDecl.Bcast("eth1", 700, 3));
    }

    @Test
    void mcastReadsItsFiveValues() {
        HaCfParser.Result r = parse("mcast eth1 239.0.0.1 695 4 1\nmcast eth0 225.0.0.1 694 0 0 extra\n");
        assertThat(r.haCf().media()).containsExactly(new MediumDecl.Mcast("eth1", "239.0.0.1", 695, 4, true, 1),
                new MediumDecl.Mcast("eth0", "225.0.0.1", 694, 0, false, 2));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("extra text after [0] ignored");
        });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "mcast eth1                          | mcast is missing its multicast group; write mcast IFACE GROUP PORT TTL LOOP",
            "mcast eth1 239.0.0.1 694 1          | mcast is missing its loop",
            "mcast eth1 198.18.0.1 694 1 0       | mcast [eth1] bad addr [198.18.0.1]: the group must be a multicast address",
            "mcast eth1 240.0.0.1 694 1 0        | mcast [eth1] bad addr [240.0.0.1]: the group must be a multicast address",
            "mcast eth1 223.255.255.255 694 1 0  | mcast [eth1] bad addr [223.255.255.255]",
            "mcast eth1 239.0.0.256 694 1 0      | mcast [eth1] bad addr [239.0.0.256]: octet 256 > 255",
            "mcast eth1 239.0.0.1 0 1 0          | mcast [eth1] bad port [0]",
            "mcast eth1 239.0.0.1 65536 1 0      | mcast [eth1] bad port [65536]",
            "mcast eth1 239.0.0.1 694 5 0        | mcast [eth1] bad ttl [5]: Heartbeat accepts 0..4",
            "mcast eth1 239.0.0.1 694 255 0      | mcast [eth1] bad ttl [255]",
            "mcast eth1 239.0.0.1 694 -1 0       | mcast [eth1] bad ttl [-1]",
            "mcast eth1 239.0.0.1 694 1 2        | mcast [eth1] bad loop [2]: expected 0",
            "mcast eth1 239.0.0.1 694 1 yes      | mcast [eth1] bad loop [yes]",
            "mcast eth1/2 239.0.0.1 694 1 0      | mcast: invalid interface name [eth1/2]",
    })
    void mcastMistakesAreOneErrorOnTheirLine(String line, String message) {
        HaCfParser.Result r = parse("keepalive 1\n" + line + "\n");
        assertThat(r.haCf().media()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).startsWith(message);
        });
    }

    @Test
    void deadpingIsReadInMillis() {
        assertThat(parse("deadping 2500ms\n").haCf().deadpingMs()).contains(new HaCf.Setting<>(2500L, 1));
    }

    @ParameterizedTest(name = "nice_failback {0} -> auto_failback {1}")
    @CsvSource({"on, OFF, off", "yes, OFF, off", "off, ON, on", "0, ON, on"})
    void niceFailbackMeansTheOppositeAutoFailbackWithADeprecationWarning(String value, FailbackPolicy policy,
                                                                          String replacement) {
        HaCfParser.Result r = parse("keepalive 1\nnice_failback " + value + "\n");
        assertThat(r.haCf().autoFailback()).contains(new HaCf.Setting<>(policy, 2));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).startsWith("nice_failback is obsolete: 'nice_failback " + value + "' is read as"
                    + " 'auto_failback " + replacement + "'; write 'auto_failback " + replacement + "' instead");
        });
        assertThat(parse("nice_failback maybe\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.isError()).isTrue());
    }

    @ParameterizedTest
    @ValueSource(strings = {"crm no\ncrm no", "crm no\npacemaker off", "pacemaker off\ncrm off"})
    void crmOrPacemakerAtMostOnce(String lines) {
        assertThat(parse(lines + "\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).isEqualTo("pacemaker/crm directive used multiple times! (first on line 1); keep"
                    + " only one 'crm no' line");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"Local0", "DAEMON", "Auth", "None"})
    void logfacilityIsLowerCaseOnlyAsHeartbeatsTable(String facility) {
        assertThat(parse("logfacility " + facility + "\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.message()).isEqualTo("Log facility(" + facility + ") not valid: facility names are lower"
                    + " case, as in Heartbeat's table; write 'logfacility " + facility.toLowerCase() + "'");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "65536", "http", "-1"})
    void badUdpportIsAnError(String port) {
        assertThat(parse("udpport " + port + "\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).contains("invalid udpport"));
    }

    @Test
    void udpIsAnAliasOfBcastWithHeartbeatsWarning() {
        HaCfParser.Result r = parse("udp eth0 eth1\n");
        assertThat(r.haCf().media()).hasSize(2);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.message()).isEqualTo("directive 'udp' replaced by 'bcast'");
        });
    }

    @ParameterizedTest(name = "auto_failback {0} -> {1}")
    @CsvSource({"on, ON", "yes, ON", "true, ON", "Y, ON", "1, ON", "off, OFF", "no, OFF", "false, OFF", "n, OFF",
            "0, OFF", "legacy, LEGACY"})
    void autoFailbackTakesHeartbeatBooleansAndLegacy(String value, FailbackPolicy expected) {
        assertThat(parse("auto_failback " + value + "\n").haCf().autoFailback())
                .contains(new HaCf.Setting<>(expected, 1));
    }

    @Test
    void badAutoFailbackIsAnError() {
        assertThat(parse("auto_failback maybe\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).contains("expected on, off or legacy"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"crm no", "crm off", "crm false", "crm 0", "pacemaker off", "pacemaker n"})
    void crmOffIsAccepted(String line) {
        assertThat(parse(line + "\n").diagnostics()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"crm yes", "crm on", "crm respawn", "pacemaker minimal"})
    void crmAnythingElseIsAnErrorSayingR1Only(String line) {
        assertThat(parse(line + "\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.message()).contains("R1 (haresources) mode only");
        });
    }

    @Test
    void logSettings() {
        HaCfParser.Result r = parse("logfile /var/log/ha-log\ndebugfile /var/log/ha-debug\nlogfacility local0\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().logging()).isEqualTo(new LogSettings(Optional.of(Path.of("/var/log/ha-log")),
                Optional.of(Path.of("/var/log/ha-debug")), Optional.of("local0")));
        assertThat(parse("logfacility none\n").haCf().logging().logfacility()).contains("none");
        assertThat(parse("logfacility security\n").diagnostics()).as("glibc's alias of auth").isEmpty();
        assertThat(parse("logfacility local9\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).startsWith("Log facility(local9) not valid: expected a syslog"));
    }

    @Test
    void unknownDirectiveIsAnErrorWithASuggestion() {
        assertThat(parse("keepalive 1\nkeepalvie 2\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).isEqualTo("Illegal directive [keepalvie] in ha.cf; did you mean 'keepalive'?");
        });
        assertThat(parse("frobnicate yes\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).isEqualTo("Illegal directive [frobnicate] in ha.cf"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"mcast6 eth0 ff02::1 694 1 0", "ping6 fe80::1",
            "hopfudge 2", "msgfmt netstring"})
    void notImplementedDirectiveIsAWarningNamingItAndItsLine(String line) {
        String keyword = line.split(" ")[0];
        HaCfParser.Result r = parse("keepalive 1\n" + line + "\n");
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).isEqualTo("directive '" + keyword + "' has no effect in jheartbeat; line ignored");
        });
    }

    @Test
    void apiauthIsIgnoredSayingWhoMayCommandTheDaemonAndWhichGroupToName() {
        assertThat(parse("apiauth ipfail gid=haclient uid=hacluster\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.message()).isEqualTo("apiauth is not used by jheartbeat (it has no Heartbeat API clients); at"
                    + " its control socket group haclient may read and only root may change the cluster, or a group"
                    + " named in jheartbeat.yaml control: admin_group:; line ignored");
        });
        assertThat(parse("apiauth default gid=haclient,haadmin\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).endsWith("; to let group haadmin change it too, write"
                        + " jheartbeat.yaml control: admin_group: haadmin; line ignored"));
    }

    @Test
    void serialTakesTheBaudDeclaredBeforeIt() {
        HaCfParser.Result r = parse("baud 38400\nserial /dev/null /dev/tty\nudpport 694\nucast eth1 198.18.1.2\n");
        assertThat(r.diagnostics()).as("/dev/null is a char device; udpport after serial is fine").isEmpty();
        assertThat(r.haCf().media()).containsExactly(new MediumDecl.Serial("/dev/null", 38400, 2),
                new MediumDecl.Serial("/dev/tty", 38400, 2), new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 4));
        assertThat(r.haCf().media().get(0).linkName()).isEqualTo("/dev/null");
    }

    @Test
    void stonithLinesAreKeptAndTheLastOneUsableFromANodeWins() {
        HaCfParser.Result r = parse("stonith_host node1 apcsmart /dev/ttyS1 node2\n"
                + "stonith_host node2 apcsmart /dev/ttyS1 node1\nstonith_host * external/ssh node1 node2\n"
                + "stonith null /etc/ha.d/stonith.cfg\n");
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.haCf().stonith()).extracting(StonithDecl::type, StonithDecl::params, StonithDecl::line)
                .containsExactly(tuple("apcsmart", List.of("/dev/ttyS1", "node2"), 1),
                        tuple("apcsmart", List.of("/dev/ttyS1", "node1"), 2),
                        tuple("external/ssh", List.of("node1", "node2"), 3),
                        tuple("null", List.of(), 4));
        assertThat(r.haCf().stonith().get(0).usableFrom(NodeName.of("node1"))).isTrue();
        assertThat(r.haCf().stonith().get(0).usableFrom(NodeName.of("node2"))).isFalse();
        assertThat(r.haCf().stonith().get(3).configFile()).contains(Path.of("/etc/ha.d/stonith.cfg"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"stonith_host node1|stonith_host needs a node (or *), a device type and its parameters",
        "stonith apcsmart|stonith needs a device type and its parameter file",
        "stonith null cfg|stonith parameter file [cfg] must be a full path"})
    void stonithMistakesAreErrors(String spec) {
        String[] p = spec.split("\\|");
        assertThat(parse(p[0] + "\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).startsWith(p[1]));
    }

    @Test
    void serialDefaultsTo19200() {
        assertThat(parse("serial /dev/null\n").haCf().media()).containsExactly(new MediumDecl.Serial("/dev/null", 19200, 1));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "serial /dev/null\nbaud 9600\n|2|baud must come before the serial lines: move 'baud 9600' above line 1 (Heartbeat would silently use 19200)",
        "baud 9600\nbaud 19200\n|2|baud may appear only once; it was already set on line 1",
        "baud 12345\n|1|invalid baudrate [12345]: use one of [9600, 19200, 38400, 57600, 115200, 230400, 460800]",
        "serial ttyS0\n|1|serial device [ttyS0] must be a full path, e.g. /dev/ttyS0",
        "serial /etc/hostname\n|1|serial device /etc/hostname is not a character device (a tty is expected)",
        "serial /dev/null\nserial /dev/null\n|2|serial device /dev/null is already declared on line 1"})
    void serialMistakesAreErrorsOnTheirLine(String spec) {
        String[] p = spec.split("\\|");
        HaCfParser.Result r = parse(p[0]);
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.line()).isEqualTo(Integer.parseInt(p[1]));
            assertThat(d.message()).isEqualTo(p[2]);
        });
    }

    @Test
    void aMissingSerialDeviceIsLeftToTheChecksOnTheMachine() {
        // the file may be meant for another machine (--syntax-only); hb config check and the daemon's start
        // refuse it on this one (MediaPreflight), once
        HaCfParser.Result r = parse("serial /dev/ttyNOPE9\n");
        assertThat(r.haCf().media()).hasSize(1);
        assertThat(r.diagnostics()).isEmpty();
    }

    @Test
    void badTimeIsAnErrorOnItsLine() {
        HaCfParser.Result r = parse("keepalive 1\ndeadtime 2s\n");
        assertThat(r.haCf().deadtimeMs()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).startsWith("deadtime: invalid time [2s]");
        });
    }

    @Test
    void directiveWithoutValueIsAnError() {
        assertThat(parse("node\n").diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.message()).isEqualTo("directive 'node' needs a value"));
    }

    @Test
    void duplicateNodeIsAWarning() {
        HaCfParser.Result r = parse("node a\nnode A\n");
        assertThat(r.haCf().nodeNames()).containsExactly(NodeName.of("a"));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.severity()).isEqualTo(Severity.WARNING));
    }

    @Test
    void crlfIsReportedOnceAtTheFirstSuchLineAndTheFileStillParses() {
        HaCfParser.Result r = parse("keepalive 1\nnode a\r\nnode b\r\n");
        assertThat(r.haCf().nodeNames()).containsExactly(NodeName.of("a"), NodeName.of("b"));
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).as("Heartbeat strips the CR: a warning, not an error").isFalse();
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).contains("CRLF (DOS) line endings").contains("dos2unix");
        });
    }

    @Test
    void ucastPeerWithALeadingZeroIsRefusedWithTheDecimalSpelling() {
        assertThat(parse("ucast eth1 198.018.1.2\n").diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.message()).isEqualTo("ucast peer: octet [018] of IPv4 address [198.018.1.2] has a leading"
                    + " zero, which inet_aton reads as octal; write 198.18.1.2");
        });
    }
}
