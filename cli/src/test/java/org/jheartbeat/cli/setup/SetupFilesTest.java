package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.cli.CommandLines;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The answers → files kernel of hb setup: pure texts that the daemon's parsers and hb config check accept. */
class SetupFilesTest {
    static final String KEY = "0123456789abcdef0123456789abcdef01234567";

    static SetupAnswers answers(String node, String peer, String myAddr, String peerAddr) {
        return new SetupAnswers(node, peer, List.of(new SetupAnswers.UcastLink("eth1", myAddr, peerAddr)),
                List.of("/dev/ttyS0"), 19200, "node1 198.18.0.100/24/eth0 apache2", "/var/log/jheartbeat/ha-log", KEY);
    }

    @Test
    void theFourFilesAreTheSameWhicheverNodeAnswers() {
        Map<String, String> from1 = SetupFiles.render(answers("node1", "node2", "198.18.1.1", "198.18.1.2"));
        Map<String, String> from2 = SetupFiles.render(answers("node2", "node1", "198.18.1.2", "198.18.1.1"));
        assertThat(from1).isEqualTo(from2);
        assertThat(from1.keySet()).containsExactly("ha.cf", "authkeys", "haresources", "jheartbeat.yaml");
        assertThat(from1.get("ha.cf")).contains("udpport 694\nucast eth1 198.18.1.1\nucast eth1 198.18.1.2\n")
                .contains("baud 19200\nserial /dev/ttyS0\n").contains("node node1\nnode node2\ncrm no\n")
                .contains("logfile /var/log/jheartbeat/ha-log\n");
        assertThat(from1.get("authkeys")).isEqualTo("auth 1\n1 sha1 " + KEY + "\n");
        assertThat(from1.get("haresources")).endsWith("\nnode1 198.18.0.100/24/eth0 apache2\n");
    }

    @Test
    void theFilesParseWithTheDaemonsParsersAndPassHbConfigCheck(@TempDir Path dir) throws Exception {
        Map<String, String> files = SetupFiles.render(answers("node1", "node2", "198.18.1.1", "198.18.1.2"));
        assertThat(SetupFiles.parse(files, dir)).filteredOn(ConfigDiagnostic::isError).isEmpty();
        for (var f : files.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue());
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir.resolve("authkeys"), PosixFilePermissions.fromString("rw-------"));
        ConfigLoadResult loaded = ConfigLoader.load(dir, Optional.of(NodeName.of("node1")));
        assertThat(loaded.diagnostics()).filteredOn(ConfigDiagnostic::isError).isEmpty();
        assertThat(loaded.config()).isPresent();
        assertThat(loaded.config().get().nodes()).containsExactly(NodeName.of("node1"), NodeName.of("node2"));

        StringWriter out = new StringWriter();
        CommandLine cl = CommandLines.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        int code = cl.execute("config", "check", "--syntax-only", "--config-dir", dir.toString(), "--node-name", "node2");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("configuration OK");
    }

    @Test
    void aWrongGroupLineIsAFileLineErrorBeforeAnythingIsWritten(@TempDir Path dir) {
        SetupAnswers a = answers("node1", "node2", "198.18.1.1", "198.18.1.2");
        SetupAnswers bad = new SetupAnswers(a.node(), a.peer(), a.ucast(), a.serial(), a.baud(),
                "node3 198.18.0.100/24/eth0", a.logfile(), a.authKey());
        List<ConfigDiagnostic> d = SetupFiles.parse(SetupFiles.render(bad), dir);
        assertThat(d).filteredOn(ConfigDiagnostic::isError).extracting(ConfigDiagnostic::format)
                .anyMatch(s -> s.startsWith(dir.resolve("haresources") + ":2: ") && s.contains("node3"));
    }

    @Test
    void aNewKeyIsRandomHexAndAnExistingSha1KeyIsKept() {
        String k1 = SetupFiles.randomKey(new SecureRandom());
        String k2 = SetupFiles.randomKey(new SecureRandom());
        assertThat(k1).matches("[0-9a-f]{40}").isNotEqualTo(k2);
        assertThat(SetupFiles.existingKey("# c\nauth 2\n1 md5 abcdefabcdefabcdef\n2 sha1 " + KEY + "\n")).contains(KEY);
        assertThat(SetupFiles.existingKey("auth 1\n1 crc\n")).isEmpty();
        assertThat(SetupFiles.existingKey("auth 1\n1 sha1 short\n")).isEmpty();
        assertThat(SetupFiles.existingKey(SetupFiles.render(answers("node1", "node2", "198.18.1.1", "198.18.1.2"))
                .get("authkeys"))).contains(KEY);
    }
}
