package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jheartbeat.cli.error.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb export pacemaker} refusals and the unchecked write (no Pacemaker tools needed). */
class ExportCommandTest {
    @TempDir
    Path dir;

    private Path config(String haCf, String haresources) throws Exception {
        Path cfg = Files.createDirectories(dir.resolve("cfg"));
        Files.writeString(cfg.resolve("ha.cf"), haCf);
        Files.writeString(cfg.resolve("haresources"), haresources);
        Path keys = cfg.resolve("authkeys");
        Files.writeString(keys, "auth 1\n1 sha1 exporttestsecret\n");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        return cfg;
    }

    private static final String HA_CF = "keepalive 1\ndeadtime 10\nudpport 694\nucast eth1 198.18.1.2\n"
            + "auto_failback on\nnode node1\nnode node2\n";

    @Test
    void aConfigThatDoesNotLoadIsRefusedWithTheCheckMessagesAndNothingIsWritten() throws Exception {
        Path cfg = config(HA_CF.replace("deadtime 10", "deadtime ten"), "node1 198.18.0.100/24/eth0\n");
        Path out = dir.resolve("out");
        HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", out.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":2:").contains("nothing written");
        assertThat(out).doesNotExist();
    }

    @Test
    void aBadHaresourcesLineIsRefusedWithItsLine() throws Exception {
        Path cfg = config(HA_CF, "node1 198.18.0.100/24/eth0\nnode3 198.18.0.101\n");
        HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":2:");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void anInvalidSyncYamlIsRefusedWithItsLine() throws Exception {
        Path cfg = config(HA_CF, "node1 198.18.0.100/24/eth0\n");
        Files.writeString(cfg.resolve("sync.yaml"), "jobs:\n  web:\n    group: nosuchgroup\n    paths: [/srv/web]\n");
        HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", dir.resolve("o").toString());
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("sync.yaml:");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void anOutThatIsAFileIsAUsageError() throws Exception {
        Path cfg = config(HA_CF, "node1 198.18.0.100/24/eth0\n");
        Path file = Files.writeString(dir.resolve("file"), "x");
        HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", file.toString(),
                "--no-verify", "--node-address", "node1=198.18.1.1", "--node-address", "node2=198.18.1.2");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--out " + file + " exists and is not a directory");
    }

    /** A node address that is not an IP address: usage error, nothing written (tryout: "abc" went into corosync.conf). */
    @Test
    void aNodeAddressThatIsNotAnIpAddressIsAUsageError() throws Exception {
        Path cfg = config(HA_CF, "node1 198.18.0.100/24/eth0\n");
        for (String bad : new String[] {"abc", "198.18.1.300", "198.18.1", "fe80::1::2"}) {
            HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out",
                    dir.resolve("o").toString(), "--no-verify", "--node-address", "node1=" + bad, "--node-address",
                    "node2=198.18.1.2");
            assertThat(r.code()).as(bad).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).isEqualTo("hb: --node-address [node1=" + bad + "]: [" + bad + "] is not an IP address\n");
            assertThat(dir.resolve("o")).doesNotExist();
        }
    }

    @Test
    void aMissingNodeAddressIsAUsageErrorNamingTheOption() throws Exception {
        Path cfg = config(HA_CF, "node1 198.18.0.100/24/eth0\n");
        HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", dir.resolve("o").toString(),
                "--node-name", "node9");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--node-address").contains("node1 on link 0 (eth1)");
        assertThat(dir.resolve("o")).doesNotExist();
    }

    @Test
    void noVerifyWritesTheFilesAndSaysTheyAreUnchecked() throws Exception {
        Path cfg = config(HA_CF, "node1 198.18.0.100/24/eth0 labweb::8080\n");
        Files.createDirectories(cfg.resolve("resource.d"));
        Path out = dir.resolve("out");
        HbRun r = HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", out.toString(),
                "--no-verify", "--format", "crmsh", "--node-address", "node1=198.18.1.1", "--node-address",
                "node2=198.18.1.2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("NOT checked");
        assertThat(out.resolve("crm.txt")).exists();
        assertThat(out.resolve("resource.d/jheartbeat/hb-script")).isExecutable();
        assertThat(Files.readString(out.resolve("export-report.txt"))).contains("labweb::8080")
                .doesNotContain("exporttestsecret");
    }
}
