package org.jheartbeat.core.media.serial;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.core.media.FrameSink;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.wire.Traffic;
import org.jheartbeat.core.wire.WirePacket;
import org.jheartbeat.core.time.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code serial} medium (Heartbeat 3.0.6 {@code serial.c}; facts G.1): classic frames over a
 * null-modem line, 8N1 (see {@link SerialLine} for the tty settings and why there is no flow control).
 *
 * <ul>
 *   <li><b>Reader</b> thread {@code hb-serial-read-<device>}: reads in semi-blocking mode, feeds a
 *       {@link SerialFramer} and calls {@code sink.onFrame(linkName, devicePath, frame)}. It also owns
 *       the device's lifecycle: on a read error, a vanished device, or a write error reported by the
 *       writer it logs {@code EOF in ttygets [dev]: …} once, closes the port, releases the lock, and
 *       then tries to reopen the same path every 1 s, so a replugged line (a new PTY behind the same
 *       symlink) resumes without restarting the daemon.</li>
 *   <li><b>Writer</b> thread {@code hb-serial-write-<device>}: drains a queue bounded at
 *       {@value #SEND_QUEUE_SECONDS} s of line time ({@link SendQueue}: beats first, then other messages,
 *       then retransmissions; retransmissions dropped first when full) in 512-byte fragments paced at the line rate by {@link SerialPacer}.
 *       A fragment write that takes over 500 ms logs {@code TTY write timeout on [dev] (no connection or
 *       bad cable? [see documentation])} at most once an hour, as Heartbeat does; frames queued during
 *       such a stall are dropped, since they would arrive late. While the line is down, frames are dropped.</li>
 *   <li>The line is locked with a uucp lock file ({@link UucpLock}) while open.</li>
 * </ul>
 */
public final class SerialMedium implements Medium {
    /** Line speeds Heartbeat 3.0.6 accepts ({@code baud} in ha.cf), bits/s. */
    public static final Set<Integer> SPEEDS = Set.copyOf(MediumDecl.Serial.RATES);
    /** Heartbeat's default {@code baud}, bits/s. */
    public static final int DEFAULT_BAUD = MediumDecl.Serial.DEFAULT_BAUD;
    /** Seconds of line time the send queue may hold; retransmissions are dropped first, then the oldest frames (stale beats are useless). */
    public static final int SEND_QUEUE_SECONDS = 4;
    private static final Logger LOG = LoggerFactory.getLogger(SerialMedium.class);
    private static final long REOPEN_INTERVAL_MS = 1000;

    private final Path devicePath;
    private final int baud;
    private final String linkName;
    private final Path lockDir;
    private final SerialWriter writeWork;
    private final SerialFramer framer = new SerialFramer();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicLong reopens = new AtomicLong();
    private volatile SerialLine line;
    private volatile SerialLine failedLine;
    private volatile String failure;
    private volatile long garbage;
    private volatile long received;
    private volatile long discarded;
    private UucpLock lock;
    private boolean failureLogged;
    private Thread reader;
    private Thread writer;
    private boolean started;
    private boolean closed;

    /**
     * A serial medium with the default lock directory ({@code /run/lock}, else {@code /var/lock}).
     *
     * @param devicePath the device as written in ha.cf, e.g. {@code /dev/ttyS0}; may be a symlink
     * @param baud       line speed, bits/s, one of {@link #SPEEDS}
     * @param linkName   the link name frames are attributed to (Heartbeat uses the device path)
     * @throws IllegalArgumentException if {@code baud} is not a Heartbeat speed
     */
    public SerialMedium(Path devicePath, int baud, String linkName) {
        this(devicePath, baud, linkName, UucpLock.defaultDirectory(), MonotonicClock.system());
    }

