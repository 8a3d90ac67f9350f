package org.jheartbeat.stonith.device.apcsmart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jheartbeat.core.media.serial.UucpLock;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.FixedTypeDevice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * STONITH device {@code apcsmart}: an APC Smart-UPS on a serial line powering the nodes in {@code hostlist}
 * (config names {@code ttydev}, {@code hostlist}, as cluster-glue; facts §1.6). Every host triggers the same
 * UPS-wide action. Each operation takes the uucp lock (cluster-glue's name, {@link #lockName}), opens the
 * port, runs one {@link ApcSmartDialogue}, closes the port and releases the lock — unlike cluster-glue it does
 * not hold the port between operations (facts §1.7.6). An off or on is confirmed by polling Register 1
 * ({@link ApcSmartDialogue.Confirm#POLL}) instead of the plugin's single read after 1 s. Operations are serialised and bounded by the
 * operation timeout (default {@link #DEFAULT_OPERATION_TIMEOUT}).
 *
 * <p>Results: lock or open failure {@code OOPS} (as the plugin's failed init); node not in hostlist
 * {@code BADHOST}; not configured {@code INVAL}; otherwise the dialogue's result.
 */
public final class ApcSmartDevice extends FixedTypeDevice {
    /** The type name, as in ha.cf and {@code stonith -t}. */
    public static final String TYPE = "apcsmart";

    private static final Logger log = LoggerFactory.getLogger(ApcSmartDevice.class);
    /** Bound on one operation: a reset needs ~3 s set-up + grace (20 s) + up to 10 polls + restore. */
    public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(60);

    private final Duration operationTimeout;
    private final ApcSmartDialogue.InitMode initMode;
    private final MonotonicClock clock;
    private final Sleeper sleeper;
    private String ttydev;
    private List<String> hosts = List.of();

    /** A device with the default timeout that steps the UPS delays only for resets ({@link ApcSmartDialogue.InitMode#MINIMAL}). */
    public ApcSmartDevice() {
        this(DEFAULT_OPERATION_TIMEOUT, ApcSmartDialogue.InitMode.MINIMAL, MonotonicClock.system());
    }

    /** @param operationTimeout bound on one whole operation */
    public ApcSmartDevice(Duration operationTimeout, ApcSmartDialogue.InitMode initMode, MonotonicClock clock) {
        this(operationTimeout, initMode, clock, Sleeper.system());
    }

    /**
     * @param operationTimeout bound on one whole operation
     * @param initMode         which UPS delays the dialogue steps
     * @param clock            drives the dialogue's deadlines
     * @param sleeper          the pause after a read error ({@code ApcSmartLine.READ_TIMEOUT_MS}), so a
     *                         vanished line does not spin
     */
    public ApcSmartDevice(Duration operationTimeout, ApcSmartDialogue.InitMode initMode, MonotonicClock clock,
                          Sleeper sleeper) {
        super(TYPE, List.of("ttydev", "hostlist"));
        this.operationTimeout = operationTimeout;
        this.initMode = initMode;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    /**
     * @throws StonithConfigException if {@code ttydev} is missing, does not exist, is not a character device or
     *                                not readable and writable, or {@code hostlist} names no host
     */
    @Override
    public synchronized void configure(Map<String, String> params) throws StonithConfigException {
        String tty = params.get("ttydev");
        if (tty == null || tty.isBlank()) {
            throw new StonithConfigException("apcsmart: parameter ttydev (the UPS serial device) is missing");
        }
        Path path = Path.of(tty.trim());
        if (!Files.exists(path)) {
            throw new StonithConfigException("apcsmart: ttydev " + path + " does not exist");
        }
        if (!isCharacterDevice(path)) {
            throw new StonithConfigException("apcsmart: ttydev " + path + " is not a character device");
        }
        if (!Files.isReadable(path) || !Files.isWritable(path)) {
            throw new StonithConfigException("apcsmart: ttydev " + path + " is not readable and writable by this user");
        }
        List<String> list = parseHostList(params.getOrDefault("hostlist", ""));
        if (list.isEmpty()) {
            throw new StonithConfigException("apcsmart: parameter hostlist names no host");
        }
        ttydev = path.toString();
        hosts = list;
    }

    /** cluster-glue {@code StringToHostList}: split on blanks, CR, LF, FF and commas; lower-cased. */
    static List<String> parseHostList(String s) {
        return Arrays.stream(s.split("[ \t\r\n\f,]+")).filter(h -> !h.isEmpty())
                .map(h -> h.toLowerCase(Locale.ROOT)).distinct().toList();
    }

    private static boolean isCharacterDevice(Path path) {
        try {
            int mode = (Integer) Files.getAttribute(path, "unix:mode");
            return (mode & 0170000) == 0020000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            try {
                return Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class).isOther();
            } catch (IOException e2) {
                return false;
            }
        }
    }

    /**
     * The lock file name cluster-glue uses ({@code st_ttylock.c}, facts §1.1): {@code LCK..} + the path with its
     * first five characters (assumed {@code /dev/}) dropped and every non-alphanumeric removed.
     */
    static String lockName(String ttydev) {
        String tail = ttydev.length() > 5 ? ttydev.substring(5) : "";
        return "LCK.." + tail.replaceAll("[^A-Za-z0-9]", "");
    }

    /**
     * Yes: {@code off} switches the outlet off at once ({@code Z} twice, 2 s apart) and succeeds only once
     * Register 1 says the output is off (facts §1.4; confirmation polled, {@link ApcSmartDialogue.Confirm#POLL}),
     * about 2–3 s, where a reset waits out the UPS's grace delay (20 s or more, facts §1.7.2).
     */
    @Override
    public boolean confirmsPowerOff() {
        return true;
    }

    @Override
    public synchronized List<String> hostList() {
        return hosts;
    }

    @Override
    public synchronized StonithResult status() {
        return ttydev == null ? StonithResult.INVAL : run(ApcSmartDialogue.Operation.STATUS);
    }

    @Override
    public synchronized StonithResult reset(ResetRequest request, String node) {
        if (ttydev == null || node == null) {
            return StonithResult.INVAL;
        }
        if (!hosts.contains(node.toLowerCase(Locale.ROOT))) {
            log.error("apcsmart: host '{}' not in hostlist {}", node, hosts);
            return StonithResult.BADHOST;
        }
        return run(switch (request) {
            case GENERIC_RESET -> ApcSmartDialogue.Operation.RESET;
            case POWER_OFF -> ApcSmartDialogue.Operation.POWER_OFF;
            case POWER_ON -> ApcSmartDialogue.Operation.POWER_ON;
        });
    }

    private StonithResult run(ApcSmartDialogue.Operation op) {
        Path device = Path.of(ttydev);
        UucpLock lock;
        try {
            lock = UucpLock.acquire(UucpLock.defaultDirectory(), lockName(ttydev), device, ProcessHandle.current().pid());
        } catch (IOException e) {
            log.error("apcsmart: {} failed: {}", op, e.getMessage());
            return StonithResult.OOPS;
        }
        try (ApcSmartLine line = ApcSmartLine.open(device.toRealPath(), clock)) {
            ApcSmartDialogue dialogue = new ApcSmartDialogue(op, initMode, operationTimeout.toNanos(),
                    ApcSmartDialogue.Confirm.POLL);
            StonithResult result = drive(dialogue, line);
            log.info("apcsmart: {} on {}: {}", op, ttydev, result);
            log.debug("apcsmart: {} dialogue: {}", op, String.join(" ", dialogue.timedTranscript()));
            return result;
        } catch (IOException e) {
            log.error("apcsmart: {} failed: {}", op, e.getMessage());
            return StonithResult.OOPS;
        } finally {
            lock.release();
        }
    }

    /** The thin I/O loop: write what is due, read what arrives, until the dialogue has a result. */
    private StonithResult drive(ApcSmartDialogue dialogue, ApcSmartLine line) {
        byte[] buf = new byte[256];
        dialogue.start(clock.nanoTime());
        while (dialogue.result().isEmpty()) {
            byte[] out = dialogue.bytesDue(clock.nanoTime());
            if (out.length > 0 && !line.write(out)) {
                dialogue.writeFailed(clock.nanoTime());
                break;
            }
            long wait = dialogue.nextDeadlineNanos() - clock.nanoTime();
            if (wait > 0) {
                int n = line.read(buf, Math.min(ApcSmartLine.READ_TIMEOUT_MS, Math.max(1, wait / 1_000_000L)));
                if (n > 0) {
                    dialogue.received(buf, n, clock.nanoTime());
                } else if (n < 0) {
                    parkBriefly(); // read error (line gone): keep the dialogue's deadlines, don't spin
                }
            }
        }
        return dialogue.result().orElseThrow();
    }

    private void parkBriefly() {
        try {
            sleeper.pause(Duration.ofMillis(ApcSmartLine.READ_TIMEOUT_MS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
