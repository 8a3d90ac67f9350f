package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.runtime.ConfigPush.Change;
import org.jheartbeat.cli.runtime.ConfigPush.FileCopy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan of {@code hb config push} and its two remote scripts. The scripts are run here with the
 * real {@code /bin/sh} on a temporary directory, exactly as ssh runs them on the peer.
 */
class ConfigPushTest {
    @TempDir
    Path dir;

    private static FileCopy file(String name, String text, int mode) {
        return new FileCopy(name, text.getBytes(StandardCharsets.UTF_8), mode);
    }

    @Test
    void planSaysNewUnchangedOrChangedWithADiffFromThePeersCopy() {
        List<FileCopy> local = List.of(file("ha.cf", "keepalive 1\n", 0644), file("authkeys", "auth 1\n1 crc\n", 0600),
                file("haresources", "node1 a\nnode2 b\n", 0644));
        Map<String, FileCopy> remote = Map.of("ha.cf", file("ha.cf", "keepalive 1\n", 0644),
                "haresources", file("haresources", "node1 a\n", 0644));
        List<ConfigPush.Entry> plan = ConfigPush.plan(local, remote);
        assertThat(plan).extracting(ConfigPush.Entry::change).containsExactly(Change.UNCHANGED, Change.NEW, Change.CHANGED);
        assertThat(ConfigPush.changes(plan)).extracting(ConfigPush.Entry::name).containsExactly("authkeys", "haresources");
        assertThat(ConfigPush.render(plan, "/etc/ha.d", "peer:/etc/ha.d")).containsExactly(
                "ha.cf        unchanged",
                "authkeys     new file on the peer (13 bytes, mode 600)",
                "haresources  will be overwritten:",
                "--- peer:/etc/ha.d/haresources (now)",
                "+++ /etc/ha.d/haresources (pushed)",
                "@@ -1,1 +1,2 @@",
                " node1 a",
                "+node2 b");
    }

    @Test
    void aModeChangeOrAMissingFinalNewlineIsAChangeToo() {
        List<ConfigPush.Entry> plan = ConfigPush.plan(
                List.of(file("authkeys", "auth 1\n1 crc\n", 0600), file("haresources", "node1 a\n", 0644)),
                Map.of("authkeys", file("authkeys", "auth 1\n1 crc\n", 0644), "haresources", file("haresources", "node1 a", 0644)));
        assertThat(plan).extracting(ConfigPush.Entry::change).containsExactly(Change.CHANGED, Change.CHANGED);
        assertThat(ConfigPush.render(plan, "/l", "p:/r")).containsExactly(
                "authkeys     will be overwritten: same text, mode 644 -> 600",
                "haresources  will be overwritten: differs only in line ends or a final newline");
    }

    @Test
    void authkeysDiffsNeverShowAKey() {
        List<ConfigPush.Entry> plan = ConfigPush.plan(List.of(file("authkeys", "auth 1\n1 sha1 newsecret\n", 0600)),
                Map.of("authkeys", file("authkeys", "auth 1\n1 sha1 oldsecret\n#2 md5 x y\n", 0600)));
        // the 8 hex digits are those of sha256sum(1) of the key
        assertThat(plan.get(0).diff()).containsExactly("@@ -1,3 +1,2 @@", " auth 1",
                "-1 sha1 [key hidden, sha256 " + sha8("oldsecret") + "]", "-#2 md5 x y",
                "+1 sha1 [key hidden, sha256 " + sha8("newsecret") + "]");
        assertThat(String.join("\n", plan.get(0).diff())).doesNotContain("secret]").doesNotContain("oldsecret");
    }

