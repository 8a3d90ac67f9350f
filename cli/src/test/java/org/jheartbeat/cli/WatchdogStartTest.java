package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ha.cf {@code watchdog} device that exists but the kernel will not open stops the daemon's start
 * with exit 2 (which systemd does not restart) and the ha.cf line. The device: {@code /dev/tty} in a
 * process without a controlling terminal (ENXIO), a real character device that is never written to;
 * the test is skipped where this run has a terminal (the open would succeed).
 */
class WatchdogStartTest {
    @TempDir
    Path dir;

    private static boolean canOpen(String device) {
        try (FileOutputStream out = new FileOutputStream(device)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void aWatchdogDeviceThatCannotBeOpenedIsExitTwoWithItsLine() {
        assumeFalse(canOpen("/dev/tty"), "this run has a controlling terminal: /dev/tty would open");
        Path cfg = ConfigCheckCommandTest.withLabweb(ConfigDirBuilder.validHere().haCfAppend("watchdog /dev/tty\n")
                .writeTo(dir.resolve("cfg")));
        HbRun r = HbRun.hb("daemon", "--config-dir", cfg.toString(), "--state-dir", dir.resolve("state").toString(),
                "--node-name", "node1");
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains(cfg.resolve("ha.cf") + ":11: cannot open watchdog device /dev/tty (ha.cf"
                + " watchdog): ");
    }
}
