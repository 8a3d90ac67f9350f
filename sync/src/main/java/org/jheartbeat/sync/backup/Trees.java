package org.jheartbeat.sync.backup;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/** Directory helpers of the backup disk: listing, counting and deleting trees without following links. */
final class Trees {
    private Trees() {
    }

    static List<String> children(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            ds.forEach(p -> out.add(p.getFileName().toString()));
        }
        return out;
    }

    static long[] filesAndBytes(Path dir) throws IOException {
        AtomicLong files = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile()) {
                    files.incrementAndGet();
                    bytes.addAndGet(attrs.size());
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return new long[] {files.get(), bytes.get()};
    }

    /** Deletes a tree without following symbolic links. */
    static void deleteTree(Path root) throws IOException {
        Objects.requireNonNull(root, "root");
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
