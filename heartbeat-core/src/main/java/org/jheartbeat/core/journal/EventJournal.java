package org.jheartbeat.core.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.core.time.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event journal of one process, kept in its state directory: one {@link EventCodec} line per event in
 * {@code NAME} ({@link JournalFiles#DAEMON} for the daemon), numbered from 1 and on across restarts (the
 * last event's number is read at open), and bounded: past {@link #maxBytes} bytes the file becomes
 * {@code NAME.1} (replacing the one before) and a new one is begun, so the journal is at most two files,
 * about 2 MiB. Files are created mode 0640, owned by the writer (root for the daemon) and group
 * {@code haclient} where that group exists, as the state directory is: its members may read it with
 * {@code hb events} while no daemon runs.
 *
 * <p>{@link #record} is the loop's {@link EventSink}: it only offers the event to a bounded queue (of
 * {@link #DEFAULT_QUEUE}); a full queue (a disk that hangs) drops the event and counts it, with one WARN line
 * at most every 10 s. A thread of its own ({@code hb-journal}) numbers, writes and fsyncs the queued events
 * a batch at a time. At open, a last line cut by a crash mid-write is cut off, so the next event starts on
 * a line of its own; readers skip such lines anyway ({@link JournalFiles}).
 */
public final class EventJournal implements EventSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventJournal.class);
    /** Size at which the current file is rotated, in bytes (1 MiB). */
    public static final long DEFAULT_MAX_BYTES = 1 << 20;
    /** Events queued for the writer at most. */
    public static final int DEFAULT_QUEUE = 1024;
    /** Events written per batch at most. */
    private static final int BATCH = 256;
    /** Least time between two WARN lines about dropped events, in ns. */
    private static final long DROP_LOG_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final String MODE = "rw-r-----";
    /** How often an idle writer looks whether the journal is closing, in ms. */
    private static final long POLL_MILLIS = 250;

    private final Path dir;
    private final String name;
    private final long maxBytes;
    private final MonotonicClock clock;
    private final BlockingQueue<ClusterEvent> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong lastDropLog = new AtomicLong(Long.MIN_VALUE);
    private final Object fileLock = new Object();
    private final Thread writer;
    private volatile boolean closing;
    private long seq;
    private FileChannel out;

    private EventJournal(Path dir, String name, long maxBytes, int queueSize, MonotonicClock clock) {
        this.dir = dir;
        this.name = name;
        this.maxBytes = maxBytes;
        this.clock = clock;
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.writer = new Thread(this::writeLoop, "hb-journal");
        this.writer.setDaemon(true);
    }

    /**
     * Opens (creating if missing) the journal {@code name} in {@code dir}, which must exist, and starts its
     * writer thread.
     *
     * @param maxBytes  rotate the current file once it holds this many bytes, ≥ 1
     * @param queueSize events waiting for the writer at most, ≥ 1
     * @param clock     for the rate limit of the WARN line about dropped events
     * @throws IOException when the files cannot be read or created (the message names the file)
     */
    public static EventJournal open(Path dir, String name, long maxBytes, int queueSize, MonotonicClock clock)
            throws IOException {
        if (maxBytes < 1 || queueSize < 1) {
            throw new IllegalArgumentException("journal bounds must be positive: " + maxBytes + " bytes, " + queueSize);
        }
        EventJournal j = unstarted(dir, name, maxBytes, queueSize, clock);
        j.writer.start();
        return j;
    }

    /** As {@link #open(Path, String, long, int, MonotonicClock)} with the writer not started yet (tests: a full queue). */
    static EventJournal unstarted(Path dir, String name, long maxBytes, int queueSize, MonotonicClock clock)
            throws IOException {
        EventJournal j = new EventJournal(dir, name, maxBytes, queueSize, clock);
        j.seq = JournalFiles.lastSeq(dir, name);
        j.out = j.openCurrent();
        return j;
    }

    /** Starts the writer of a journal made by {@link #unstarted}. */
    void startWriter() {
        writer.start();
    }

    /** The daemon's journal: {@link JournalFiles#DAEMON} in {@code stateDir}, 1 MiB per file. */
    public static EventJournal open(Path stateDir) throws IOException {
        return open(stateDir, JournalFiles.DAEMON, DEFAULT_MAX_BYTES, DEFAULT_QUEUE, MonotonicClock.system());
    }

    /** Queues {@code event} for the writer; drops and counts it when the queue is full or the journal closed. */
    @Override
    public void record(ClusterEvent event) {
        if (closing || !queue.offer(event)) {
            long n = dropped.incrementAndGet();
            long now = clock.nanoTime();
            long last = lastDropLog.get();
            if ((last == Long.MIN_VALUE || now - last >= DROP_LOG_NANOS) && lastDropLog.compareAndSet(last, now)) {
                LOG.warn("event journal {}: {} events dropped so far (the writer is behind or closed); this one: {} {}",
                        current(), n, event.kind().wire(), event.subject());
            }
        }
    }

    /** Events dropped because the queue was full (or the journal closed) since open. */
    public long dropped() {
        return dropped.get();
    }

    /** Events written since open. */
    public long written() {
        return written.get();
    }

    /**
     * The newest {@code max} events at or after {@code sinceMillis}, oldest first, as written so far (see
     * {@link JournalFiles#read}); never during a rotation.
     *
     * @throws IOException when a file cannot be read
     */
    public List<ClusterEvent> read(long sinceMillis, int max) throws IOException {
        synchronized (fileLock) {
            return JournalFiles.read(dir, name, sinceMillis, max);
        }
    }

    /** The current file. */
    public Path current() {
        return JournalFiles.current(dir, name);
    }

    /**
     * Writes what is queued, then stops the writer (waiting at most {@code 5 s} for a disk that hangs); events
     * recorded afterwards are dropped and counted.
     */
    @Override
    public void close() {
        closing = true;
        try {
            writer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (fileLock) {
            closeQuietly();
        }
    }

    private void writeLoop() {
        List<ClusterEvent> batch = new ArrayList<>(BATCH);
        while (true) {
            // polled, not interrupted: an interrupt would close the file channel mid-write
            try {
                ClusterEvent first = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                }
            } catch (InterruptedException e) {
                closing = true;
            }
            queue.drainTo(batch, BATCH - batch.size());
            if (batch.isEmpty()) {
                if (closing) {
                    return;
                }
                continue;
            }
            try {
                write(batch);
            } catch (IOException | RuntimeException e) {
                dropped.addAndGet(batch.size());
                LOG.error("event journal {}: {} events not written: {}", current(), batch.size(), e.toString());
            }
            batch.clear();
        }
    }

    /** Numbers, writes and fsyncs one batch, rotating first when it would pass the bound. */
    private void write(List<ClusterEvent> batch) throws IOException {
        StringBuilder text = new StringBuilder();
        long n = seq;
        for (ClusterEvent e : batch) {
            text.append(EventCodec.toJson(e.numbered(++n))).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        synchronized (fileLock) {
            if (out == null) {
                out = openCurrent();
            }
            if (out.size() > 0 && out.size() + bytes.length > maxBytes) {
                rotate();
            }
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) {
                out.write(buf);
            }
            out.force(false);
        }
        seq = n;
        written.addAndGet(batch.size());
    }

    private void rotate() throws IOException {
        out.close();
        out = null;
        Files.move(current(), JournalFiles.previous(dir, name), StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        out = openCurrent();
    }

    /** Opens the current file for appending (created 0640), cutting off a torn last line first. */
    private FileChannel openCurrent() throws IOException {
        Path f = current();
        boolean created = !Files.exists(f);
        FileChannel ch = created
                ? FileChannel.open(f, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(MODE)))
                : FileChannel.open(f, StandardOpenOption.WRITE);
        try {
            if (created) {
                haclientGroup(f);
            }
            long size = ch.size();
            long end = completeLinesEnd(f, size);
            if (end < size) {
                LOG.warn("event journal {}: the last line was cut ({} bytes, a crash mid-write?); dropped", f,
                        size - end);
                ch.truncate(end);
            }
            ch.position(end);
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** The offset just after the file's last newline (0 if it has none). */
    private static long completeLinesEnd(Path f, long size) throws IOException {
        if (size == 0) {
            return 0;
        }
        try (FileChannel r = FileChannel.open(f, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(4096);
            long pos = size;
            while (pos > 0) {
                long from = Math.max(0, pos - one.capacity());
                one.clear().limit((int) (pos - from));
                while (one.hasRemaining() && r.read(one, from + one.position()) > 0) {
                    // fill the window
                }
                for (int i = one.position() - 1; i >= 0; i--) {
                    if (one.get(i) == '\n') {
                        return from + i + 1;
                    }
                }
                pos = from;
            }
            return 0;
        }
    }

    private static void haclientGroup(Path f) {
        try {
            GroupPrincipal g = f.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("haclient");
            Files.getFileAttributeView(f, PosixFileAttributeView.class).setGroup(g);
        } catch (UserPrincipalNotFoundException e) {
            // no haclient group: the file stays in the writer's group, readable by root only
        } catch (IOException e) {
            LOG.debug("event journal {}: cannot give it to group haclient: {}", f, e.getMessage());
        }
    }

    private void closeQuietly() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            LOG.debug("closing event journal {}: {}", current(), e.getMessage());
        }
        out = null;
    }
}
