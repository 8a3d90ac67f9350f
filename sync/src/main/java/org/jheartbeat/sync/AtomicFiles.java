package org.jheartbeat.sync;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Whole-file writes another process never sees half done: the state files of jobs and backups,
 * read by {@code hb sync status} / {@code hb backup status} while the daemon writes them.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /**
     * Writes a file via a temp file in the same directory and an atomic rename (a plain rename
     * where the file system has no atomic move).
     *
     * @param file target
     * @param text contents (UTF-8)
     * @throws IOException if writing or renaming fails (the temp file is removed)
     */
    public static void writeString(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp" + ProcessHandle.current().pid()
                + "-" + Thread.currentThread().getId());
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
