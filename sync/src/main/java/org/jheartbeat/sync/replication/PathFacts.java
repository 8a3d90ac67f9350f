package org.jheartbeat.sync.replication;

import java.util.List;
import org.jheartbeat.sync.MountTable;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
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

    /**
     * Measures a directory: walks the whole tree without following symlinks.
     *
     * @param dir    the source directory
     * @param mounts the mount table to check it against
     * @return the facts
     * @throws IOException if the tree cannot be walked (unreadable subdirectories are counted as
     *                     one entry and not descended into)
     */
    public static PathFacts probe(Path dir, List<MountTable.Entry> mounts) throws IOException {
        if (!Files.isDirectory(dir)) {
            return new PathFacts(dir, false, false, 0);
        }
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
        return new PathFacts(dir, true, MountTable.isMountPoint(mounts, dir), n[0] - 1);
    }
}
