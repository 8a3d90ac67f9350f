package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb report} through {@code execute()} on real files: this node's part (events and log lines of the
 * window only, configuration with every secret masked) in a real {@code .tar.gz} read back with tar; a peer
 * that cannot be reached (a real ssh to a closed port) said in the summary; user errors one line, exit 2.
 */
class ReportCommandTest {
    static final long T = 1_796_526_724_518L; // 2026-12-06T03:12:04.518Z
    static final String KEY = "c0rrect-h0rse-battery-staple-4f9a";
    static final String LVS_PASSWD = "My5ql-Ch3ck-Pw";
    static final String UPS_PASSWORD = "Upsd-P4ss-7781";
    static final String REPL_PASSWORD = "Repl-Pw-1";

    @TempDir
    Path dir;

    Path config;
    Path state;

    void files() throws IOException {
        config = Files.createDirectories(dir.resolve("ha.d"));
        state = Files.createDirectories(dir.resolve("state"));
        Path log = dir.resolve("ha-log");
        Files.writeString(config.resolve("ha.cf"), "logfile " + log + "\nkeepalive 500ms\ndeadtime 3\nucast eth1 198.18.1.2\n"
                + "stonith_host node1 nut 10.0.0.50 rackups monuser " + UPS_PASSWORD + "\nnode node1\nnode node2\n");
        Files.writeString(config.resolve("authkeys"), "auth 1\n1 sha1 " + KEY + "\n");
        Files.writeString(config.resolve("haresources"), "node1 198.18.0.100/24/eth0 ocf:heartbeat:mysql::"
                + "replication_passwd=" + REPL_PASSWORD + "\n");
        Files.writeString(config.resolve("ldirectord.cf"), "virtual=198.18.0.200:3306\n\treal=198.18.0.3:3306 gate\n"
                + "\tservice=mysql\n\tlogin=\"check\"\n\tpasswd=\"" + LVS_PASSWD + "\"\n");
        Files.write(state.resolve("events.jsonl"), List.of(
                EventCodec.toJson(new ClusterEvent(1, T - 7_200_000, "node1", EventKind.DAEMON_START, "node1", "", "", -1)),
                EventCodec.toJson(new ClusterEvent(2, T, "node1", EventKind.NODE_DEAD, "node2", "no beat for 3000 ms", "",
                        3000)),
                "{torn line",
                EventCodec.toJson(new ClusterEvent(3, T + 900, "node1", EventKind.GROUP_STARTED, "198.18.0.100/24/eth0"
                        + " ocf:heartbeat:mysql::replication_passwd=" + REPL_PASSWORD, "", "", 850))));
        Files.write(log, List.of("2026/12/06_01:00:00.000 node1 hb[7]: info: long before",
                "2026/12/06_03:12:04.518 node1 hb[7]: WARN: node node2: is dead",
                "2026/12/06_03:12:05.000 node1 hb[7]: info: starting ocf:heartbeat:mysql::replication_passwd="
                        + REPL_PASSWORD,
                "2026/12/06_05:00:00.000 node1 hb[7]: info: long after"));
    }

    Path extract(Path archive) throws Exception {
        Path out = Files.createDirectories(dir.resolve("x"));
        Process p = new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", out.toString()).inheritIO().start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue(); // a hang bound
        assertThat(p.exitValue()).isZero();
        return out;
    }