    /**
     * @param lockDir directory for the {@code LCK..<device>} file, e.g. {@code /run/lock}
     * @param clock   monotonic time for pacing and write-stall detection
     * @see #SerialMedium(Path, int, String)
     */
    public SerialMedium(Path devicePath, int baud, String linkName, Path lockDir, MonotonicClock clock) {
        if (!SPEEDS.contains(baud)) {
            throw new IllegalArgumentException("serial baud " + baud + " is not one of " + SPEEDS);
        }
        this.devicePath = devicePath;
        this.baud = baud;
        this.linkName = linkName;
        this.lockDir = lockDir;
        this.writeWork = new SerialWriter(devicePath, baud, sendQueueBytes(baud), clock, () -> line, (l, why) -> {
            failure = why;
            failedLine = l;
        });
    }

    /**
     * Opens and locks the device as {@link #start} does, then closes it again: whether a start could open
     * this line now (the checks before a start: {@code hb config check} and the daemon's own). Starts no thread.
     *
     * @param devicePath the device as written in ha.cf
     * @param baud       line speed, bits/s, one of {@link #SPEEDS}
     * @throws IOException when the device does not exist, is not a character device, its lock is held by a live
     *                     process, or it cannot be opened as a serial line (e.g. not a tty, no such port)
     */
    public static void probe(Path devicePath, int baud) throws IOException {
        SerialMedium m = new SerialMedium(devicePath, baud, devicePath.toString());
        m.open(m.resolveDevice());
        m.closeLine();
    }

    /** The link name given at construction; Heartbeat names serial links by device path ({@code Link node2:/dev/ttyS0 dead.}). */
    @Override
    public String linkName() {
        return linkName;
    }

    /** For logs: {@code serial <device> <baud> baud}. */
    @Override
    public String describe() {
        return "serial " + devicePath + " " + baud + " baud";
    }

    /**
     * Opens and locks the device and starts the reader and writer threads.
     *
     * @throws IOException if the device does not exist or is not a character device, the lock is held
     *                     by a live process, or the port cannot be opened
     * @throws IllegalStateException if already started or closed
     */
    @Override
    public synchronized void start(FrameSink sink) throws IOException {
        if (started || closed) {
            throw new IllegalStateException(describe() + ": already " + (closed ? "closed" : "started"));
        }
        open(resolveDevice());
        started = true;
        LOG.info("Starting serial heartbeat on tty {} ({} baud)", devicePath, baud);
        String name = devicePath.getFileName().toString();
        reader = new Thread(() -> readLoop(sink), "hb-serial-read-" + name);
        writer = new Thread(writeWork, "hb-serial-write-" + name);
        for (Thread t : List.of(reader, writer)) {
            t.setDaemon(true);
            t.start();
        }
    }

    /** Queues the packet's classic frame for writing, as a first-time message; never blocks. */
    @Override
    public void send(WirePacket packet) {
        sendFrame(packet.classic());
    }

    /** Queues the packet's classic frame in its lane: beats are written first, retransmissions dropped first. */
    @Override
    public void send(WirePacket packet, Traffic traffic) {
        writeWork.offer(packet.classic(), traffic);
    }

    /** Queues {@code frame} (a complete classic frame, {@code >>>\n}…{@code <<<\n}) for writing; never blocks. */
    public void sendFrame(byte[] frame) {
        writeWork.offer(frame);
    }

    /**
     * The send-queue bound for a line speed: {@value #SEND_QUEUE_SECONDS} s of line time at 8N1,
     * at least 4 KiB, in bytes.
     */
    public static int sendQueueBytes(int baud) {
        return Math.max(4096, baud / SerialPacer.BITS_PER_BYTE_8N1 * SEND_QUEUE_SECONDS);
    }

    /** Stops both threads, closes the port and releases the lock; idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopping.countDown();
        if (writer != null) {
            writer.interrupt();
        }
        join(reader);
        closeLine(); // the reader closes on exit; this covers a reader stuck past the join timeout
        join(writer);
    }

    /** The counters for {@code hb status}: garbage bytes, frames in/discarded/dropped, reopens, write timeouts. */
    @Override
    public java.util.Map<String, Long> stats() {
        SerialStats st = serialStats();
        java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
        m.put("garbage bytes", st.garbageBytes());
        m.put("frames in", st.framesReceived());
        m.put("frames discarded", st.framesDiscarded());
        m.put("frames dropped on send", st.framesDroppedOnSend());
        m.put("reopens", st.reopenCount());
        m.put("write timeouts", st.writeTimeouts());
        m.put("connected", st.connected() ? 1L : 0L);
        return m;
    }

