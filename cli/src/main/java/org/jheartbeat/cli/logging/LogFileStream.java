package org.jheartbeat.cli.logging;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The output stream of a log file ({@code logfile}, {@code debugfile}) that never throws: a write
 * error (disk full, EIO, the file cannot be opened) is reported once through {@link Reporter}, the
 * line is lost, and the next line tries again; the first line that goes through after an error is
 * reported once too, with the number of lines lost meanwhile. Heartbeat 3.0.6 likewise carries on
 * when its log file cannot be written. Used only from one writer thread
 * ({@link NonBlockingAppender}), so it blocks nobody but that thread.
 */
public final class LogFileStream extends RecordStream {
    /** Receives the two reports; it must not block (the daemon logs them through its queues). */
    public interface Reporter {
        /** Writing {@code file} failed; lines are lost from now on. */
        void writeFailed(Path file, IOException error);

        /** Writing {@code file} works again; {@code linesLost} lines were lost while it did not. */
        void writable(Path file, long linesLost);
    }

    /** Opens the file for appending, creating it (and missing parent directories). */
    interface Opener {
        OutputStream open(Path file) throws IOException;
    }

    private final Path file;
    private final Reporter reporter;
    private final Opener opener;
    private OutputStream out;
    private long lost;

    /** A stream appending to {@code file}, opened at the first write. */
    public LogFileStream(Path file, Reporter reporter) {
        this(file, reporter, LogFileStream::openForAppend);
    }

    LogFileStream(Path file, Reporter reporter, Opener opener) {
        this.file = file;
        this.reporter = reporter;
        this.opener = opener;
    }

    private static OutputStream openForAppend(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new FileOutputStream(file.toFile(), true);
    }

    /** Writes one encoded line; on an error the line is lost and the error reported (once). */
    @Override
    public void write(byte[] b, int off, int len) {
        try {
            if (out == null) {
                out = opener.open(file);
            }
            out.write(b, off, len);
        } catch (IOException e) {
            lost++;
            if (!failing) {
                failing = true;
                reporter.writeFailed(file, e);
            }
            return;
        }
        if (failing) {
            failing = false;
            reporter.writable(file, lost);
            lost = 0;
        }
    }

    @Override
    public void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                // closing a log file we may not be able to write: nothing more to tell
            }
            out = null;
        }
    }
}
