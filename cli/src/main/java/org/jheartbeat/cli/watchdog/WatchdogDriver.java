package org.jheartbeat.cli.watchdog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What the driver behind a watchdog device says of itself in sysfs ({@code /sys/class/watchdog/watchdogN/},
 * kernel Documentation/ABI/testing/sysfs-class-watchdog): its timeout and whether it has
 * {@code nowayout} (then even a magic close leaves the timer running). Only read, for the daemon's
 * start-up log; Heartbeat sets the timeout to deadtime with an ioctl that Java cannot make.
 *
 * @param timeout  the driver's timeout, when sysfs tells it
 * @param nowayout whether the driver ignores the magic close
 */
public record WatchdogDriver(Optional<Duration> timeout, boolean nowayout) {
    /** The legacy {@code /dev/watchdog}: misc device 10:130, the kernel's name for watchdog0. */
    static final long MISC_MAJOR = 10;
    static final long WATCHDOG_MINOR = 130;
    /** Nothing known (not a watchdog device: a stand-in, or no sysfs entry). */
    public static final WatchdogDriver UNKNOWN = new WatchdogDriver(Optional.empty(), false);

    /**
     * Reads the driver's settings for {@code device}.
     *
     * @param device the device path ({@code /dev/watchdog}, {@code /dev/watchdog1})
     * @param sys    the sysfs mount, {@code /sys}
     * @return what sysfs says; {@link #UNKNOWN} when the device number or the files cannot be read
     */
    public static WatchdogDriver of(Path device, Path sys) {
        try {
            Object rdev = Files.getAttribute(device, "unix:rdev");
            return rdev instanceof Long r ? read(sys, r) : UNKNOWN;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return UNKNOWN;
        }
    }

    /** The driver's settings for the character device numbered {@code rdev} (glibc's dev_t encoding). */
    static WatchdogDriver read(Path sys, long rdev) {
        long major = ((rdev >>> 8) & 0xfffL) | ((rdev >>> 32) & 0xfffff000L);
        long minor = (rdev & 0xffL) | ((rdev >>> 12) & 0xffffff00L);
        Path dir = major == MISC_MAJOR && minor == WATCHDOG_MINOR
                ? sys.resolve("class/watchdog/watchdog0") : sys.resolve("dev/char/" + major + ":" + minor);
        Optional<String> timeout = line(dir.resolve("timeout"));
        Optional<Duration> seconds = timeout.filter(t -> t.matches("[0-9]{1,9}")).map(t -> Duration.ofSeconds(Long.parseLong(t)));
        return new WatchdogDriver(seconds, line(dir.resolve("nowayout")).filter("1"::equals).isPresent());
    }

    private static Optional<String> line(Path p) {
        try {
            return Optional.of(Files.readString(p, StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
