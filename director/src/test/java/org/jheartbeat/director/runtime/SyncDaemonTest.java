package org.jheartbeat.director.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.director.check.CheckResult;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.table.RecordingIpvsadm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kernel's connection-sync daemon follows the director (ldirectord.cf {@code syncdaemon}, {@code syncid}): a
 * director that starts (a takeover) runs the master daemon and stops the backup; one that stops (standby)
 * stops the master and starts the backup. Driven through the recording ipvsadm, which checks the
 * {@code --start-daemon}/{@code --stop-daemon} syntax of ipvsadm(8) 1.31 and answers as the kernel does
 * ("Daemon has already run", "No daemon is running").
 */
class SyncDaemonTest {
    @TempDir
    Path dir;

    private static final String VIRTUAL = "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\tchecktype=on\n";

    @Test
    void theMasterDaemonFollowsTheDirectorAndTheBackupTheStandby() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(Files.createDirectories(dir.resolve("ipvsadm")));
        Path cfg = dir.resolve("ldirectord.cf");
        Files.writeString(cfg, "syncdaemon = eth1\nsyncid = 7\n" + VIRTUAL);
        LdirectordConfig config = new LdirectordParser().parse(cfg).config().orElseThrow();
        assertThat(org.jheartbeat.director.config.LdirectordShow.text(config)).contains("supervised = no\n"
                + "syncdaemon = eth1\nsyncid = 7\nsyncpeer = (unset)\nsyncauthkeys = /etc/ha.d/authkeys\n");
        // takeover: no daemon runs yet, so the two stops are answered "No daemon is running" (not logged)
        try (DirectorDaemon d = daemon(config, rec)) {
            assertThat(rec.run("-L", "--daemon")).isEqualTo("master sync daemon (mcast=eth1, syncid=7)\n");
        }
        assertThat(rec.run("-L", "--daemon")).isEqualTo("backup sync daemon (mcast=eth1, syncid=7)\n");
        // the node takes the director again: the backup stops, the master starts
        try (DirectorDaemon d = daemon(config, rec)) {
            assertThat(rec.run("-L", "--daemon")).isEqualTo("master sync daemon (mcast=eth1, syncid=7)\n");
        }
        List<String> sync = rec.commands().stream().filter(c -> c.contains("daemon")).toList();
        assertThat(sync).containsExactly(
                "ipvsadm --start-daemon master --mcast-interface eth1 --syncid 7",
                "ipvsadm --stop-daemon master",
                "ipvsadm --start-daemon backup --mcast-interface eth1 --syncid 7",
                "ipvsadm --stop-daemon backup",
                "ipvsadm --start-daemon master --mcast-interface eth1 --syncid 7",
                "ipvsadm --stop-daemon master",
                "ipvsadm --start-daemon backup --mcast-interface eth1 --syncid 7");
    }

    @Test
    void aMasterLeftByAKilledDirectorIsReplacedAndNoSyncidMeansNone() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(Files.createDirectories(dir.resolve("ipvsadm")));
        rec.run("--start-daemon", "master", "--mcast-interface", "eth0");
        Path cfg = dir.resolve("ldirectord.cf");
        Files.writeString(cfg, "syncdaemon = eth1\n" + VIRTUAL);
        try (DirectorDaemon d = daemon(new LdirectordParser().parse(cfg).config().orElseThrow(), rec)) {
            assertThat(rec.run("-L", "--daemon")).isEqualTo("master sync daemon (mcast=eth1, syncid=0)\n");
        }
        assertThat(rec.commands()).contains("ipvsadm --start-daemon master --mcast-interface eth1");
    }

    @Test
    void aNodeBootingAsTheStandbyStartsTheBackupUnlessADaemonRuns() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(Files.createDirectories(dir.resolve("ipvsadm")));
        Path cfg = dir.resolve("ldirectord.cf");
        Files.writeString(cfg, "syncdaemon = eth1\nsyncid = 7\n" + VIRTUAL);
        var sync = new LdirectordParser().parse(cfg).config().orElseThrow().globals().sync().orElseThrow();
        assertThat(rec.backend(1).syncBoot(sync)).isTrue();
        assertThat(rec.run("-L", "--daemon")).isEqualTo("backup sync daemon (mcast=eth1, syncid=7)\n");
        assertThat(rec.backend(1).syncBoot(sync)).as("a backup runs already").isFalse();
        rec.run("--stop-daemon", "backup");
        rec.run("--start-daemon", "master", "--mcast-interface", "eth1");
        assertThat(rec.backend(1).syncBoot(sync)).as("this node's director runs").isFalse();
        assertThat(rec.run("-L", "--daemon")).isEqualTo("master sync daemon (mcast=eth1, syncid=0)\n");
    }

    @Test
    void withoutSyncdaemonNoDaemonIsTouched() throws Exception {
        RecordingIpvsadm rec = new RecordingIpvsadm(Files.createDirectories(dir.resolve("ipvsadm")));
        Path cfg = dir.resolve("ldirectord.cf");
        Files.writeString(cfg, VIRTUAL);
        try (DirectorDaemon d = daemon(new LdirectordParser().parse(cfg).config().orElseThrow(), rec)) {
            assertThat(rec.run("-L", "--daemon")).isEmpty();
        }
        assertThat(rec.commands()).noneMatch(c -> c.contains("daemon"));
    }

    @Test
    void badSyncValuesAreErrorsAtTheirLines() throws Exception {
        Path cfg = dir.resolve("ldirectord.cf");
        Files.writeString(cfg, "syncdaemon = eth1/x\nsyncid = 256\nsyncpeer = 10.0.0.1 peer2\n"
                + "syncauthkeys = relative/authkeys\n" + VIRTUAL);
        LdirectordParser.Result r = new LdirectordParser().parse(cfg);
        assertThat(r.config()).isEmpty();
        assertThat(r.diagnostics().stream().map(ConfigDiagnostic::format).toList()).containsExactly(
                cfg + ":1: syncdaemon must name the network interface of the sync link (at most 15 letters, digits,"
                        + " '.', '_', '-', '@'), e.g. syncdaemon = eth1; not 'eth1/x'",
                cfg + ":2: syncid must be a whole number from 0 to 255, not '256'",
                cfg + ":3: syncpeer takes the numeric addresses of both directors on the sync link, e.g."
                        + " syncpeer = 10.0.0.1 10.0.0.2; 'peer2' is not one",
                cfg + ":4: syncauthkeys must be the absolute path of a readable authkeys file (Heartbeat's, e.g."
                        + " /etc/ha.d/authkeys); 'relative/authkeys' is not");
        Files.writeString(cfg, "syncid = 3\n" + VIRTUAL);
        assertThat(new LdirectordParser().parse(cfg).diagnostics().stream().map(ConfigDiagnostic::format))
                .containsExactly(cfg + ":1: syncid needs syncdaemon = IF (the interface of the sync link); add it or"
                        + " remove syncid");
    }

    private static DirectorDaemon daemon(LdirectordConfig config, RecordingIpvsadm rec) throws Exception {
        return new DirectorDaemon(config, rec.backend(1), v -> (t, to) -> CheckResult.up(0),
                config.file().resolveSibling("lvs.sock"), a -> { });
    }
}
