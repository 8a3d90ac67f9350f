package org.jheartbeat.core.exec;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture files of programs that have ended, kept small while something may still write to them.
 *
 * <p>A start script that puts a daemon in the background without redirecting its output ({@code
 * daemon &}) leaves it holding the script's stdout and stderr: the runner's capture files. Deleting
 * them frees no space while the daemon lives, and everything it writes from then on (a debug log, a
 * loop of errors) would fill the file system unseen. So a finished program's capture file is
 * <em>adopted</em> here instead: this class opens it, unlinks its name, and truncates it through its
 * own descriptor every {@link #TRUNCATE_EVERY_MS} ms, so its disk use stays at what the writer writes
 * in that time (the writer's offset runs on and leaves a hole, which takes no space). Every {@link
 * #SCAN_EVERY_MS} ms the descriptors of all processes ({@code /proc/PID/fd}) are searched for the
 * adopted files; one that no other process holds is closed and forgotten. At most {@link #MAX_ADOPTED}
 * files are kept; beyond that the oldest is let go (with a warning).
 *
 * <p>One daemon thread serves the whole JVM; it starts with the first adoption.
 */
final class LeftoverCaptures {
    /** How often adopted files are truncated: every second. */
    static final long TRUNCATE_EVERY_MS = 1_000;
    /** How often the process table is searched for their holders: every 10 s. */
    static final long SCAN_EVERY_MS = 10_000;
    /** Files kept at most. */
    static final int MAX_ADOPTED = 4_096;
    private static final Logger LOG = LoggerFactory.getLogger(LeftoverCaptures.class);
    private static final LeftoverCaptures SHARED = new LeftoverCaptures(Path.of("/proc"));

    /** An adopted file: our descriptor, and the name its holders' {@code /proc/PID/fd} links show. */
    private record Adopted(FileChannel channel, String deletedName) { }

    private final Path proc;
    private final Deque<Adopted> adopted = new ArrayDeque<>();
    private ScheduledExecutorService thread;
    private long ticks;

    LeftoverCaptures(Path proc) {
        this.proc = proc;
    }

    /** The JVM's instance. */
    static LeftoverCaptures shared() {
        return SHARED;
    }

    /**
     * Takes over a finished program's capture file: after this call its name is gone and its space is
     * kept small for as long as any process still writes to it. Nothing here blocks or minds the calling
     * thread's interrupt flag (the runner adopts its files while an interrupt is being handled).
     *
     * @param file the capture file (a missing one is ignored)
     * @throws IOException if it cannot be deleted
     */
    void adopt(Path file) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            return;
        }
        try {
            Files.delete(file);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        Adopted a = new Adopted(ch, file.toAbsolutePath() + " (deleted)");
        synchronized (this) {
            adopted.addLast(a);
            if (adopted.size() > MAX_ADOPTED) {
                Adopted oldest = adopted.removeFirst();
                LOG.warn("more than {} finished programs' outputs still held open by their background children;"
                        + " no longer truncating the oldest", MAX_ADOPTED);
                close(oldest);
            }
            if (thread == null) {
                thread = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "hb-capture-leftovers");
                    t.setDaemon(true);
                    return t;
                });
                thread.scheduleWithFixedDelay(this::tick, TRUNCATE_EVERY_MS, TRUNCATE_EVERY_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Files adopted and not yet let go. */
    synchronized int size() {
        return adopted.size();
    }

    /** Truncates every adopted file; every {@link #SCAN_EVERY_MS} ms also lets go of those nobody else holds. */
    private void tick() {
        List<Adopted> now;
        synchronized (this) {
            now = new ArrayList<>(adopted);
        }
        for (Adopted a : now) {
            try {
                a.channel().truncate(0);
            } catch (IOException e) {
                LOG.debug("cannot truncate {}: {}", a.deletedName(), e.toString());
            }
        }
        if (++ticks % (SCAN_EVERY_MS / TRUNCATE_EVERY_MS) == 0) {
            release();
        }
    }

    /** Searches the process table once and closes every adopted file that no other process holds. */
    synchronized void release() {
        if (adopted.isEmpty()) {
            return;
        }
        Set<String> held = heldNames();
        adopted.removeIf(a -> {
            if (held.contains(a.deletedName())) {
                return false;
            }
            close(a);
            return true;
        });
    }

    /** The targets of every other process's descriptors that name a deleted file. */
    private Set<String> heldNames() {
        Set<String> out = new HashSet<>();
        String self = Long.toString(ProcessHandle.current().pid());
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, "[0-9]*")) {
            for (Path pid : pids) {
                if (pid.getFileName().toString().equals(self)) {
                    continue;
                }
                try (DirectoryStream<Path> fds = Files.newDirectoryStream(pid.resolve("fd"))) {
                    for (Path fd : fds) {
                        try {
                            String target = Files.readSymbolicLink(fd).toString();
                            if (target.endsWith(" (deleted)")) {
                                out.add(target);
                            }
                        } catch (IOException | UnsupportedOperationException e) {
                            // closed meanwhile
                        }
                    }
                } catch (IOException e) {
                    // the process ended, or its descriptors are not ours to see
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot read {}: {}", proc, e.toString());
        }
        return out;
    }

    private static void close(Adopted a) {
        try {
            a.channel().close();
        } catch (IOException e) {
            LOG.debug("cannot close {}: {}", a.deletedName(), e.toString());
        }
    }
}