    static String everything(Path root) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path f : s.filter(Files::isRegularFile).toList()) {
                all.append(Files.readString(f));
            }
        }
        return all.toString();
    }

    @Test
    void thisNodesPartHoldsTheWindowAndNoSecret() throws Exception {
        files();
        Path archive = dir.resolve("r.tar.gz");
        HbRun r = HbRun.hb("report", "--no-peer", "--from", "@" + (T - 60_000), "--to", "@" + (T + 60_000), "--dest",
                archive.toString(), "--config-dir", config.toString(), "--state-dir", state.toString(), "--node-name",
                "node1");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("Wrote " + archive + " (").contains("): node1; 2 events; summary in r/summary.txt");
        Path x = extract(archive).resolve("r");
        assertThat(Files.readAllLines(x.resolve("node1/events.jsonl"))).hasSize(2).allMatch(l -> l.startsWith("{\"seq\":"));
        assertThat(Files.readAllLines(x.resolve("node1/logs/ha-log"))).hasSize(2).first().asString().contains("is dead");
        assertThat(Files.readString(x.resolve("node1/config/authkeys"))).isEqualTo("auth 1\n1 sha1 <masked>\n");
        assertThat(Files.readString(x.resolve("node1/config/ha.cf")))
                .contains("stonith_host node1 nut 10.0.0.50 rackups monuser <masked>\n");
        assertThat(Files.readString(x.resolve("node1/config/ldirectord.cf"))).contains("\tpasswd=<masked>\n");
        assertThat(Files.readString(x.resolve("node1/versions.txt"))).contains("hb: jheartbeat ").contains("java: ")
                .contains("kernel: Linux ");
        assertThat(x.resolve("node1/packages.txt")).exists();
        assertThat(Files.readString(x.resolve("node1/status.txt"))).contains("(hb status --state-dir " + state);
        assertThat(Files.readString(x.resolve("summary.txt"))).contains("  node1: collected on this node\n")
                .contains("failover: node1 declared node2 dead (silent for 3000 ms)")
                .contains("services back on node1 after 900 ms (3900 ms after node2's last beat)")
                .contains("Timeline (both nodes, 2 events)");
        String all = everything(x);
        for (String secret : List.of(KEY, LVS_PASSWD, UPS_PASSWORD, REPL_PASSWORD)) {
            assertThat(all).as("the archive's files").doesNotContain(secret);
        }
    }

    @Test
    void aPeerThatCannotBeReachedIsSaidAndThisNodeIsCollected() throws Exception {
        files();
        Path archive = dir.resolve("r.tar.gz");
        // a real ssh to a port nothing listens on: refused at once
        HbRun r = HbRun.hb("report", "--from", "@" + (T - 60_000), "--to", "@" + (T + 60_000), "--dest",
                archive.toString(), "--config-dir", config.toString(), "--state-dir", state.toString(), "--node-name",
                "node1", "--peer", "127.0.0.1", "--ssh", "ssh -o BatchMode=yes -o ConnectTimeout=5 -p 9");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).startsWith("hb: report: the peer (over ssh 127.0.0.1) was not collected: cannot reach"
                + " 127.0.0.1 over ssh (").contains("Connection refused")
                .endsWith("; check the address, or pass --peer HOST; the archive has node1's part only\n");
        Path x = extract(archive).resolve("r");
        assertThat(Files.readString(x.resolve("summary.txt"))).contains("  peer: NOT COLLECTED (over ssh 127.0.0.1):"
                + " cannot reach 127.0.0.1 over ssh (");
        assertThat(x.resolve("node1/events.jsonl")).exists();
    }

    @Test
    void userErrorsAreOneLineAndExit2() throws Exception {
        files();
        HbRun bad = HbRun.hb("report", "--no-peer", "--from", "yesterday", "--config-dir", config.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(bad.err().strip()).isEqualTo("hb: report: 'yesterday' is not a time (not a date and time); use"
                + " ISO-8601 (2026-12-06T03:12:00Z, or 2026-12-06 03:12 in local time), a time ago (2h, 30m, 1d2h, 1w) or"
                + " @MS (milliseconds since the epoch)");
        HbRun order = HbRun.hb("report", "--no-peer", "--from", "1h", "--to", "2h");
        assertThat(order.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(order.err().strip().lines()).hasSize(1);
        assertThat(order.err()).contains("is after --to 2h");
        Files.writeString(dir.resolve("old.tar.gz"), "x");
        HbRun exists = HbRun.hb("report", "--no-peer", "--dest", dir.resolve("old.tar.gz").toString(), "--config-dir",
                config.toString());
        assertThat(exists.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(exists.err().strip()).isEqualTo("hb: report: --dest " + dir.resolve("old.tar.gz")
                + " exists; remove it or give another name");
        Files.writeString(config.resolve("ha.cf"), "node node1\n");
        HbRun noPeer = HbRun.hb("report", "--dest", dir.resolve("n.tar.gz").toString(), "--config-dir",
                config.toString(), "--node-name", "node1");
        assertThat(noPeer.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(noPeer.err().strip()).isEqualTo("hb: report: cannot tell the peer: this node is node1 and "
                + config.resolve("ha.cf") + " names no other node; pass --peer HOST (or --no-peer for this node only)");
        assertThat(dir.resolve("n.tar.gz")).doesNotExist();
    }

    /**
     * A peer whose {@code hb report --part} hangs: sshd does not end a remote command when the ssh client is killed,
     * so the peer stops it itself (coreutils' timeout, 10 s under --peer-timeout). The stand-in for ssh runs the
     * remote command here but outside its own process tree, as sshd runs it on the peer: killing the "ssh" does not
     * end it, only the command's own timeout does.
     */
    @Test
    void aPeerPartThatHangsIsStoppedOnThePeer() throws Exception {
        files();
        Path pids = dir.resolve("hang.pids");
        Path hang = dir.resolve("hang-hb");
        Files.writeString(hang, "#!/bin/sh\necho $$ >> " + pids + "\nexec sleep 600\n");
        Path ssh = dir.resolve("detached-ssh");
        Files.writeString(ssh, """
                #!/bin/sh
                for a; do cmd=$a; done
                d=$(mktemp -d)
                setsid -f sh -c "( $cmd ) >'$d/o' 2>'$d/e' </dev/null; echo \\$? >'$d/rc'"
                while [ ! -s "$d/rc" ]; do sleep 0.1; done
                cat "$d/o"; cat "$d/e" >&2; rc=$(cat "$d/rc"); rm -r "$d"; exit "$rc"
                """);
        for (Path f : List.of(hang, ssh)) {
            f.toFile().setExecutable(true);
        }
        Path archive = dir.resolve("h.tar.gz");
        HbRun r = HbRun.hb("report", "--from", "@" + (T - 60_000), "--to", "@" + (T + 60_000), "--dest",
                archive.toString(), "--config-dir", config.toString(), "--state-dir", state.toString(), "--node-name",
                "node1", "--peer", "peer", "--ssh", ssh.toString(), "--remote-hb", hang.toString(), "--peer-timeout", "15");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err().strip()).isEqualTo("hb: report: the peer (over ssh peer) was not collected: its part did not"
                + " finish within 5 s on peer and was stopped there; give a shorter window (--from/--to) or more time"
                + " (--peer-timeout S); the archive has node1's part only");
        long pid = Long.parseLong(Files.readString(pids).strip());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the peer's hb, pid " + pid)
                .isFalse();
        assertThat(archive).exists();

        HbRun bad = HbRun.hb("report", "--no-peer", "--peer-timeout", "5", "--config-dir", config.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(bad.err().strip()).isEqualTo("hb: report: --peer-timeout 5 is not between 15 and 3600 seconds; give"
                + " a number of seconds in that range");
    }
}
