package org.jheartbeat.cli.watchdog;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.time.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watchdogs of {@code hb daemon}: the kernel watchdog device of ha.cf {@code watchdog} and
 * systemd's notifications, opened at start and petted from the cluster loop ({@link #onWake}, the
 * loop's wake-up hook), so that a loop that hangs stops petting both. Lifecycle:
 * <ol>
 *   <li>{@link #open}: the device is opened (which arms it) before the media start, so a device that
 *       cannot be opened stops the start before anything is touched. Until the loop's first wake-up a
 *       start-up thread pets it, since the start-up release of groups found running holds the loop back
 *       (stop scripts may take minutes, longer than a driver's timeout);</li>
 *   <li>{@link #onWake}: from the loop thread, the device at least every keepalive and at least once a
 *       second (Heartbeat 3.0.6 pets on its own status, every keepalive), {@code WATCHDOG=1} every
 *       quarter of systemd's {@code WatchdogSec=} (sd_watchdog_enabled(3) asks for half; a quarter leaves
 *       room for the loop's 100 ms wake-ups and a busy machine);</li>
 *   <li>{@link #ready}: {@code READY=1} once the node runs (media bound, control socket up);</li>
 *   <li>{@link #stopping}: {@code STOPPING=1} when an orderly stop begins; the loop goes on petting
 *       while it releases the groups;</li>
 *   <li>{@link #close}: the device's magic close ({@code 'V'}), once the node released everything or
 *       when it stops without having started. Also run by a JVM shutdown hook, for a SIGTERM that comes
 *       before the daemon's own handler is in place: the JVM then exits in an orderly way. A daemon that
 *       dies (SIGKILL, systemd's watchdog SIGABRT, a JVM crash) or hangs never writes {@code 'V'}: the
 *       kernel resets the node when the driver's timeout passes, unless a new daemon opens the device
 *       and pets it first.</li>
 * </ol>
 * Without a device and without {@code NOTIFY_SOCKET} every method does nothing.
 */
public final class DaemonWatchdogs implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** The most time between two pets of the kernel device, in ms, whatever the keepalive. */
    static final long MAX_DEVICE_PET_MS = 1000;

    private final Optional<Watchdog> device;
    private final Optional<SystemdNotifier> systemd;
    private final MonotonicClock clock;
    private final PetSchedule devicePets;
    private final Optional<PetSchedule> systemdPets;
    private final ScheduledExecutorService startup;
    private final Thread shutdownHook;
    private volatile boolean loopRunning;
    private boolean petFailing;

    DaemonWatchdogs(Optional<Watchdog> device, Optional<SystemdNotifier> systemd, Duration keepalive,
                    MonotonicClock clock) {
        this.device = device;
        this.systemd = systemd;
        this.clock = clock;
        this.devicePets = new PetSchedule(Math.min(keepalive.toNanos(), TimeUnit.MILLISECONDS.toNanos(MAX_DEVICE_PET_MS)));
        this.systemdPets = systemd.flatMap(SystemdNotifier::watchdog).map(w -> new PetSchedule(w.toNanos() / 4));
        if (device.isPresent()) {
            startup = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "hb-watchdog-startup");
                t.setDaemon(true);
                return t;
            });
            startup.scheduleWithFixedDelay(this::petBeforeTheLoop, 0, devicePets.intervalNanos(), TimeUnit.NANOSECONDS);
            shutdownHook = new Thread(this::closeDevice, "hb-watchdog-close");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } else {
            startup = null;
            shutdownHook = null;
        }
    }

    /** The ha.cf {@code watchdog} device cannot be opened: the configuration's to fix, not a passing failure. */
    public static final class DeviceException extends IOException {
        DeviceException(String message) {
            super(message);
        }
    }

    /**
     * Where ha.cf names the watchdog device, {@code DIR/ha.cf:LINE}, for a message about it (line 0 if ha.cf
     * cannot be read again).
     */
    public static String haCfLine(ClusterConfig config) {
        Path haCf = config.configDir().resolve("ha.cf");
        int line = 0;
        try {
            line = org.jheartbeat.core.config.HaCfParser.parse(haCf, java.nio.file.Files.readString(haCf,
                    java.nio.charset.StandardCharsets.ISO_8859_1)).haCf().watchdog()
                    .map(org.jheartbeat.core.config.HaCf.Setting::line).orElse(0);
        } catch (IOException | RuntimeException e) {
            line = 0; // the message still names the file and the device
        }
        return haCf + ":" + line;
    }

    /**
     * Opens what the configuration and the environment ask for.
     *
     * @param config ha.cf {@code watchdog} (the device) and the keepalive (how often to pet it)
     * @param env    the process environment: {@code NOTIFY_SOCKET}, {@code WATCHDOG_USEC}, {@code WATCHDOG_PID}
     * @param pid    this process's id
     * @param clock  monotonic time for the pet schedules
     * @return the watchdogs, the device armed and petted from now on
     * @throws IOException with a message for the operator (what failed, and what to do) when the device
     *                     cannot be opened ({@link DeviceException}) or systemd's socket cannot be used; nothing
     *                     is left open then
     */
    public static DaemonWatchdogs open(ClusterConfig config, Map<String, String> env, long pid, MonotonicClock clock)
            throws IOException {
        Optional<SystemdNotifier> systemd;
        try {
            systemd = SystemdNotifier.fromEnvironment(env, pid);
        } catch (IOException e) {
            throw new IOException("cannot notify systemd: " + e.getMessage());
        }
        Optional<Watchdog> device = Optional.empty();
        if (config.watchdog().isPresent()) {
            Path path = config.watchdog().get();
            try {
                device = Optional.of(Watchdog.open(path));
            } catch (IOException e) {
                systemd.ifPresent(SystemdNotifier::close);
                throw new DeviceException("cannot open watchdog device " + path + " (ha.cf watchdog): " + reason(e)
                        + hint(reason(e)));
            }
            WatchdogDriver driver = WatchdogDriver.of(path, Path.of("/sys"));
            LOG.info("Using watchdog device: {} (petted from the loop at least every {} ms; driver timeout {})", path,
                    Math.min(config.timing().keepalive().toMillis(), MAX_DEVICE_PET_MS),
                    driver.timeout().map(t -> t.toSeconds() + " s").orElse("unknown"));
            driver.timeout().filter(t -> t.compareTo(config.timing().deadtime()) > 0).ifPresent(t -> LOG.warn(
                    "watchdog {}: the driver's timeout {} s is longer than deadtime {} ms: a hung node keeps its"
                    + " resources until then, after the peer took them over (Heartbeat sets it to deadtime; set the"
                    + " driver's, e.g. softdog soft_margin=, or wdctl --settimeout)", path, t.toSeconds(),
                    config.timing().deadtime().toMillis()));
            if (driver.nowayout()) {
                LOG.warn("watchdog {}: the driver has nowayout: even an orderly stop of the daemon leaves the timer"
                        + " running, and the node is reset unless the daemon is started again in time", path);
            }
        }
        systemd.flatMap(SystemdNotifier::watchdog).ifPresent(w -> LOG.info("systemd watchdog: {} ms (WATCHDOG=1"
                + " from the loop every {} ms)", w.toMillis(), w.toMillis() / 4));
        return new DaemonWatchdogs(device, systemd, config.timing().keepalive(), clock);
    }

    /** The loop's wake-up hook ({@code ClusterLoop.onWake}); loop thread only; never throws. */
    public void onWake() {
        if (!loopRunning) {
            loopRunning = true;
            if (startup != null) {
                startup.shutdown(); // the loop pets from now on
            }
        }
        long now = clock.nanoTime();
        if (device.isPresent() && devicePets.due(now)) {
            petDevice();
        }
        if (systemdPets.isPresent() && systemdPets.get().due(now)) {
            systemd.get().watchdogPet();
        }
    }

    /** {@code READY=1}, with a status line for {@code systemctl status}. */
    public void ready(String status) {
        systemd.ifPresent(s -> s.ready(status));
    }

    /** {@code STOPPING=1}, with a status line. */
    public void stopping(String status) {
        systemd.ifPresent(s -> s.stopping(status));
    }

    /** The magic close of the device and the end of the notifications; idempotent. */
    @Override
    public void close() {
        closeDevice();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is already exiting: the hook runs (and finds the device closed)
            }
        }
        systemd.ifPresent(SystemdNotifier::close);
    }

    private void closeDevice() {
        if (device.isEmpty()) {
            return;
        }
        if (startup != null) {
            startup.shutdownNow();
        }
        try {
            device.get().close();
            LOG.info("Watchdog device {} closed (magic close: its timer is stopped)", device.get().device());
        } catch (IOException e) {
            LOG.error("watchdog device {}: the magic close failed ({}): its timer may still run and reset this node",
                    device.get().device(), e.getMessage());
        }
    }

    /** Whether the start-up thread has ended (the loop pets alone): for tests. */
    boolean startupPetterStopped() {
        return startup == null || startup.isTerminated();
    }

    private void petBeforeTheLoop() {
        if (!loopRunning) {
            petDevice();
        }
    }

    private synchronized void petDevice() {
        try {
            device.get().pet();
            if (petFailing) {
                petFailing = false;
                LOG.info("watchdog device {}: petting works again", device.get().device());
            }
        } catch (IOException e) {
            if (!petFailing) {
                petFailing = true;
                LOG.error("watchdog device {}: cannot pet it ({}); the node will be reset when its timer runs out"
                        + " (logged once until a pet works)", device.get().device(), e.getMessage());
            }
        }
    }

    private static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    private static String hint(String reason) {
        if (reason.contains("busy")) {
            return "; another program holds it (a watchdog daemon, or systemd's RuntimeWatchdogSec=): stop that, or"
                    + " remove the watchdog line";
        }
        if (reason.contains("Permission denied")) {
            return "; start the daemon as root";
        }
        if (reason.contains("No such file")) {
            return "; load the watchdog driver (modprobe softdog, or the board's own)";
        }
        return "";
    }
}
