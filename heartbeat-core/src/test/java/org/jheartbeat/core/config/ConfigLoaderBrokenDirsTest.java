package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Broken config directories with ONE mistake each, built from the valid testkit directory. Each must
 * give exactly one ERROR, in the right file on the right line, and no config. Line numbers refer to
 * {@link ConfigDirBuilder#HA_CF} (keepalive=1, deadtime=2, warntime=3, initdead=4, udpport=5, ucast=6,
 * auto_failback=7, node1=8, node2=9, crm=10).
 */
class ConfigLoaderBrokenDirsTest {
    @TempDir
    Path dir;

    private static Arguments broken(String mistake, UnaryOperator<ConfigDirBuilder> breakIt, String file, int line,
                                    String messagePart) {
        return Arguments.of(mistake, breakIt, Optional.empty(), file, line, messagePart);
    }

    static Stream<Arguments> brokenDirs() {
        return Stream.of(
                broken("haresources node not in ha.cf", b -> b.haresourcesReplace("node1 ", "node3 "),
                        "haresources", 1, "Bad nodename in haresources [node3]"),
                broken("authkeys mode 644", b -> b.authkeysMode("644"),
                        "authkeys", 0, "authkeys is mode 644; it must be 600 and owned by root: chmod 600 "),
                broken("authkeys owned by nobody", b -> b.authkeysOwner("nobody"),
                        "authkeys", 0, "owned by uid 65534; it must be 600 and owned by root"),
                broken("auth 2 names a missing key", b -> b.authkeys("auth 2\n1 sha1 testsecret-0123456\n"),
                        "authkeys", 1, "Auth Key [2] not found in keyfile"),
                broken("sha1 without a key", b -> b.authkeys("auth 1\n1 sha1\n"),
                        "authkeys", 2, "Auth method [sha1] requires a key"),
                broken("crc with a key", b -> b.authkeys("auth 1\n1 crc testsecret\n"),
                        "authkeys", 2, "Auth method [crc] doesn't use a key"),
                broken("bad IP octet", b -> b.haresourcesReplace("198.18.0.100", "198.18.0.300"),
                        "haresources", 1, "bad IP address [198.18.0.300/24/eth0]"),
                broken("prefix 33", b -> b.haresourcesReplace("/24/", "/33/"),
                        "haresources", 1, "prefix [33] must be 1..32"),
                broken("deadtime not above 2 x keepalive", b -> b.haCfReplace("deadtime 3", "deadtime 1"),
                        "ha.cf", 2, "Dead time [1000ms] is too small compared to keeplive [500ms]"),
                broken("udpport after a media line",
                        b -> b.haCfReplace("udpport 694\nucast eth1 198.18.1.2", "ucast eth1 198.18.1.2\nudpport 700"),
                        "ha.cf", 6, "udpport must come before the media lines: move 'udpport 700' above line 5"),
                broken("unknown directive", b -> b.haCfReplace("keepalive 500ms", "keepalvie 2"),
                        "ha.cf", 1, "Illegal directive [keepalvie] in ha.cf; did you mean 'keepalive'?"),
                broken("no node line", b -> b.haCfReplace("node node1\nnode node2\n", ""),
                        "ha.cf", 0, "no nodes defined"),
                broken("crm yes", b -> b.haCfReplace("crm no", "crm yes"),
                        "ha.cf", 10, "crm [yes] is not supported: jheartbeat runs in R1 (haresources) mode only"),
                broken("initdead below deadtime", b -> b.haCfReplace("initdead 10", "initdead 2"),
                        "ha.cf", 4, "initdead [2000ms] is less than deadtime [3000ms]"),
                broken("duplicate group key", b -> b.haresources(ConfigDirBuilder.HARESOURCES
                                + "node2 198.18.0.100/24/eth0 labdb\n"),
                        "haresources", 2, "duplicate group key [198.18.0.100/24/eth0]"),
                broken("group without resources", b -> b.haresources("node1\n"),
                        "haresources", 1, "resource group for node [node1] has no resources"),
                broken("bad time syntax", b -> b.haCfReplace("keepalive 500ms", "keepalive 2s"),
                        "ha.cf", 1, "keepalive: invalid time [2s]"),
                broken("three nodes", b -> b.haCfAppend("node node3\n"),
                        "ha.cf", 11, "3 nodes defined: jheartbeat supports exactly two"),
                broken("ucast without peer", b -> b.haCfReplace("ucast eth1 198.18.1.2", "ucast eth1 198.18.1.2\nucast eth2"),
                        "ha.cf", 7, "ucast needs an interface and a peer"),
                broken("ha.cf missing", b -> b.haCf(null), "ha.cf", 0, "ha.cf not found"),
                broken("authkeys missing", b -> b.authkeys(null), "authkeys", 0, "authkeys not found"),
                Arguments.of("local node not listed", UnaryOperator.<ConfigDirBuilder>identity(),
                        Optional.of(NodeName.of("node7")), "ha.cf", 0, "Current node [node7] not in configuration!"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenDirs")
    void oneMistakeGivesOneErrorAtItsFileAndLine(String mistake, UnaryOperator<ConfigDirBuilder> breakIt,
                                                  Optional<NodeName> localNode, String file, int line,
                                                  String messagePart) {
        Path configDir = breakIt.apply(ConfigDirBuilder.validTwoNode()).writeTo(dir);

        ConfigLoadResult result = ConfigLoader.load(configDir, localNode);

        assertThat(result.hasErrors()).isTrue();
        assertThat(result.config()).isEmpty();
        assertThat(result.errors())
                .extracting(d -> d.file().getFileName().toString(), ConfigDiagnostic::line)
                .containsExactly(tuple(file, line));
        assertThat(result.errors().get(0).file()).isEqualTo(configDir.resolve(file));
        assertThat(result.errors().get(0).message()).contains(messagePart);
    }
}
