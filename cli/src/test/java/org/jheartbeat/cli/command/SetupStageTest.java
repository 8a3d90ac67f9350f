package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.Main;
import org.jheartbeat.cli.setup.HostInventory;
import org.jheartbeat.core.config.NodeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The stages of hb setup ({@code DIR/.hb-setup} on both nodes) after a run that was stopped between staging and
 * the move into place. The "ssh" is a real shell script that runs the remote command on this machine, so the
 * peer is this machine (its uname -n) with another directory.
 */
class SetupStageTest {
    private static String thisMachine() throws Exception {
        return NodeName.of(new String(new ProcessBuilder("uname", "-n").start().getInputStream().readAllBytes())
                .strip()).toString();
    }

    private static Path localSsh(Path tmp, String body) throws Exception {
        Path ssh = tmp.resolve("local-ssh");
        Files.writeString(ssh, "#!/bin/sh\n# ssh HOST SCRIPT, run here\nshift\n" + body + "exec sh -c \"$1\"\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        return ssh;
    }

    @Test
    void theNextRunRemovesTheStagesAStoppedRunLeftEvenWhenItWritesNothing(@TempDir Path tmp) throws Exception {
        // SIGKILL (or a power cut) runs no hook: both stages stay, the peer's holding a copy of the key
        String peer = thisMachine();
        String me = peer.equals("node1") ? "node0" : "node1";
        Path mine = Files.createDirectories(tmp.resolve("mine/.hb-setup/resource.d"));
        mine = mine.getParent().getParent();
        Path theirs = Files.createDirectories(tmp.resolve("theirs/.hb-setup"));
        theirs = theirs.getParent();
        Files.writeString(theirs.resolve(".hb-setup/authkeys"), "auth 1\n1 sha1 stale-key-of-the-stopped-run\n");
        // a node holding other files: the run refuses and writes nothing, and still removes both stages
        Files.writeString(mine.resolve("haresources"), me + " other\n");
        SetupCommand cmd = new SetupCommand();
        cmd.inventory = new HostInventory(List.of(), List.of());
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(cmd);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        int code = cl.execute("--config-dir", mine.toString(), "--node-name", me, "--peer-name", peer,
                "--serial", "/dev/ttyJHB9", "--peer", "localhost", "--group", me + " x", "--logfile", "none",
                "--ssh", localSsh(tmp, "").toString(), "--remote-dir", theirs.toString(), "--state-dir",
                tmp.resolve("state").toString(), "--start-command", "exit 100");
        assertThat(code).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("Removed " + me + ":" + mine + "/.hb-setup, left by an interrupted hb"
                + " setup.\n").contains("Removed " + peer + " localhost:" + theirs + "/.hb-setup, left by an"
                + " interrupted hb setup.\n").contains(me + ":haresources differ from these answers");
        assertThat(mine.resolve(".hb-setup")).doesNotExist();
        assertThat(theirs.resolve(".hb-setup")).doesNotExist();
        assertThat(Files.readString(mine.resolve("haresources"))).isEqualTo(me + " other\n");
    }

    @Test
    void aRunStoppedWithSigtermBetweenStagingAndTheMoveRemovesBothStages(@TempDir Path tmp) throws Exception {
        String peer = thisMachine();
        String me = peer.equals("node1") ? "node0" : "node1";
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Path ready = tmp.resolve("ssh-blocked");
        // the copy of haresources to the peer blocks (its pid in the file 'ready'), as a slow link would: this
        // node's stage is complete and the peer's holds ha.cf and authkeys
        Path ssh = localSsh(tmp, "case \"$1\" in *haresources*push-tmp*) echo $$ > " + ready + ".tmp; mv "
                + ready + ".tmp " + ready + "; exec sleep 600;; esac\n");
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "setup", "--config-dir", mine.toString(), "--node-name", me, "--peer-name", peer,
                "--serial", "/dev/ttyJHB9", "--peer", "localhost", "--group", me + " x", "--logfile", "none",
                "--ssh", ssh.toString(), "--remote-dir", theirs.toString(), "--state-dir",
                tmp.resolve("state").toString(), "--start-command", "exit 100"));
        Path log = tmp.resolve("setup.log");
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long blocked = -1;
        try {
            for (int i = 0; i < 1200 && blocked < 0 && p.isAlive(); i++) { // a bound against a hang only
                if (Files.exists(ready)) {
                    blocked = Long.parseLong(Files.readString(ready).strip());
                } else {
                    Thread.sleep(50);
                }
            }
            assertThat(blocked).as(Files.readString(log)).isPositive();
            assertThat(mine.resolve(".hb-setup/haresources")).exists();
            assertThat(theirs.resolve(".hb-setup/authkeys")).exists();
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
            if (blocked > 0) {
                ProcessHandle.of(blocked).ifPresent(ProcessHandle::destroy);
            }
        }
        String output = Files.readString(log);
        assertThat(mine.resolve(".hb-setup")).as(output).doesNotExist();
        assertThat(theirs.resolve(".hb-setup")).as(output).doesNotExist();
        assertThat(output).contains("hb: setup: stopped before the files were moved into place; nothing moved into"
                + " place, the stages removed on " + me + " and " + peer + "\n");
        try (var a = Files.list(mine); var b = Files.list(theirs)) {
            assertThat(a).isEmpty();
            assertThat(b).isEmpty();
        }
    }
}