    /** A snapshot of this medium's counters. */
    public SerialStats serialStats() {
        return new SerialStats(garbage, received, discarded, writeWork.dropped(),
                reopens.get(), writeWork.writeTimeouts(), line != null);
    }

    /** The lock file currently held, if the device is open (for diagnostics and tests). */
    public synchronized Optional<Path> lockFile() {
        return Optional.ofNullable(lock).map(UucpLock::file);
    }

    private Path resolveDevice() throws IOException {
        if (!Files.exists(devicePath)) {
            throw new IOException("serial device " + devicePath + " does not exist; name the port the null-modem"
                    + " cable is plugged into (ls /dev/ttyS* /dev/ttyUSB*), or remove the serial line");
        }
        Path real = devicePath.toRealPath();
        Object mode = Files.getAttribute(real, "unix:mode");
        if (!(mode instanceof Integer m) || (m & 0170000) != 0020000) {
            throw new IOException("serial device " + devicePath + " (" + real + ") is not a character device");
        }
        return real;
    }

    private synchronized void open(Path real) throws IOException {
        UucpLock l = UucpLock.acquire(lockDir, real, ProcessHandle.current().pid());
        try {
            line = SerialLine.open(real, baud);
            lock = l;
        } catch (IOException | RuntimeException e) {
            l.release();
            throw e;
        }
    }

    private synchronized void closeLine() {
        SerialLine l = line;
        line = null;
        if (l != null) {
            l.close();
        }
        if (lock != null) {
            lock.release();
            lock = null;
        }
    }

    private void readLoop(FrameSink sink) {
        byte[] buf = new byte[4096];
        try {
            while (stopping.getCount() > 0) {
                SerialLine l = line;
                if (l == null) {
                    if (!stopping.await(REOPEN_INTERVAL_MS, TimeUnit.MILLISECONDS)) {
                        reopen();
                    }
                    continue;
                }
                int n = l.read(buf);
                if (n > 0) {
                    deliver(sink, framer.feed(buf, 0, n));
                } else if (n < 0) {
                    lineFailed(l, "read error (errno " + l.lastErrorCode() + ")");
                } else if (failedLine == l) {
                    lineFailed(l, failure);
                } else {
                    checkDevice(l);
                }
                writeWork.checkStall();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeLine();
        }
    }

    private void deliver(FrameSink sink, List<byte[]> frames) {
        for (byte[] f : frames) {
            try {
                sink.onFrame(linkName, devicePath.toString(), f);
            } catch (RuntimeException e) {
                LOG.warn("{}: frame sink failed: {}", describe(), e.toString());
            }
        }
        publishCounters();
    }

    private void publishCounters() {
        garbage = framer.garbageBytes();
        received = framer.frames();
        discarded = framer.framesDiscarded();
    }

    private void checkDevice(SerialLine l) {
        try {
            Path now = devicePath.toRealPath();
            if (!now.equals(l.device())) {
                lineFailed(l, devicePath + " now leads to " + now);
            }
        } catch (IOException e) {
            lineFailed(l, "device vanished");
        }
    }

    private void lineFailed(SerialLine l, String why) {
        if (!failureLogged) {
            LOG.error("EOF in ttygets [{}]: {}; reopening every {} ms", devicePath, why, REOPEN_INTERVAL_MS);
            failureLogged = true;
        }
        synchronized (this) {
            if (line == l) {
                closeLine();
            }
        }
        framer.reset();
        publishCounters();
    }

    private void reopen() {
        try {
            open(resolveDevice());
        } catch (IOException e) {
            LOG.debug("{}: reopen failed: {}", describe(), e.getMessage());
            return;
        }
        reopens.incrementAndGet();
        failureLogged = false;
        LOG.info("{}: serial line back ({})", describe(), line == null ? "?" : line.device());
    }

    private static void join(Thread t) {
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
