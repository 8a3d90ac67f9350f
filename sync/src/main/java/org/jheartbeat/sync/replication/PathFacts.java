package org.jheartbeat.sync.replication;

import java.util.List;
import org.jheartbeat.sync.MountTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What the guard needs to know about one source directory, measured just before a run.
 *
 * @param path        the source directory
 * @param exists      it exists and is a directory (a symlink to a directory counts)
 * @param mountPoint  it is a mount target in {@code /proc/self/mountinfo}
 * @param fileCount   entries below it (files, directories, symlinks, others; the directory itself
 *                    not counted); 0 when it does not exist
 */
public record PathFacts(Path path, boolean exists, boolean mountPoint, long fileCount) {
    public PathFacts {
        Objects.requireNonNull(path, "path");
        if (fileCount < 0) {
            throw new IllegalArgumentException("fileCount must be >= 0");
        }
    }

    /** Limit of {@link #probe(Path, List)}'s count. */
    static final Duration COUNT_TIMEOUT = Duration.ofHours(1);

    /**
     * The count's limit in a run: the job's {@code timeout}, but at least a minute (a timeout
     * meant for one rsync attempt of a tiny job must not cut the count short on a busy machine).
     *
     * @param jobTimeout the job's {@code timeout}
     * @return the limit
     */
    public static Duration countLimit(Duration jobTimeout) {
        return jobTimeout.compareTo(Duration.ofMinutes(1)) < 0 ? Duration.ofMinutes(1) : jobTimeout;
    }

    /**
     * Measures a directory, counting within {@link #COUNT_TIMEOUT}.
     *
     * @param dir    the source directory
     * @param mounts the mount table to check it against
     * @return the facts
     * @throws IOException see {@link #probe(Path, List, Duration)}
     */
    public static PathFacts probe(Path dir, List<MountTable.Entry> mounts) throws IOException {
        return probe(dir, mounts, COUNT_TIMEOUT);
    }

    /**
     * Measures a directory: counts the whole tree without following symlinks ({@link EntryCount}).
     *
     * @param dir          the source directory
     * @param mounts       the mount table to check it against
     * @param countTimeout limit of the count (the job's {@code timeout})
     * @return the facts
     * @throws IOException if the tree cannot be counted or the count runs over {@code countTimeout}
     *                     (unreadable subdirectories are counted as one entry and not descended into)
     */
    public static PathFacts probe(Path dir, List<MountTable.Entry> mounts, Duration countTimeout) throws IOException {
        if (!Files.isDirectory(dir)) {
            return new PathFacts(dir, false, false, 0);
        }
        return new PathFacts(dir, true, MountTable.isMountPoint(mounts, dir), EntryCount.below(dir, countTimeout));
    }
}