    private static String sha8(String s) {
        try {
            Process p = new ProcessBuilder("sha256sum").start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(s.getBytes(StandardCharsets.UTF_8));
            }
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).substring(0, 8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void fetchOutputRoundTripsBinaryContentAndMissingFiles() throws Exception {
        Files.writeString(dir.resolve("ha.cf"), "keepalive 2\n");
        Files.write(dir.resolve("authkeys"), new byte[] {'a', '\n', 0, (byte) 0xff, '\n', '\n'});
        Files.setPosixFilePermissions(dir.resolve("authkeys"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(dir.resolve("haresources"), "no final newline");
        Sh r = sh(ConfigPush.fetchScript(dir.toString(), ConfigPush.FILES), new byte[0]);
        assertThat(r.code).as(r.err).isZero();
        Map<String, FileCopy> got = ConfigPush.parseFetch(r.out);
        assertThat(got).containsOnlyKeys("ha.cf", "authkeys", "haresources");
        assertThat(got.get("ha.cf").content()).isEqualTo("keepalive 2\n".getBytes(StandardCharsets.UTF_8));
        assertThat(got.get("authkeys").content()).isEqualTo(new byte[] {'a', '\n', 0, (byte) 0xff, '\n', '\n'});
        assertThat(got.get("authkeys").mode()).isEqualTo(0600);
        assertThat(got.get("haresources").content()).isEqualTo("no final newline".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void fetchOfAMissingDirectoryExitsThreeAndIsDescribed() throws Exception {
        String missing = dir.resolve("no such dir").toString();
        Sh r = sh(ConfigPush.fetchScript(missing, ConfigPush.FILES), new byte[0]);
        assertThat(r.code).isEqualTo(ConfigPush.NO_REMOTE_DIR);
        SshTransport t = new SshTransport(List.of("ssh"), "peer", 5);
        assertThat(t.describeFailure(new SshTransport.Reply(r.code, r.out, r.err), missing))
                .isEqualTo("directory " + missing + " does not exist on peer; create it there or pass --remote-dir DIR");
    }

    @Test
    void parseFetchRejectsATruncatedAnswer() {
        byte[] cut = "jhb-push FILE ha.cf 20 644\nkeepalive".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ConfigPush.parseFetch(cut)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("20 bytes announced");
    }

    @Test
    void writeReplacesAtomicallyKeepsABakAndSetsTheMode() throws Exception {
        Path f = dir.resolve("authkeys");
        Files.writeString(f, "old\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        byte[] content = "auth 1\n1 sha1 secret\n".getBytes(StandardCharsets.UTF_8);
        Sh r = sh(ConfigPush.writeScript(dir.toString(), "authkeys", content.length, 0600), content);
        assertThat(r.code).as(r.err).isZero();
        assertThat(Files.readAllBytes(f)).isEqualTo(content);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        assertThat(Files.readString(dir.resolve("authkeys.bak"))).isEqualTo("old\n");
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("authkeys", "authkeys.bak");
        }
    }

    @Test
    void aShortTransferIsNotWritten() throws Exception {
        Path f = dir.resolve("haresources");
        Files.writeString(f, "node1 a\n");
        Sh r = sh(ConfigPush.writeScript(dir.toString(), "haresources", 100, 0644), "node2 b\n".getBytes(StandardCharsets.UTF_8));
        assertThat(r.code).isEqualTo(6);
        assertThat(r.err).contains("received 8 of 100 bytes of haresources; not written");
        assertThat(Files.readString(f)).isEqualTo("node1 a\n");
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("haresources");
        }
    }

    @Test
    void aSymlinkedFileHasItsTargetReplacedAndAQuoteInTheDirectoryIsHarmless() throws Exception {
        Path odd = Files.createDirectories(dir.resolve("it's here"));
        Path real = Files.writeString(odd.resolve("haresources.real"), "node1 a\n");
        Files.createSymbolicLink(odd.resolve("haresources"), real.getFileName());
        byte[] content = "node2 b\n".getBytes(StandardCharsets.UTF_8);
        Sh r = sh(ConfigPush.writeScript(odd.toString(), "haresources", content.length, 0644), content);
        assertThat(r.code).as(r.err).isZero();
        assertThat(Files.isSymbolicLink(odd.resolve("haresources"))).isTrue();
        assertThat(Files.readString(real)).isEqualTo("node2 b\n");
        assertThat(Files.readString(odd.resolve("haresources.real.bak"))).isEqualTo("node1 a\n");
    }

    @Test
    void sshFailuresAreOneLineEach() {
        SshTransport t = new SshTransport(List.of("ssh"), "198.18.1.99", 5);
        assertThat(t.describeFailure(new SshTransport.Reply(255, new byte[0],
                "ssh: connect to host 198.18.1.99 port 22: No route to host\r\n"), "/etc/ha.d"))
                .isEqualTo("cannot reach 198.18.1.99 over ssh (ssh: connect to host 198.18.1.99 port 22: No route to host);"
                        + " check the address, or pass --to HOST");
        assertThat(t.describeFailure(new SshTransport.Reply(255, new byte[0],
                "root@198.18.1.99: Permission denied (publickey).\n"), "/etc/ha.d"))
                .startsWith("ssh to 198.18.1.99: permission denied (root@198.18.1.99: Permission denied (publickey).)");
        assertThat(t.describeFailure(new SshTransport.Reply(4, new byte[0], "jhb-push: cannot read /x/authkeys\n"), "/x"))
                .isEqualTo("on 198.18.1.99: cannot read /x/authkeys (exit 4)");
        assertThat(SshTransport.split("  ssh -i k   -o BatchMode=yes ")).containsExactly("ssh", "-i", "k", "-o", "BatchMode=yes");
    }

    private record Sh(int code, byte[] out, String err) {
    }

    /** Runs a script as ssh would on the peer: {@code sh -c SCRIPT} with {@code stdin}. */
    private static Sh sh(String script, byte[] stdin) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/bin/sh", "-c", script).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(stdin);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        p.getInputStream().transferTo(out);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return new Sh(p.exitValue(), out.toByteArray(), err);
    }
}
