package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb migrate check} on real Heartbeat-era directories, through picocli's execute(): the Debian heartbeat
 * package's examples as a pair runs them (test resources {@code migrate/debian-pair}), one directory per severity,
 * and broken input.
 */
class MigrateCheckCommandTest {
    @TempDir
    Path tmp;

    /** Copies a fixture directory into the temporary one, authkeys 0600 as Heartbeat requires. */
    private Path fixture(String name) throws IOException, URISyntaxException {
        Path src = Path.of(getClass().getResource("/migrate/" + name).toURI());
        Path dst = tmp.resolve(name);
        try (Stream<Path> all = Files.walk(src)) {
            for (Path p : all.toList()) {
                Path to = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                    Files.setPosixFilePermissions(to, PosixFilePermissions.fromString(
                            p.getFileName().toString().equals("authkeys") ? "rw-------"
                                    : Files.isExecutable(p) ? "rwxr-xr-x" : "rw-r--r--"));
                }
            }
        }
        return dst;
    }

    private static HbRun check(Path dir, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("migrate", "check", "--config-dir", dir.toString(),
                "--init-dir", dir.resolve("init.d").toString()));
        args.addAll(List.of(more));
        return HbRun.hb(args.toArray(String[]::new));
    }

    /** Each finding line as {@code FILE:LINE: SEVERITY}, the file relative to {@code dir}. */
    private static List<String> heads(HbRun r, Path dir) {
        return r.out().lines().filter(l -> l.startsWith(dir.toString() + "/"))
                .map(l -> l.substring(dir.toString().length() + 1))
                .map(l -> l.replaceFirst("^([^:]+:\\d+: (info|changes behaviour|unsafe|refused)):.*$", "$1"))
                .toList();
    }

    private static Path write(Path dir, String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
        return f;
    }

    @Test
    void debianExamplesAsAPairRunsThemGiveExactlyTheseFindings() throws Exception {
        Path d = fixture("debian-pair");
        HbRun r = check(d);
        assertThat(heads(r, d)).containsExactly(
                "ha.cf:0: unsafe",                 // no stonith / stonith_host
                "ha.cf:9: unsafe",                 // bcast eth0 is the only link
                "ha.cf:9: refused",                // ... authenticated with crc
                "ha.cf:13: changes behaviour",     // respawn ipfail: a built-in rule
                "ha.cf:14: info",                  // apiauth
                "ha.cf:15: info",                  // hopfudge
                "ha.cf:17: info",                  // hbgenmethod
                "ha.cf:18: info",                  // realtime
                "ha.cf:19: info",                  // debug
                "ha.cf:20: info",                  // msgfmt
                "ha.cf:21: info",                  // conn_logd_time
                "ha.cf:22: info",                  // compression
                "ha.cf:23: info",                  // compression_threshold
                "haresources:2: changes behaviour", // IPaddr: built-in
                "haresources:2: unsafe",           // httpd has no status case
                "haresources:3: changes behaviour", // IPaddr
                "haresources:3: changes behaviour", // Filesystem: built-in (no resource.d/Filesystem)
                "haresources:3: info",             // MailTo: resource.d/MailTo still runs
                "conf/ldirectord.cf:7: refused");  // connecttimeout
        assertThat(r.out()).contains("ha.cf:14: info: apiauth is not used by jheartbeat")
                .contains("ha.cf:19: info: directive 'debug' has no effect in jheartbeat; line ignored")
                .contains("crc").contains("httpd has no status case").contains("negotiatetimeout")
                .contains("19 finding(s), 5 unsafe or refused; read " + d.resolve("conf/ldirectord.cf"));
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isEqualTo(1);
    }

    @Test
    void theRepositorysOwnExamplesOnlyLackFencing() throws Exception {
        Path d = tmp.resolve("repo");
        Files.createDirectories(d.resolve("init.d"));
        Path root = Path.of("..").toAbsolutePath().normalize();
        Files.copy(root.resolve("ha.cf.example"), d.resolve("ha.cf"));
        Files.copy(root.resolve("haresources.example"), d.resolve("haresources"));
        Files.setPosixFilePermissions(write(d, "authkeys", "auth 1\n1 sha1 4f2c8e1a9b7d3c5e6f80a1b2c3d4e5f6\n"),
                PosixFilePermissions.fromString("rw-------"));
        HbRun r = check(d);
        assertThat(heads(r, d)).first().isEqualTo("ha.cf:0: unsafe");
        assertThat(heads(r, d)).filteredOn(h -> h.startsWith("ha.cf")).hasSize(1);
        assertThat(heads(r, d)).filteredOn(h -> h.startsWith("haresources")).isNotEmpty()
                .allMatch(h -> h.endsWith(": changes behaviour")); // the IP addresses, by the built-in agent
        assertThat(r.code()).isEqualTo(1);
    }

    @Test
    void aCarefulPairHasNothingUnsafeAndExitsZero() throws Exception {
        Path d = fixture("safe-pair");
        HbRun r = check(d);
        assertThat(heads(r, d)).containsExactly("ha.cf:16: changes behaviour", "ha.cf:17: info",
                "haresources:1: changes behaviour");
        assertThat(r.out()).contains("use_logd").contains("no ldirectord.cf");
        assertThat(r.code()).isEqualTo(0);
    }

    @Test
    void probeRunsStatusAndJudgesWhatItPrints() throws Exception {
        Path d = fixture("safe-pair");
        // has a status case, but it prints neither running nor stopped
        Path postfix = write(d, "init.d/postfix", "#!/bin/sh\ncase \"$1\" in\n  status) echo ok-ish; exit 0 ;;\nesac\n");
        Files.setPosixFilePermissions(postfix, PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(check(d).code()).isEqualTo(0); // a status case is there: the text check is satisfied
        HbRun r = check(d, "--probe");
        assertThat(heads(r, d)).contains("haresources:1: unsafe");
        assertThat(r.out()).contains("status' exited 0 and printed [ok-ish], neither 'running' nor 'stopped'");
        assertThat(r.code()).isEqualTo(1);
    }

    /** Each ha.cf directive a Heartbeat pair may have that jheartbeat ignores, maps or refuses, appended at line 18. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        "crm respawn|refused", "pacemaker on|refused", "respawn root /usr/sbin/mydaemon|changes behaviour",
        "failfast hacluster /usr/lib/heartbeat/ccm|changes behaviour", "apiauth mgmtd uid=root gid=admins|info",
        "conn_logd_time 60|info", "compression bz2|info", "traditional_compression yes|info", "realtime on|info",
        "uuidfrom nodename|info", "autojoin none|info", "debug 1|info", "msgfmt netstring|info", "rtprio 60|info",
        "ucast6 eth0 fe80::2|changes behaviour", "ping6 fe80::1|changes behaviour", "env FOO=bar|info",
        "node just|refused"})
    void eachDirectiveHasItsSeverity(String line, String severity) throws Exception {
        Path d = fixture("safe-pair");
        Files.writeString(d.resolve("ha.cf"), Files.readString(d.resolve("ha.cf")) + line + "\n");
        HbRun r = check(d);
        assertThat(heads(r, d)).contains("ha.cf:18: " + severity);
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isEqualTo(severity.equals("refused") ? 1 : 0);
    }

    @Test
    void aCrmPairAndAThirdNodeAreRefusedNotParseErrors() throws Exception {
        Path d = fixture("safe-pair");
        Files.writeString(d.resolve("ha.cf"), Files.readString(d.resolve("ha.cf"))
                .replace("crm no", "crm yes").replace("node\tkathy", "node\tkathy\nnode\tjust"));
        HbRun r = check(d);
        assertThat(heads(r, d)).contains("ha.cf:13: refused", "ha.cf:16: refused");
        assertThat(r.out()).contains("R1 (haresources)").contains("exactly two");
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).isEqualTo(1);
    }

    @Test
    void noAutoFailbackLineIsHeartbeatsLegacyAndUnsafe() throws Exception {
        Path d = fixture("safe-pair");
        Files.writeString(d.resolve("ha.cf"), Files.readString(d.resolve("ha.cf")).replace("auto_failback off\n", ""));
        HbRun r = check(d);
        assertThat(r.out()).contains("ha.cf:0: unsafe: auto_failback legacy (Heartbeat's default");
        assertThat(r.code()).isEqualTo(1);
    }

    @Test
    void jsonCarriesEveryFinding() throws Exception {
        Path d = fixture("safe-pair");
        HbRun r = check(d, "--json");
        assertThat(r.out().strip()).startsWith("{\"config_dir\":\"" + d + "\"").endsWith("],\"fails\":false}");
        assertThat(r.out()).contains("\"ldirectord\":null")
                .contains("{\"file\":\"" + d.resolve("ha.cf") + "\",\"line\":16,\"severity\":\"changes behaviour\",")
                .contains("\"line\":17,\"severity\":\"info\"").contains("\"todo\":");
        assertThat(r.out().split("\"severity\"", -1)).hasSize(4);
        assertThat(r.code()).isEqualTo(0);
    }

    @Test
    void aFileThatDoesNotParseIsOneFileLineMessageAndExit2() throws Exception {
        Path d = fixture("safe-pair");
        Files.writeString(d.resolve("ha.cf"), Files.readString(d.resolve("ha.cf")).replace("keepalive 1", "keepalvie 1"));
        HbRun r = check(d);
        assertThat(r.err()).startsWith(d.resolve("ha.cf") + ":4: ").contains("keepalvie");
        assertThat(r.err().lines().filter(l -> l.startsWith(d.toString()))).hasSize(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.code()).isEqualTo(2);
    }

    /** Debian's example files as the heartbeat package ships them: every node and link commented out. */
    @Test
    void debiansShippedExamplesAsTheyAreDoNotParse() throws Exception {
        Path doc = Path.of("/usr/share/doc/heartbeat");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(doc.resolve("ha.cf.gz")),
                "Debian's heartbeat package is not installed here");
        Path d = tmp.resolve("shipped");
        Files.createDirectories(d.resolve("init.d"));
        for (String name : List.of("ha.cf", "haresources")) {
            try (java.io.InputStream in = new java.util.zip.GZIPInputStream(
                    Files.newInputStream(doc.resolve(name + ".gz")))) {
                Files.copy(in, d.resolve(name));
            }
        }
        Files.copy(doc.resolve("authkeys"), d.resolve("authkeys"));
        Files.setPosixFilePermissions(d.resolve("authkeys"), PosixFilePermissions.fromString("rw-------"));
        HbRun r = check(d);
        assertThat(r.err()).contains(d.resolve("ha.cf") + ":0: ").contains("node");
        assertThat(r.out()).isEmpty();
        assertThat(r.code()).isEqualTo(2);
    }

    @Test
    void aMissingDirectoryIsExit2AndAnUnknownOptionIs64() {
        HbRun r = check(tmp.resolve("nosuch"));
        assertThat(r.err()).contains("nosuch:0: config directory does not exist");
        assertThat(r.code()).isEqualTo(2);
        assertThat(HbRun.hb("migrate", "check", "--bogus").code()).isEqualTo(64);
        assertThat(HbRun.hb("migrate").code()).isEqualTo(64);
    }

    @Test
    void helpSaysTheExitCodes() {
        HbRun r = HbRun.hb("migrate", "check", "--help");
        assertThat(r.out()).contains("Exit codes:").contains("1    at least one finding is unsafe or refused").contains("--probe");
        assertThat(r.code()).isEqualTo(0);
    }
}
