package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.RsyncStats;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.junit.jupiter.api.Test;

class RsyncCommandTest {
    private static final List<String> SSH = List.of("ssh", "-o", "BatchMode=yes", "-i", "/etc/ha.d/sync key");

    private static ReplicationJobSpec peerJob(boolean delete) {
        return new ReplicationJobSpec("web", "198.18.0.100", List.of(Path.of("/srv/web")), Optional.empty(), "*/5 * * * *",
                delete, List.of("--bwlimit=10m"), false, 0.5, 3, Duration.ofSeconds(30), Duration.ofHours(1), 7);
    }

    @Test
    void peerCommandLine() {
        assertThat(RsyncCommand.build("rsync", peerJob(true), Path.of("/srv/web"), "198.18.1.2", SSH, false))
                .containsExactly("rsync", "-aHAX", "--numeric-ids", "--stats", "--partial", "--delete", "--bwlimit=10m",
                        "-e", "ssh -o BatchMode=yes -i '/etc/ha.d/sync key'", "--protect-args", "--mkpath", "/srv/web/", "198.18.1.2:/srv/web/");
    }

    @Test
    void peerCommandWithProgressWithoutDeleteAndIpv6() {
        assertThat(RsyncCommand.build("/usr/bin/rsync", peerJob(false), Path.of("/srv/web"), "fd00::2", List.of("ssh"), true))
                .containsExactly("/usr/bin/rsync", "-aHAX", "--numeric-ids", "--stats", "--partial", "--info=progress2",
                        "--bwlimit=10m", "-e", "ssh", "--protect-args", "--mkpath", "/srv/web/", "[fd00::2]:/srv/web/");
    }

    @Test
    void pathTargetCommandLine() {
        ReplicationJobSpec job = Jobs.simple("mail", Path.of("/srv/mail"), Path.of("/mnt/nfs/replica"));
        assertThat(RsyncCommand.build("rsync", job, Path.of("/srv/mail"), null, SSH, false))
                .containsExactly("rsync", "-aHAX", "--numeric-ids", "--stats", "--partial", "--delete",
                        "/srv/mail/", "/mnt/nfs/replica/srv/mail/");
    }

    @Test
    void backupDirMovesDisplacedFilesAside() {
        ReplicationJobSpec job = Jobs.simple("web", Path.of("/srv/web"), Path.of("/mnt/replica"));
        assertThat(RsyncCommand.build("rsync", job, Path.of("/srv/web"), null, List.of("ssh"), false,
                java.util.Optional.of(Path.of("/var/lib/jheartbeat/sync/displaced/web/20261129T220000Z/srv/web"))))
                .containsExactly("rsync", "-aHAX", "--numeric-ids", "--stats", "--partial", "--delete", "--backup",
                        "--backup-dir=/var/lib/jheartbeat/sync/displaced/web/20261129T220000Z/srv/web", "/srv/web/",
                        "/mnt/replica/srv/web/");
    }

    @Test
    void stampCommandAndShellQuoting() {
        assertThat(StampSender.argv("rsync", List.of("ssh", "-o", "ProxyCommand=nc 'x' 22"), Path.of("/s/out"),
                "10.0.0.2", Path.of("/var/lib/jheartbeat/sync/replica")))
                .containsExactly("rsync", "-e", "ssh -o \"ProxyCommand=nc 'x' 22\"", "--protect-args", "--mkpath", "--chmod=F644",
                        "--ignore-times", "--files-from=-", "/s/out/", "10.0.0.2:/var/lib/jheartbeat/sync/replica/");
        assertThat(StampSender.argv("rsync", List.of("ssh"), Path.of("/s/out"), "fd00::2", Path.of("/r")))
                .endsWith("[fd00::2]:/r/");
    }

    @Test
    void statsParseRsyncWordingWithDigitGrouping() {
        String out = """
                Number of files: 10,001 (reg: 10,000, dir: 1)
                Number of created files: 12 (reg: 12)
                Number of deleted files: 3 (reg: 3)
                Number of regular files transferred: 1,234
                Total file size: 52,428,800 bytes
                Total transferred file size: 1,048,576 bytes
                Literal data: 1,048,576 bytes
                """;
        assertThat(RsyncStats.parse(out)).isEqualTo(new RsyncStats(10_001, 10_000, 12, 3, 1_234, 52_428_800L, 1_048_576L));
        assertThat(RsyncStats.parse("garbage")).isEqualTo(RsyncStats.ZERO);
    }
}
