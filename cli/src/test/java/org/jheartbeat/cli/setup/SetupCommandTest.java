package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.CommandLines;
import org.jheartbeat.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** hb setup without a terminal (as under a test runner or configuration management): options or exit 64. */
class SetupCommandTest {
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = CommandLines.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        int code = cl.execute(args);
        return new String[] {String.valueOf(code), out.toString()};
    }

    @Test
    void withoutATerminalAMissingAnswerIsExit64NamingItsOptionAndNothingIsWritten(@TempDir Path dir) throws Exception {
        String[] r = run("setup", "--config-dir", dir.toString(), "--node-name", "node1", "--peer-name", "node2");
        assertThat(r[0]).isEqualTo("64");
        assertThat(r[1].strip()).isEqualTo("hb: setup: no terminal to ask on; give --ucast IF:PEER_ADDRESS (or --serial"
                + " DEVICE), --group \"NODE ADDRESS/BITS/IF RESOURCE...\" (see hb setup --help)");
        try (var s = Files.list(dir)) {
            assertThat(s).isEmpty();
        }
    }

    @Test
    void theHelpNamesWhatSshReaches() {
        String[] r = run("setup", "--help");
        assertThat(r[0]).isEqualTo("0");
        assertThat(r[1].replaceAll("\\s+", " ")).contains("--peer=HOST The address ssh reaches the peer at (default: the"
                + " peer address of the first --ucast).").contains("--remote-hb=CMD").contains("--force")
                .contains("the group failed to start or does not run within --wait");
    }
    @Test
    void anSshThatHangsIsOneSetupLineAfterSshTimeoutAndNothingIsWritten(@TempDir Path tmp) throws Exception {
        // a tester's hanging --ssh: after a hard-coded 60 s, two lines on the terminal, "hb: WARN: ... timed out"
        // and the ssh message, neither with "setup:" nor saying what was left; run as hb runs, to see stderr whole
        Path hang = tmp.resolve("hanging-ssh");
        Files.writeString(hang, "#!/bin/sh\nexec sleep 120\n");
        Files.setPosixFilePermissions(hang, PosixFilePermissions.fromString("rwx------"));
        Path dir = Files.createDirectory(tmp.resolve("cfg"));
        Path log = tmp.resolve("hb.log");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "setup", "--config-dir", dir.toString(), "--node-name", "node1", "--peer-name",
                "node2", "--serial", "/dev/ttyJHB9", "--peer", "peerhost", "--group", "node1 x", "--ssh",
                hang.toString(), "--ssh-timeout", "1").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("a bound against a hang only").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(Files.readString(log)).isEqualTo("hb: setup: ssh to peerhost did not finish within 1 s; check that"
                + " peerhost answers (ssh peerhost true), or wait longer with --ssh-timeout S; nothing written on"
                + " either node\n");
        assertThat(p.exitValue()).isEqualTo(1);
        try (var s = Files.list(dir)) {
            assertThat(s).isEmpty();
        }
        String[] zero = run("setup", "--config-dir", dir.toString(), "--node-name", "node1", "--peer-name", "node2",
                "--serial", "/dev/ttyJHB9", "--peer", "peerhost", "--group", "node1 x", "--ssh-timeout", "0");
        assertThat(zero[0]).isEqualTo("64");
        assertThat(zero[1]).isEqualTo("hb: setup: --ssh-timeout must be 1..3600 s\n");
    }

    @Test
    void aGroupWithALineBreakOrControlCharacterIsRefusedBeforeSshIsTried(@TempDir Path dir) {
        // a tester's --group with a newline wrote two haresources lines, and the second was a group of its own
        String[] r = run("setup", "--config-dir", dir.toString(), "--node-name", "node1", "--peer-name", "node2",
                "--serial", "/dev/ttyJHB9", "--peer", "peerhost", "--group", "node1 x\nnode2 y", "--ssh",
                dir.resolve("no-ssh").toString());
        assertThat(r[0]).as(r[1]).isEqualTo("64");
        assertThat(r[1]).isEqualTo("hb: setup: --group holds a line break (\\n at character 8): the file would get two"
                + " lines; give one line of printable characters\n");
        String[] bell = run("setup", "--config-dir", dir.toString(), "--node-name", "node1", "--peer-name", "node2",
                "--serial", "/dev/ttyJHB9", "--peer", "peerhost", "--group", "node1 x\u0007", "--ssh",
                dir.resolve("no-ssh").toString());
        assertThat(bell[0]).as(bell[1]).isEqualTo("64");
        assertThat(bell[1]).isEqualTo("hb: setup: --group holds a control character (\\u0007 at character 8); give one"
                + " line of printable characters\n");
    }

    @Test
    void aWrongAnswerIsSaidBeforeSshIsTried(@TempDir Path dir) {
        // the peer's own name was refused only after ssh had answered: with ssh failing too, the user fixed ssh
        // first and was then told about the name
        String[] r = run("setup", "--config-dir", dir.toString(), "--node-name", "node1", "--peer-name", "node1",
                "--ucast", "eth0:192.0.2.2", "--group", "node1 192.0.2.100 x", "--ssh", dir.resolve("no-ssh").toString());
        assertThat(r[0]).as(r[1]).isEqualTo("64");
        assertThat(r[1].strip()).isEqualTo("hb: setup: --peer-name node1 is this node's own name; give the other"
                + " node's (its uname -n), or --node-name for this one");
    }
}
