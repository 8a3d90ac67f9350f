package org.jheartbeat.sync.replication;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessExit;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Counts the entries below a source directory for the loss guard: files, directories, symlinks and
 * others, the directory itself not counted, symlinks not followed (except the directory itself),
 * mount points crossed as rsync {@code -a} crosses them; an unreadable subdirectory counts as one
 * entry and is not descended into.
 *
 * <p>Why {@code find(1)} and not a walk in the JVM: GNU find decides from {@code readdir}'s
 * {@code d_type} whether an entry is a directory, so it reads each directory once and never
 * {@code lstat}s a file, while {@link Files#walkFileTree} reads every entry's attributes. On
 * 10,000 files on ext4 that is about 9 ms against 40 to 75 ms (bench/replication-bench.sh), the
 * largest part of what a run with nothing to copy cost beyond rsync itself. The count runs
 * before every {@code delete: true} run, so it is on the path of every scheduled copy. When
 * {@code find} cannot be started the JVM walk is used.
 */
final class EntryCount {
    private static final OsProcessRunner RUNNER = new OsProcessRunner();
    /** find's exit status when it reported unreadable entries but went on. */
    private static final int FIND_SOME_ERRORS = 1;

    private EntryCount() {
    }

    /**
     * @param dir     an existing directory (absolute)
     * @param timeout limit for the count (a hung NFS source must not hold the run for ever)
     * @return entries below {@code dir}
     * @throws IOException if the count timed out, or find failed in another way than unreadable
     *                     entries (the message names the directory and find's first error line)
     */
    static long below(Path dir, Duration timeout) throws IOException {
        Counter out = new Counter();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ProcessExit exit;
        try {
            // -H: follow dir itself when it is a symlink; -printf .: one byte per entry, any name
            exit = RUNNER.stream(new ProcessSpec(List.of("find", "-H", dir.toString(), "-mindepth", "1", "-printf", "."),
                    Map.of("LC_ALL", "C"), timeout), null, out, new Head(err, 4096));
        } catch (java.io.InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            return walk(dir);
        }
        if (exit.timedOut()) {
            throw new IOException("counting the files of " + dir + " took longer than " + SyncText.human(timeout));
        }
        if (exit.exitCode() != 0 && exit.exitCode() != FIND_SOME_ERRORS) {
            throw new IOException("find " + dir + ": exit " + exit.exitCode()
                    + SyncText.lastLine(err.toString(StandardCharsets.UTF_8)));
        }
        return out.count;
    }

    /** The JVM walk, when find is missing: same rules, every entry's attributes read. */
    static long walk(Path dir) throws IOException {
        long[] n = {0};
        Files.walkFileTree(dir.toRealPath(), new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) {
                n[0]++;
                return FileVisitResult.CONTINUE;
            }
        });
        return n[0] - 1;
    }

    /** Counts bytes (one per entry); keeps none. */
    private static final class Counter extends OutputStream {
        private volatile long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }

    /** Keeps the first {@code limit} bytes. */
    private static final class Head extends OutputStream {
        private final ByteArrayOutputStream keep;
        private final int limit;

        Head(ByteArrayOutputStream keep, int limit) {
            this.keep = keep;
            this.limit = limit;
        }

        @Override
        public synchronized void write(int b) {
            if (keep.size() < limit) {
                keep.write(b);
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            keep.write(b, off, Math.min(len, Math.max(0, limit - keep.size())));
        }
    }
}
