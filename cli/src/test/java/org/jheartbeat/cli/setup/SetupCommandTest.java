package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.cli.CommandLines;
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
