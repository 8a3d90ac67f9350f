package org.jheartbeat.cli.watchdog;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver's timeout and nowayout, read from a stand-in sysfs tree laid out as the kernel's. */
class WatchdogDriverTest {
    @TempDir
    Path sys;

    /** glibc's makedev. */
    static long rdev(long major, long minor) {
        return (minor & 0xff) | ((major & 0xfff) << 8) | ((minor & ~0xffL) << 12) | ((major & ~0xfffL) << 32);
    }

    @Test
    void theLegacyDeviceIsWatchdogZero() throws Exception {
        Path dir = Files.createDirectories(sys.resolve("class/watchdog/watchdog0"));
        Files.writeString(dir.resolve("timeout"), "60\n");
        Files.writeString(dir.resolve("nowayout"), "0\n");
        assertThat(WatchdogDriver.read(sys, rdev(10, 130)))
                .isEqualTo(new WatchdogDriver(Optional.of(Duration.ofSeconds(60)), false));
    }

    @Test
    void aNumberedDeviceIsFoundByItsNumbers() throws Exception {
        Path dir = Files.createDirectories(sys.resolve("dev/char/247:1"));
        Files.writeString(dir.resolve("timeout"), "10\n");
        Files.writeString(dir.resolve("nowayout"), "1\n");
        assertThat(WatchdogDriver.read(sys, rdev(247, 1)))
                .isEqualTo(new WatchdogDriver(Optional.of(Duration.ofSeconds(10)), true));
        assertThat(WatchdogDriver.read(sys, rdev(4095 + 4096, 256 + 3))).as("major and minor past the 12- and 8-bit fields, before its directory exists")
                .isEqualTo(WatchdogDriver.UNKNOWN);
        Files.createDirectories(sys.resolve("dev/char/8191:259"));
        Files.writeString(sys.resolve("dev/char/8191:259/timeout"), "5\n");
        assertThat(WatchdogDriver.read(sys, rdev(8191, 259)).timeout()).contains(Duration.ofSeconds(5));
    }

    @Test
    void nothingReadableIsUnknown() throws Exception {
        assertThat(WatchdogDriver.read(sys, rdev(10, 130))).isEqualTo(WatchdogDriver.UNKNOWN);
        Path dir = Files.createDirectories(sys.resolve("class/watchdog/watchdog0"));
        Files.writeString(dir.resolve("timeout"), "soon\n");
        assertThat(WatchdogDriver.read(sys, rdev(10, 130))).isEqualTo(WatchdogDriver.UNKNOWN);
    }

    @Test
    void aFileStandingInForTheDeviceIsUnknown() throws Exception {
        assertThat(WatchdogDriver.of(Files.createFile(sys.resolve("wd")), sys)).isEqualTo(WatchdogDriver.UNKNOWN);
    }
}
