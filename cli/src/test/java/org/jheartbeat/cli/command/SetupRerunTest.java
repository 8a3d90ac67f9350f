package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.setup.HostInventory;
import org.jheartbeat.cli.setup.SetupAnswers;
import org.jheartbeat.cli.setup.SetupFiles;
import org.jheartbeat.core.config.NodeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * hb setup re-run with the same answers on two directories that already hold its files, with no daemon running.
 * The "ssh" is a real shell script that runs the remote command on this machine, so the peer is this machine
 * (its uname -n).
 */
class SetupRerunTest {
    @Test
    void theSameAnswersWithNoDaemonRunningStartTheServiceInsteadOfNothingToChange(@TempDir Path tmp) throws Exception {
        String peer = NodeName.of(new String(new ProcessBuilder("uname", "-n").start().getInputStream().readAllBytes())
                .strip()).toString();
        String me = peer.equals("node1") ? "node0" : "node1";
        String key = "0123456789abcdef0123456789abcdef01234567";
        Map<String, String> files = SetupFiles.render(new SetupAnswers(me, peer, List.of(), List.of("/dev/ttyS0"), 19200,
                me + " x", "", key));
        Path ssh = tmp.resolve("local-ssh");
        Files.writeString(ssh, "#!/bin/sh\n# ssh HOST SCRIPT, run here\nshift\nexec sh -c \"$1\"\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        for (Path d : List.of(mine, theirs)) {
            for (var f : files.entrySet()) {
                Files.writeString(d.resolve(f.getKey()), f.getValue());
                Files.setPosixFilePermissions(d.resolve(f.getKey()), PosixFilePermissions.fromString(
                        f.getKey().equals("authkeys") ? "rw-------" : "rw-r--r--"));
            }
        }
        SetupCommand cmd = new SetupCommand();
        cmd.inventory = new HostInventory(List.of(), List.of());
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        // lab: after a run stopped once the files were in place, the re-run said "Nothing to change" and exit 0
        // with no daemon running
        int code = cl.execute("--config-dir", mine.toString(), "--node-name", me, "--peer-name", peer,
                "--serial", "/dev/ttyS0", "--peer", "localhost", "--group", me + " x", "--logfile", "none",
                "--ssh", ssh.toString(), "--remote-dir", theirs.toString(), "--state-dir",
                tmp.resolve("state").toString(), "--start-command", "exit 100");
        assertThat(code).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Nothing to write: " + me + ":" + mine + " and " + peer + " localhost:"
                + theirs + " already hold this configuration, but " + me + "'s daemon is not running; starting the"
                + " service on both.").contains(me + ": no jheartbeat service installed; start the daemon there")
                .doesNotContain("Nothing to change");
    }
}
