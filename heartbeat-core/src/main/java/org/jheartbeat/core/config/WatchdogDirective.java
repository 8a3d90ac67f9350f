package org.jheartbeat.core.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * ha.cf {@code watchdog DEVICE}: the kernel watchdog device the daemon opens at start and writes to
 * from its loop, so that a node whose daemon hangs is reset by the kernel (Heartbeat 3.0.6 ha.cf(5);
 * facts F.2: "once only"). Rules, checked when ha.cf is read (so {@code hb config check} says the same):
 * <ul>
 *   <li>at most one line: a second is an ERROR naming the first (Heartbeat refuses it too);</li>
 *   <li>a full path ({@code /dev/watchdog}), else ERROR;</li>
 *   <li>the path must exist now, else ERROR: unlike a serial port, nothing hot-plugs a watchdog, and a
 *       daemon asked for a watchdog does not start without it (load the driver: {@code modprobe softdog}
 *       or the board's own);</li>
 *   <li>a character device is what the kernel's watchdog API offers: accepted;</li>
 *   <li>a FIFO is accepted with a WARNING, as a stand-in for tests: it resets nothing, and opening it
 *       waits for a reader (open(2) of a FIFO for writing);</li>
 *   <li>anything else (a regular file, a directory, a socket) is an ERROR: writing the watchdog's bytes
 *       over a regular file would damage it, and it would be no watchdog.</li>
 * </ul>
 * Package-private: {@link DirectiveTable#WATCHDOG} routes here through {@link HaCfState#setWatchdog}.
 */
final class WatchdogDirective {
    private WatchdogDirective() {
    }

    /**
     * Checks one {@code watchdog} value.
     *
     * @param state   where the diagnostics go
     * @param current the device an earlier line set, or null
     * @param value   the line's value
     * @param line    1-based ha.cf line
     * @return the setting to keep: the new one if it is valid, otherwise {@code current}
     */
    static HaCf.Setting<Path> apply(HaCfState state, HaCf.Setting<Path> current, String value, int line) {
        if (current != null) {
            state.error(line, "watchdog may appear only once; it was already set to " + current.value() + " on line "
                    + current.line() + ": keep one watchdog line");
            return current;
        }
        Optional<Path> path = absolute(value);
        if (path.isEmpty()) {
            state.error(line, "watchdog device [" + value + "] must be a full path, e.g. /dev/watchdog");
            return null;
        }
        Path device = path.get();
        DeviceFiles.Kind kind = DeviceFiles.kind(device);
        switch (kind) {
            case CHARACTER_DEVICE, UNKNOWN -> {
                return new HaCf.Setting<>(device, line);
            }
            case FIFO -> {
                state.warning(line, "watchdog device " + device + " is a FIFO, not a kernel watchdog: it resets"
                        + " nothing (a stand-in for tests), and the daemon's start waits until a reader opens it");
                return new HaCf.Setting<>(device, line);
            }
            case MISSING -> state.error(line, "watchdog device " + device + " does not exist: load the watchdog"
                    + " driver (modprobe softdog, or the board's own, e.g. iTCO_wdt), or remove the line");
            default -> state.error(line, "watchdog device " + device + " is " + kind.description()
                    + ", not a character device: name the kernel watchdog device, e.g. /dev/watchdog");
        }
        return null;
    }

    private static Optional<Path> absolute(String value) {
        if (!value.startsWith("/")) {
            return Optional.empty();
        }
        try {
            return Optional.of(Path.of(value));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
