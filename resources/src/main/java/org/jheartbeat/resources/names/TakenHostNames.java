package org.jheartbeat.resources.names;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The record of host names this machine took over from its peer ({@code Hostname::NAME::hostname=yes}):
 * one file per taken name, {@code DIR/NAME}, holding {@code own=OWNNAME}, written before the host name is
 * changed and removed after it is given back. It lives under {@code /run} (a tmpfs), so it is gone after a
 * reboot, exactly when the kernel's host name is back to the machine's own. The daemon reads it at start:
 * a {@code uname -n} that names a taken host name is not this machine's node name.
 */
public final class TakenHostNames {
    /** Where the records live on a real machine. */
    public static final Path DEFAULT_DIR = Path.of("/run/jheartbeat/hostname");

    private final Path dir;

    /** @param dir the records' directory ({@link #DEFAULT_DIR} on a real machine) */
    public TakenHostNames(Path dir) {
        this.dir = dir;
    }

    /** @return the records' directory */
    public Path dir() {
        return dir;
    }

    /**
     * @param taken a host name (any case)
     * @return the file that records it
     */
    public Path file(String taken) {
        return dir.resolve(taken.toLowerCase(Locale.ROOT));
    }

    /**
     * Records that {@code taken} is being set as the host name of a machine whose own name is {@code own}.
     *
     * @throws IOException if the record cannot be written (the host name must then not be changed)
     */
    public void record(String taken, String own) throws IOException {
        Files.createDirectories(dir);
        Path tmp = dir.resolve("." + taken.toLowerCase(Locale.ROOT) + ".tmp");
        Files.writeString(tmp, "own=" + own + "\n", StandardCharsets.US_ASCII);
        Files.move(tmp, file(taken), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * @param taken a host name (any case)
     * @return the own name recorded for it, if this machine took it over
     * @throws IOException if a record exists but cannot be read or holds no {@code own=} line
     */
    public Optional<String> ownNameFor(String taken) throws IOException {
        Path f = file(taken);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        for (String line : Files.readAllLines(f, StandardCharsets.US_ASCII)) {
            if (line.startsWith("own=") && line.length() > 4) {
                return Optional.of(line.substring(4).strip());
            }
        }
        throw new IOException(f + " holds no own=NAME line");
    }

    /** Removes the record of {@code taken}, if any. @throws IOException if it exists and cannot be removed */
    public void remove(String taken) throws IOException {
        Files.deleteIfExists(file(taken));
    }
}
