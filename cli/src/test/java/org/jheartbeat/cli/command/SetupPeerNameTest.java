package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.jheartbeat.cli.setup.HostInventory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * hb setup against a peer that is not the machine --peer-name names. The "ssh" is a real shell script that runs
 * the remote command on this machine (so the peer's uname -n is this machine's).
 */
class SetupPeerNameTest {
    @Test
    void aPeerThatCallsItselfOtherwiseIsRefusedBeforeAnythingIsWritten(@TempDir Path tmp) throws Exception {
        String here = new String(new ProcessBuilder("uname", "-n").start().getInputStream().readAllBytes()).strip();
        assumeFalse(here.equalsIgnoreCase("nodetwo"), "this machine is called nodetwo");
        Path ssh = tmp.resolve("local-ssh");
        Files.writeString(ssh, "#!/bin/sh\n# ssh HOST SCRIPT, run here\nshift\nexec sh -c \"$1\"\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        Path mine = Files.createDirectory(tmp.resolve("node1"));
        Path theirs = Files.createDirectory(tmp.resolve("peer"));
        SetupCommand cmd = new SetupCommand();
        cmd.inventory = new HostInventory(List.of(), List.of());
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        cl.setExecutionExceptionHandler((e, c, p) -> {
            c.getErr().println(e.getMessage());
            return e instanceof org.jheartbeat.cli.error.UserException u ? u.exitCode() : 1;
        });
        // lab: a typo in --peer-name passed the check on the peer (run with that name), the files were moved into
        // place on both nodes and the peer's daemon, running as its uname -n, refused to start
        int code = cl.execute("--config-dir", mine.toString(), "--node-name", "node1", "--peer-name", "nodetwo",
                "--serial", "/dev/ttyS0", "--peer", "localhost", "--group", "node1 x", "--ssh", ssh.toString(),
                "--remote-dir", theirs.toString(), "--state-dir", tmp.resolve("state").toString());
        assertThat(code).as(out.toString()).isEqualTo(64);
        assertThat(out.toString().strip()).isEqualTo("setup: localhost calls itself " + here + " (uname -n), not"
                + " nodetwo; give --peer-name " + here + " (its daemon runs under that name), or --peer with the"
                + " address of nodetwo; nothing written on either node");
        try (var a = Files.list(mine); var b = Files.list(theirs)) {
            assertThat(a).isEmpty();
            assertThat(b).isEmpty();
        }
    }
}
