package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heartbeat admins' {@code MailTo::root::subject} in haresources is a built-in resource: {@code hb config check}
 * accepts it with no {@code resource.d/MailTo} installed, in Heartbeat's and in the OCF form, and names a bad
 * address with file:line.
 */
class MailToCheckTest {
    @TempDir
    Path dir;

    private Path cfg(String haresources) {
        return ConfigDirBuilder.validHere().haresources(haresources).writeTo(dir);
    }

    @Test
    void mailToChecksCleanWithoutHeartbeatsScripts() {
        Path cfg = cfg("node1 198.18.0.100/24/lo MailTo::root::WebServer MailTo::ops@example.com,root"
                + " ocf:heartbeat:MailTo::email=root::subject=Web\n");
        HbRun r = HbRun.hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("MailTo").doesNotContain("resource.d");
    }

    @Test
    void aBadAddressIsRefusedWithFileLineAndWhatToWrite() {
        Path cfg = cfg("node1 198.18.0.100/24/lo MailTo::root<script>::WebServer\n");
        HbRun r = HbRun.hb("config", "check", "--config-dir", cfg.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("haresources") + ":1:")
                .contains("MailTo: [root<script>] in [MailTo::root<script>::WebServer] is not a mail address; write"
                        + " user@example.com or a local user name such as root").doesNotContain("Exception");
    }
}
