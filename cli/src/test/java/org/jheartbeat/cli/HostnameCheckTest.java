package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb config check} and {@code hb resources check} read the built-in {@code Hostname}'s
 * options and name what is wrong with file:line, and the daemon does not start with such a line.
 */
class HostnameCheckTest {
    @TempDir
    Path dir;

    private Path cfg(String haresources) {
        return ConfigDirBuilder.validHere().haresources(haresources).writeTo(dir);
    }

    @Test
    void badOptionsAreRefusedWithFileLineAndWhatToWrite() {
        Path cfg = cfg("node1 198.18.0.100/24/lo Hostname::node1::adress=198.18.0.100::netbios=yes\n");
        for (String cmd : new String[] {"config", "resources"}) {
            HbRun r = HbRun.hb(cmd, "check", "--config-dir", cfg.toString());
            assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFIG);
            assertThat(r.err()).contains(cfg.resolve("haresources") + ":1: [Hostname::node1::adress=198.18.0.100"
                    + "::netbios=yes]: unknown option [adress]").contains("write Hostname::NAME::address=IP")
                    .doesNotContain("Exception");
        }
        HbRun d = HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node2");
        assertThat(d.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(d.err()).contains("unknown option [adress]").contains("not starting");
    }

    @Test
    void aFullLineChecksClean() {
        HbRun r = HbRun.hb("config", "check", "--config-dir", cfg("node1 198.18.0.100/24/lo Hostname::node1"
                + "::address=198.18.0.100::netbios=yes::dns=node1.townhall.lan::dns_server=198.18.0.10"
                + "::dns_home=198.18.0.1::dns_key=/etc/ha.d/ddns.key::hostname=yes\n").toString());
        assertThat(r.code()).as(r.err()).isZero();
    }
}
