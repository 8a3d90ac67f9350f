package org.jheartbeat.stonith.device.meatware;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.FixedTypeDevice;
import org.jheartbeat.stonith.device.HostList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Type {@code meatware}, parameter {@code hostlist} (optional by name: {@code timeout}, seconds):
 * a human does the fencing, as cluster-glue's meatware plugin (facts stonith-sync §2.1).
 *
 * <p>{@link #reset} logs at ERROR, prefixed {@code CRIT:}, "OPERATOR INTERVENTION REQUIRED to
 * reset &lt;node&gt;. ..." and blocks until the operator confirms that the node is really down, or
 * until the timeout (default {@link #DEFAULT_TIMEOUT}; then TIMEOUT). Confirmation channels:
 * <ol>
 * <li>in-process: {@link #confirm(String)} (seen at the next poll, within {@link #POLL_INTERVAL});</li>
 * <li>from another process ({@code hb stonith confirm NODE}, via {@link #confirmByFile}): a file
 *     handshake in the run dir (default the daemon's state dir {@code /var/lib/jheartbeat}).
 *     For each reset the device writes a fresh random token to {@code meatware.<node>} (mode 600,
 *     written to a temp file and renamed, so it is never seen half-written); the operator copies it
 *     to {@code meatware.<node>.ack} (by hand: {@code cp meatware.NODE meatware.NODE.ack}). The
 *     device polls every {@link #POLL_INTERVAL} and accepts the ack only if it holds exactly the
 *     current token, so an ack left over from an earlier request, or one still being written,
 *     never confirms a new one. A stale ack is deleted before the request is published; both files
 *     are deleted when the reset ends.</li>
 * </ol>
 * Plain files instead of cluster-glue's FIFO: Java cannot wait on a FIFO with a timeout without
 * a blocked thread, and a file survives a confirmer that starts before the reader.
 *
 * <p>Nodes not in the list are BADHOST; names must be plain host names (they become file names).
 * {@link #status()} is OK when the run dir is a writable directory, else ACCESS.
 */
public final class MeatwareDevice extends FixedTypeDevice {
    public static final String TYPE = "meatware";
    /** Default wait for the operator: 24 h. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofHours(24);
    /** How often the ack file is checked: 200 ms. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(200);
    private static final String HOST_PATTERN = "[a-z0-9][a-z0-9._-]*";
    private static final Logger LOG = LoggerFactory.getLogger(MeatwareDevice.class);

    private final Path runDir;
    private final MonotonicClock clock;
    private final Sleeper sleeper;
    private Duration timeout;
    private List<String> hosts = List.of();
    private final Map<String, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

    /** Run dir {@link StateDirectory#DEFAULT}, timeout {@link #DEFAULT_TIMEOUT}. */
    public MeatwareDevice() {
        this(StateDirectory.DEFAULT, DEFAULT_TIMEOUT);
    }

    /**
     * @param runDir  where the request/ack files live (created 0700 if missing at configure)
     * @param timeout how long a reset waits for the operator, positive; the {@code timeout}
     *                parameter overrides it
     */
    public MeatwareDevice(Path runDir, Duration timeout) {
        this(runDir, timeout, MonotonicClock.system(), Sleeper.system());
    }

    /**
     * @param runDir  where the request/ack files live (created 0700 if missing at configure)
     * @param timeout how long a reset waits for the operator, positive; the {@code timeout}
     *                parameter overrides it
     * @param clock   measures the wait against the timeout
     * @param sleeper the {@link #POLL_INTERVAL} pause between checks for a confirmation
     */
    public MeatwareDevice(Path runDir, Duration timeout, MonotonicClock clock, Sleeper sleeper) {
        super(TYPE, List.of("hostlist"));
        this.runDir = runDir;
        this.timeout = timeout;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** @throws StonithConfigException for an empty hostlist, a bad host name, timeout or run dir */
    @Override
    public void configure(Map<String, String> params) throws StonithConfigException {
        for (String key : params.keySet()) {
            if (!key.equals("hostlist") && !key.equals("timeout")) {
                throw new StonithConfigException("meatware: unknown parameter '" + key + "'; valid names: hostlist timeout");
            }
        }
        List<String> list = HostList.required(params, "hostlist", TYPE);
        for (String h : list) {
            if (!h.matches(HOST_PATTERN)) {
                throw new StonithConfigException("meatware: '" + h + "' in hostlist is not a host name");
            }
        }
        String t = params.get("timeout");
        if (t != null && !t.isBlank()) {
            try {
                timeout = Duration.ofSeconds(Long.parseLong(t.strip()));
            } catch (NumberFormatException e) {
                throw new StonithConfigException("meatware: parameter 'timeout' must be seconds, was '" + t + "'");
            }
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new StonithConfigException("meatware: parameter 'timeout' must be positive");
        }
        try {
            if (!Files.isDirectory(runDir)) {
                Files.createDirectories(runDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
        } catch (IOException e) {
            throw new StonithConfigException("meatware: cannot create run dir " + runDir + ": " + e.getMessage());
        }
        hosts = list;
    }

    @Override
    public StonithResult status() {
        return Files.isDirectory(runDir) && Files.isWritable(runDir) ? StonithResult.OK : StonithResult.ACCESS;
    }

    @Override
    public List<String> hostList() {
        return hosts;
    }

    /**
     * Confirms, in-process, that {@code node} has been reset by hand.
     *
     * @return {@code true} if a reset of that node was waiting (and now returns OK)
     */
    public boolean confirm(String node) {
        CompletableFuture<Void> f = pending.get(HostList.normalize(node));
        return f != null && f.complete(null);
    }

    /**
     * Confirms from another process: copies the pending request's token into the ack file
     * (temp file mode 600, then atomic rename). What {@code hb stonith confirm NODE} calls.
     *
     * @param runDir the device's run dir
     * @param node   the node the operator has reset
     * @throws IllegalStateException if no reset of that node is pending (no request file)
     * @throws IOException           if the files cannot be read or written
     */
    public static void confirmByFile(Path runDir, String node) throws IOException {
        String host = HostList.normalize(node);
        if (!host.matches(HOST_PATTERN)) {
            throw new IllegalArgumentException("'" + node + "' is not a host name");
        }
        String token;
        try {
            token = Files.readString(requestFile(runDir, host), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("no meatware reset of " + host + " is pending in " + runDir, e);
        }
        writeAtomically(ackFile(runDir, host), token);
    }

    /** Blocks until confirmed or timed out; see the class comment. */
    @Override
    public StonithResult reset(ResetRequest request, String node) {
        Optional<String> listed = HostList.listed(node, hosts, TYPE, "hostlist", LOG);
        if (listed.isEmpty()) {
            return StonithResult.BADHOST;
        }
        String host = listed.get();
        String token = UUID.randomUUID() + "\n";
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (pending.putIfAbsent(host, done) != null) {
            LOG.error("meatware: a reset of {} is already waiting for the operator", host);
            return StonithResult.INVAL;
        }
        Path requestPath = requestFile(runDir, host);
        Path ack = ackFile(runDir, host);
        try {
            Files.deleteIfExists(ack);
            writeAtomically(requestPath, token);
            LOG.error("CRIT: OPERATOR INTERVENTION REQUIRED to reset {}. Make sure {} is powered off or reset, "
                    + "then run 'hb stonith confirm {}' (or: cp {} {}). Waiting up to {} s.",
                    host, host, host, requestPath, ack, timeout.toSeconds());
            long deadline = clock.nanoTime() + timeout.toNanos();
            while (true) {
                if (done.isDone()) {
                    LOG.info("meatware: operator confirmed the reset of {} (in-process)", host);
                    return StonithResult.OK;
                }
                if (token.equals(readOrEmpty(ack))) {
                    LOG.info("meatware: operator confirmed the reset of {} ({})", host, ack);
                    return StonithResult.OK;
                }
                long left = deadline - clock.nanoTime();
                if (left <= 0) {
                    LOG.error("meatware: nobody confirmed the reset of {} within {} s", host, timeout.toSeconds());
                    return StonithResult.TIMEOUT;
                }
                sleeper.pause(Duration.ofNanos(Math.min(left, POLL_INTERVAL.toNanos())));
            }
        } catch (IOException e) {
            LOG.error("meatware: cannot publish the request for {} in {}: {}", host, runDir, e.getMessage());
            return StonithResult.ACCESS;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StonithResult.RESETFAIL;
        } finally {
            pending.remove(host, done);
            deleteQuietly(requestPath);
            deleteQuietly(ack);
        }
    }

    /** {@code <runDir>/meatware.<node>}: the pending request's token. */
    public static Path requestFile(Path runDir, String node) {
        return runDir.resolve("meatware." + node);
    }

    /** {@code <runDir>/meatware.<node>.ack}: the operator's copy of the token. */
    public static Path ackFile(Path runDir, String node) {
        return runDir.resolve("meatware." + node + ".ack");
    }

    private static void writeAtomically(Path target, String content) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(tmp, content, StandardCharsets.US_ASCII);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "";
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.warn("meatware: cannot delete {}: {}", file, e.getMessage());
        }
    }
}
