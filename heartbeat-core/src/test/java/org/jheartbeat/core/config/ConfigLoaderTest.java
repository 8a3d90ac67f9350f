package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ConfigDiagnostic.Severity;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private static final NodeName NODE1 = NodeName.of("node1");
    private static final NodeName NODE2 = NodeName.of("node2");

    @Test
    void validDirectoryLoadsWithoutAnyDiagnostic() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().writeTo(dir), Optional.of(NODE1));
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.hasErrors()).isFalse();
        assertThat(r.defaultsApplied()).isEmpty();
        ClusterConfig c = r.config().orElseThrow();
        assertThat(c.configDir()).isEqualTo(dir);
        assertThat(c.timing()).isEqualTo(Timing.ofMillis(500, 2000, 3000, 10_000));
        assertThat(c.udpPort()).isEqualTo(694);
        assertThat(c.nodes()).containsExactly(NODE1, NODE2);
        assertThat(c.peerOf(NODE1)).contains(NODE2);
        assertThat(c.media()).containsExactly(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 6));
        assertThat(c.autoFailback()).isEqualTo(FailbackPolicy.ON);
        assertThat(c.logging()).isEqualTo(LogSettings.none());
        assertThat(c.authKeys()).isEqualTo(AuthKeys.single(1, AuthMethod.SHA1,
                "testsecret-0123456".getBytes(StandardCharsets.US_ASCII)));
        assertThat(c.resourceGroups()).singleElement().satisfies(g -> {
            assertThat(g.preferredNode()).isEqualTo(NODE1);
            assertThat(g.key()).isEqualTo("198.18.0.100/24/eth0");
            assertThat(g.resources()).extracting(ResourceSpec::agent).containsExactly("IPaddr", "labweb");
        });
    }

    @Test
    void bcastVariantLoads() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().bcast().writeTo(dir), Optional.empty());
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.config().orElseThrow().media()).containsExactly(new MediumDecl.Bcast("eth1", 694, 6));
    }

    @Test
    void unimplementedDirectiveWarnsWithItsLineAndStillLoads() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haCfAppend("hopfudge 2\n")
                .writeTo(dir), Optional.empty());
        assertThat(r.config()).isPresent();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.file()).isEqualTo(dir.resolve("ha.cf"));
            assertThat(d.line()).isEqualTo(11);
            assertThat(d.format()).isEqualTo(dir.resolve("ha.cf") + ":11: warning: directive 'hopfudge' has no"
                    + " effect in jheartbeat; line ignored");
        });
    }

    @Test
    void watchdogDeviceReachesTheConfigAndIsEmptyWithoutTheLine() {
        ConfigLoadResult with = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haCfAppend("watchdog /dev/null\n")
                .writeTo(dir), Optional.of(NODE1));
        assertThat(with.diagnostics()).isEmpty();
        assertThat(with.config().orElseThrow().watchdog()).contains(Path.of("/dev/null"));
        ConfigLoadResult without = ConfigLoader.load(ConfigDirBuilder.validTwoNode().writeTo(dir), Optional.of(NODE1));
        assertThat(without.config().orElseThrow().watchdog()).isEmpty();
    }

    @Test
    void missingWatchdogDeviceIsAnErrorOnItsLineAndNoConfig() {
        Path missing = dir.resolve("no-watchdog");
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haCfAppend("watchdog " + missing + "\n")
                .writeTo(dir), Optional.of(NODE1));
        assertThat(r.config()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> assertThat(d.format()).isEqualTo(
                dir.resolve("ha.cf") + ":11: watchdog device " + missing + " does not exist: load the watchdog"
                        + " driver (modprobe softdog, or the board's own, e.g. iTCO_wdt), or remove the line"));
    }

    @Test
    void missingHaresourcesIsAWarningAndNoGroups() {
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haresources(null).writeTo(dir),
                Optional.empty());
        assertThat(r.config().orElseThrow().resourceGroups()).isEmpty();
        assertThat(r.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.file().getFileName()).hasToString("haresources");
        });
    }

    @Test
    void defaultsAreReportedNotSilent() {
        String haCf = "ucast eth1 198.18.1.2\nauto_failback on\nnode node1 node2\n";
        ConfigLoadResult r = ConfigLoader.load(ConfigDirBuilder.validTwoNode().haCf(haCf).writeTo(dir), Optional.empty());
        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.defaultsApplied()).extracting(AppliedDefault::directive)
                .containsExactly("keepalive", "deadtime", "warntime", "initdead");
    }

    @Test
    void everyProblemOfEveryFileIsCollected() {
        ConfigDirBuilder broken = ConfigDirBuilder.validTwoNode()
                .haCfReplace("keepalive 500ms", "keepalvie 2")
                .haCfAppend("crm yes\n")
                .authkeys("auth 1\n1 crc secret\n")
                .authkeysMode("644")
                .haresources("node3 198.18.0.300 labweb\nnode1 10.0.0.1/33\n");
        ConfigLoadResult r = ConfigLoader.load(broken.writeTo(dir), Optional.of(NodeName.of("node9")));
        assertThat(r.config()).isEmpty();
        assertThat(r.errors()).extracting(d -> d.file().getFileName().toString(), ConfigDiagnostic::line)
                .containsExactly(tuple("ha.cf", 1), tuple("ha.cf", 11), tuple("authkeys", 2), tuple("authkeys", 0),
                        tuple("haresources", 1), tuple("haresources", 2), tuple("ha.cf", 0));
    }

    @Test
    void crlfFilesLoadWithOneWarningEachAtTheFirstCrlfLine() {
        ConfigDirBuilder dos = ConfigDirBuilder.validTwoNode()
                .haCf(ConfigDirBuilder.HA_CF.replace("\n", "\r\n"))
                .authkeys(ConfigDirBuilder.AUTHKEYS.replace("\n", "\r\n"))
                .haresources("# groups\n" + ConfigDirBuilder.HARESOURCES.replace("\n", "\r\n"));
        ConfigLoadResult r = ConfigLoader.load(dos.writeTo(dir), Optional.of(NODE1));
        assertThat(r.errors()).isEmpty();
        assertThat(r.warnings()).extracting(d -> d.file().getFileName().toString(), ConfigDiagnostic::line)
                .containsExactlyInAnyOrder(tuple("ha.cf", 1), tuple("authkeys", 1), tuple("haresources", 2));
        assertThat(r.warnings()).allSatisfy(d -> assertThat(d.message())
                .contains("CRLF (DOS) line endings; the CRs are ignored, as Heartbeat does; convert with dos2unix"));
        ClusterConfig c = r.config().orElseThrow();
        assertThat(c.authKeys()).as("the CR is not part of the key").isEqualTo(AuthKeys.single(1, AuthMethod.SHA1,
                "testsecret-0123456".getBytes(StandardCharsets.US_ASCII)));
        assertThat(c.resourceGroups()).singleElement().satisfies(g ->
                assertThat(g.resources()).extracting(ResourceSpec::token).containsExactly("198.18.0.100/24/eth0", "labweb"));
        assertThat(c.nodes()).containsExactly(NODE1, NODE2);
    }

    @Test
    void emptyOrMissingDirectoryGivesDiagnosticsNotExceptions() {
        ConfigLoadResult missing = ConfigLoader.load(dir.resolve("nowhere"), Optional.empty());
        assertThat(missing.errors()).extracting(d -> d.file().getFileName().toString(), ConfigDiagnostic::line)
                .containsExactly(tuple("nowhere", 0));
        ConfigLoadResult empty = ConfigLoader.load(dir, Optional.empty());
        assertThat(empty.errors()).extracting(d -> d.file().getFileName().toString(), ConfigDiagnostic::line)
                .containsExactly(tuple("ha.cf", 0), tuple("authkeys", 0));
        assertThat(empty.warnings()).extracting(d -> d.file().getFileName().toString()).containsExactly("haresources");
    }

    @Test
    void unreadableFileIsADiagnostic() throws IOException {
        ConfigDirBuilder.validTwoNode().haCf(null).writeTo(dir);
        Files.createDirectory(dir.resolve("ha.cf"));
        ConfigLoadResult r = ConfigLoader.load(dir, Optional.empty());
        assertThat(r.errors()).singleElement().satisfies(d -> {
            assertThat(d.file()).isEqualTo(dir.resolve("ha.cf"));
            assertThat(d.message()).isEqualTo("ha.cf is a directory; a file is expected");
        });
    }

    /** authkeys made a directory: one error, not a second one about the directory's mode 755 (tryout). */
    @Test
    void anAuthkeysDirectoryIsOneError() throws IOException {
        ConfigDirBuilder.validTwoNode().authkeys(null).writeTo(dir);
        Files.createDirectory(dir.resolve("authkeys"));
        ConfigLoadResult r = ConfigLoader.load(dir, Optional.empty());
        assertThat(r.errors()).extracting(ConfigDiagnostic::format)
                .containsExactly(dir.resolve("authkeys") + ":0: authkeys is a directory; a file is expected");
    }

    /** Binary junk in place of a config file: one error at the line of the first control byte, not one per line (tryout). */
    @Test
    void binaryJunkIsOneErrorPerFile() throws IOException {
        ConfigDirBuilder.validTwoNode().writeTo(dir);
        byte[] junk = new byte[3000];
        new java.util.Random(7).nextBytes(junk);
        junk[0] = 'k';
        junk[1] = '\n';
        junk[2] = 0x01;
        Files.write(dir.resolve("ha.cf"), junk);
        Files.write(dir.resolve("haresources"), new byte[] {'n', 'o', 'd', 'e', '1', ' ', 0, '\n'});
        ConfigLoadResult r = ConfigLoader.load(dir, Optional.empty());
        assertThat(r.errors()).extracting(ConfigDiagnostic::format).containsExactly(
                dir.resolve("ha.cf") + ":2: ha.cf holds binary data (byte 0x01), not text: is this the right file?"
                        + " (a config file has only printable characters, blanks and tabs)",
                dir.resolve("haresources") + ":1: haresources holds binary data (byte 0x00), not text: is this the"
                        + " right file? (a config file has only printable characters, blanks and tabs)");
    }

    @Test
    void tabsFormFeedsAndCarriageReturnsAreText() {
        assertThat(ConfigText.firstControlByte("a\tb\r\n\f\u000b c\n".getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(-1);
        assertThat(ConfigText.firstControlByte(new byte[] {'a', 0x7f})).isEqualTo(1);
    }

    @Test
    void hugeOrEndlessFilesAreRefusedNotRead() throws IOException {
        ConfigDirBuilder.validTwoNode().haresources(null).writeTo(dir);
        Files.createSymbolicLink(dir.resolve("haresources"), java.nio.file.Path.of("/dev/zero"));
        Files.write(dir.resolve("ha.cf"), new byte[(int) ConfigText.MAX_FILE_BYTES + 1]);
        ConfigLoadResult r = ConfigLoader.load(dir, Optional.empty());
        assertThat(r.errors()).extracting(ConfigDiagnostic::format).containsExactly(
                dir.resolve("ha.cf") + ":0: ha.cf is 1048577 bytes; config files are limited to 1048576 bytes: is this"
                        + " the right file?",
                dir.resolve("haresources") + ":0: haresources is not a regular file (a device or pipe?)");
    }

    @Test
    void aResultWithErrorsCannotCarryAConfig() {
        ConfigLoadResult ok = ConfigLoader.load(ConfigDirBuilder.validTwoNode().writeTo(dir), Optional.empty());
        List<ConfigDiagnostic> errors = List.of(ConfigDiagnostic.error(dir, 0, "x"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ConfigLoadResult(ok.config(), errors))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
