package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code hb config check} on broken config dirs, one mistake each, through picocli's execute(). */
class ConfigCheckCommandTest {
    @TempDir
    Path dir;

    private static HbRun hb(String... args) {
        return HbRun.hb(args);
    }

    static Stream<Arguments> brokenDirs() {
        return Stream.of(
                Arguments.of("haresources node not in ha.cf",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haresourcesReplace("node1 ", "node3 "), "haresources:1: "),
                Arguments.of("authkeys mode 644", (UnaryOperator<ConfigDirBuilder>) b -> b.authkeysMode("644"), "authkeys:0: "),
                Arguments.of("auth line names a missing key",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.authkeys("auth 2\n1 sha1 testsecret-0123456\n"), "authkeys:1: "),
                Arguments.of("bad IP", (UnaryOperator<ConfigDirBuilder>) b -> b.haresourcesReplace("198.18.0.100", "198.18.0.300"),
                        "haresources:1: "),
                Arguments.of("deadtime not above keepalive",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfReplace("deadtime 3", "deadtime 1"), "ha.cf:2: "),
                Arguments.of("udpport after a media line", (UnaryOperator<ConfigDirBuilder>) b ->
                        b.haCfReplace("udpport 694\nucast lo 127.0.0.2", "ucast lo 127.0.0.2\nudpport 700"), "ha.cf:6: "),
                Arguments.of("unknown directive",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfReplace("keepalive 500ms", "keepalvie 2"), "ha.cf:1: "),
                Arguments.of("missing node lines",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfReplace("node node1\nnode node2\n", ""), "ha.cf:0: "),
                Arguments.of("crm yes", (UnaryOperator<ConfigDirBuilder>) b -> b.haCfReplace("crm no", "crm yes"), "ha.cf:10: "),
                Arguments.of("sha1 without key", (UnaryOperator<ConfigDirBuilder>) b -> b.authkeys("auth 1\n1 sha1\n"), "authkeys:2: "),
                Arguments.of("initdead below deadtime",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfReplace("initdead 10", "initdead 2"), "ha.cf:4: "),
                Arguments.of("duplicate group key", (UnaryOperator<ConfigDirBuilder>) b ->
                        b.haresources("node1 198.18.0.100/24/eth0 labweb\nnode2 198.18.0.100/24/eth0\n"), "haresources:2: "),
                Arguments.of("prefix 33", (UnaryOperator<ConfigDirBuilder>) b -> b.haresourcesReplace("/24/", "/33/"),
                        "haresources:1: "),
                Arguments.of("deadping not above 2 x keepalive",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfAppend("deadping 1\n"), "ha.cf:11: "),
                Arguments.of("mcast ttl above 4",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfAppend("mcast lo 239.0.0.1 694 5 0\n"), "ha.cf:11: "),
                Arguments.of("mcast group not multicast",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfAppend("mcast lo 198.18.0.1 694 1 0\n"), "ha.cf:11: "),
                Arguments.of("crm twice", (UnaryOperator<ConfigDirBuilder>) b -> b.haCfAppend("pacemaker off\n"), "ha.cf:11: "),
                Arguments.of("logfacility in upper case",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haCfAppend("logfacility LOCAL0\n"), "ha.cf:11: "),
                Arguments.of("auth after its key", (UnaryOperator<ConfigDirBuilder>) b -> b.authkeys("1 sha1 testsecret-0123456\nauth 1\n"),
                        "authkeys:2: "),
                Arguments.of("'#' after crc", (UnaryOperator<ConfigDirBuilder>) b -> b.authkeys("auth 1\n1 crc # no key\n"),
                        "authkeys:2: "),
                Arguments.of("leading zero in an address",
                        (UnaryOperator<ConfigDirBuilder>) b -> b.haresourcesReplace("198.18.0.100", "198.018.0.100"),
                        "haresources:1: "),
                Arguments.of("IPaddr::ip::iface", (UnaryOperator<ConfigDirBuilder>) b ->
                        b.haresources("node1 IPaddr::198.18.0.100::eth0 labweb\n"), "haresources:1: "),
                Arguments.of("backslash then a blank", (UnaryOperator<ConfigDirBuilder>) b ->
                        b.haresources("node1 198.18.0.100/24/eth0 \\ \n  labweb\n"), "haresources:2: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenDirs")
    void brokenDirExitsTwoNamingFileAndLine(String mistake, UnaryOperator<ConfigDirBuilder> breakIt, String where) {
        Path cfg = breakIt.apply(ConfigDirBuilder.validHere()).writeTo(dir);
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve(where.substring(0, where.indexOf(':'))) + where.substring(where.indexOf(':')));
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    /** Adds an executable {@code resource.d/labweb}, as a real node has. */
    static Path withLabweb(Path cfg) {
        try {
            Path script = cfg.resolve("resource.d/labweb");
            java.nio.file.Files.createDirectories(script.getParent());
            java.nio.file.Files.writeString(script, "#!/bin/sh\necho stopped\n");
            java.nio.file.Files.setPosixFilePermissions(script,
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
            return cfg;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aMachineThatIsNotANodeIsWarnedWithoutNodeNameAndNotWithIt() throws Exception {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().writeTo(dir));
        String me = org.jheartbeat.cli.daemon.Daemon.unameN().toLowerCase(java.util.Locale.ROOT);
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        String warning = "ha.cf:0: warning: this machine's node name [" + me + "] ('uname -n') is not a node of this"
                + " cluster, so the daemon would refuse to start here";
        if (me.equals("node1") || me.equals("node2")) {
            assertThat(r.out()).doesNotContain("is not a node of this cluster");
        } else {
            assertThat(r.out()).contains(warning);
        }
        HbRun named = hb("config", "check", "--config-dir", cfg.toString(), "--node-name", "node1");
        assertThat(named.code()).as(named.err()).isZero();
        assertThat(named.out()).doesNotContain("is not a node of this cluster");
    }

    @Test
    void anInvalidJheartbeatYamlIsAnErrorWithFileAndLine() throws java.io.IOException {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().writeTo(dir));
        java.nio.file.Files.writeString(cfg.resolve("jheartbeat.yaml"), "metrics:\n  listen:\n    node3: 198.18.0.3:9810\n");
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("jheartbeat.yaml") + ":3: metrics: listen: [node3] is not a node of"
                + " ha.cf").doesNotContain("Exception");
        java.nio.file.Files.writeString(cfg.resolve("jheartbeat.yaml"), "metrics:\n  listen:\n    node2: 198.18.0.2:9810\n");
        HbRun ok = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(ok.code()).as(ok.err()).isZero();
    }

    @Test
    void validDirExitsZero() {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("configuration OK");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void unimplementedDirectiveIsAWarningNotAnError() {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().haCfAppend("hopfudge 2\n").writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("ha.cf:11: warning: ").contains("hopfudge");
    }

    @Test
    void aWatchdogLineNamingAMissingDeviceIsAConfigErrorWithItsLine() {
        Path missing = dir.resolve("watchdog");
        Path cfg = withLabweb(ConfigDirBuilder.validHere().haCfAppend("watchdog " + missing + "\n").writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":11: watchdog device " + missing + " does not exist")
                .doesNotContain("\tat ");
        assertThat(hb("config", "check", "--config-dir", withLabweb(ConfigDirBuilder.validHere()
                .haCfAppend("watchdog /dev/null\n").writeTo(dir)).toString()).code()).as("a character device").isZero();
    }

    @Test
    void missingResourceScriptIsAnErrorOnItsHaresourcesLine() {
        Path cfg = ConfigDirBuilder.validHere().haresourcesReplace("labweb", "labwebb").writeTo(dir);
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":1: ").contains("labwebb")
                .contains(cfg.resolve("resource.d").toString()).contains("/etc/init.d");
        assertThat(hb("config", "check", "--syntax-only", "--config-dir", cfg.toString()).code())
                .as("--syntax-only skips the checks against this machine").isZero();
    }

    @Test
    void sameAddressInTwoGroupsIsAnError() {
        Path cfg = withLabweb(ConfigDirBuilder.validHere()
                .haresources("node1 198.18.0.100/24/eth0 labweb\nnode2 IPaddr::198.18.0.100\n").writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":2: address 198.18.0.100 is also in the group on line 1");
    }

    @Test
    void ucastToThisMachinesOwnAddressIsAnErrorOnlyWhenNoMediumReachesThePeer() {
        Path cfg = withLabweb(ConfigDirBuilder.validTwoNode().haCfReplace("ucast eth1 198.18.1.2", "ucast lo 127.0.0.1")
                .writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":6: no heartbeat medium reaches the peer");

        // Heartbeat-style shared ha.cf: both nodes' addresses listed; the own one is not used here
        Path shared = withLabweb(ConfigDirBuilder.validHere()
                .haCfReplace("ucast lo 127.0.0.2", "ucast lo 127.0.0.2\nucast lo 127.0.0.1").writeTo(dir.resolve("s")));
        HbRun ok = hb("config", "check", "--config-dir", shared.toString());
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains(shared.resolve("ha.cf") + ":7: warning: ucast peer 127.0.0.1 is an address of this"
                + " machine: this line is not used on this node");
    }

    @Test
    void missingConfigDirIsOneClearError() {
        HbRun r = hb("config", "check", "--config-dir", dir.resolve("nope").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).startsWith(dir.resolve("nope") + ":0: config directory does not exist");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void noCommandIsAUsageError() {
        HbRun r = hb();
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith("hb: a command is required").contains("Usage: hb");
        assertThat(hb("config").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void unknownOptionIsAUsageError() {
        HbRun r = hb("config", "check", "--frobnicate");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("Unknown option: '--frobnicate'");
    }

    @Test
    void statusWithoutDaemonSaysNotRunning() {
        HbRun r = hb("status", "--state-dir", dir.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(r.err()).startsWith("hb: no daemon is running");
    }

    @Test
    void daemonDoesNotRefuseToStartForAMissingResourceScriptOnlyForRealErrors() {
        // no medium reaching the peer stops it; the missing script is named as its group's problem, not a reason
        Path cfg = ConfigDirBuilder.validTwoNode().haCfReplace("ucast eth1 198.18.1.2", "ucast lo 127.0.0.1")
                .haresourcesReplace("labweb", "labwebb").writeTo(dir.resolve("cfg"));
        HbRun r = hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node1");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("ha.cf:6: no heartbeat medium reaches the peer").contains("not starting")
                .contains(cfg.resolve("haresources") + ":1: Cannot locate resource script for labwebb")
                .contains("(resource group 198.18.0.100/24/eth0 will fail to start; the daemon starts anyway)");
    }

    @Test
    void daemonRefusesBrokenConfigWithExitTwo() {
        Path cfg = ConfigDirBuilder.validHere().authkeysMode("644").writeTo(dir.resolve("cfg"));
        HbRun r = hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node1");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("authkeys:0: ").contains("not starting");
    }

    @Test
    void anAddressNoRouteOfThisMachineCarriesIsCaughtByTheCheckNotAtTakeover() {
        // 127.0.0.0/8 is in the local table, never in the main table the IP agent resolves from
        Path cfg = withLabweb(ConfigDirBuilder.validHere().haresources("node1 IPaddr2::127.0.0.77 labweb\n").writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":1: no route of this machine can carry 127.0.0.77"
                + " (IPaddr2::127.0.0.77): no interface is given and no connected route contains it, so the IP agent"
                + " would fail at takeover; write the ip/prefix/iface form, e.g. 127.0.0.77/24/eth0");
        Path given = withLabweb(ConfigDirBuilder.validHere().haresources("node1 IPaddr2::127.0.0.77/8/lo labweb\n")
                .writeTo(dir.resolve("given")));
        HbRun ok = hb("config", "check", "--config-dir", given.toString());
        assertThat(ok.code()).as("prefix and interface given: no route needed. " + ok.err()).isZero();
    }

    @Test
    void mcastOnAnInterfaceThatDoesNotExistIsRefusedAsHeartbeatDoes() {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().haCfAppend("mcast nosuch0 239.0.0.1 694 1 0\n").writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":11: mcast device [nosuch0] is invalid or not set up"
                + " properly: no such interface on this machine");
        HbRun lo = hb("config", "check", "--config-dir", withLabweb(ConfigDirBuilder.validHere()
                .haCfAppend("mcast lo 239.0.0.1 694 1 0\n").writeTo(dir.resolve("lo"))).toString());
        assertThat(lo.code()).as(lo.err()).isZero();
    }

    @Test
    void legacyFailbackAndNiceFailbackWarningsNameTheRealFileAndLine() {
        Path legacy = withLabweb(ConfigDirBuilder.validHere().haCfReplace("auto_failback on", "auto_failback legacy")
                .writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", legacy.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains(legacy.resolve("ha.cf") + ":7: warning: Deprecated 'legacy' auto_failback option"
                + " selected");
        Path nice = withLabweb(ConfigDirBuilder.validHere().haCfReplace("auto_failback on", "nice_failback on")
                .writeTo(dir.resolve("nice")));
        HbRun n = hb("config", "check", "--config-dir", nice.toString());
        assertThat(n.code()).isZero();
        assertThat(n.out()).contains(nice.resolve("ha.cf") + ":7: warning: nice_failback is obsolete: 'nice_failback"
                + " on' is read as 'auto_failback off'; write 'auto_failback off' instead")
                .doesNotContain("legacy' auto_failback option");
    }

    @Test
    void crlfFilesPassWithOneWarningEach() {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().haCf(ConfigDirBuilder.HA_CF.replace("ucast eth1 198.18.1.2", "ucast lo 127.0.0.2").replace("\n", "\r\n"))
                .authkeys(ConfigDirBuilder.AUTHKEYS.replace("\n", "\r\n"))
                .haresources(ConfigDirBuilder.HARESOURCES.replace("\n", "\r\n")).writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        for (String file : new String[] {"ha.cf", "authkeys", "haresources"}) {
            assertThat(r.out()).contains(cfg.resolve(file) + ":1: warning: file has CRLF (DOS) line endings; the CRs"
                    + " are ignored, as Heartbeat does");
        }
    }

    @Test
    void udpportRepeatedAfterTheMediaWithTheSamePortIsAWarning() {
        Path cfg = withLabweb(ConfigDirBuilder.validHere().haCfAppend("udpport 694\n").writeTo(dir));
        HbRun r = hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains(cfg.resolve("ha.cf") + ":11: warning: udpport 694 comes after the media lines");
    }
}
