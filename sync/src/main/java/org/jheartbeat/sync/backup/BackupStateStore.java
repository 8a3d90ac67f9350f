package org.jheartbeat.sync.backup;

import org.jheartbeat.sync.AtomicFiles;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;

/**
 * Reads and writes {@link BackupState} as {@code <stateDir>/backup-<name>.state}, a Java
 * properties file. Writes go to a temporary file in the same directory that is then renamed over
 * the old one ({@code rename(2)}), so another process (the CLI while the daemon runs) sees either
 * the old or the new state, never a torn one.
 */
public final class BackupStateStore {
    private final Path stateDir;

    /** @param stateDir directory of the state files; created on the first write */
    public BackupStateStore(Path stateDir) {
        this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
    }

    /** @return the state file of backup {@code name} */
    public Path file(String name) {
        return stateDir.resolve("backup-" + name + ".state");
    }

    /**
     * @param name backup name
     * @return the stored state, or {@link BackupState#initial} when there is no file yet
     * @throws UncheckedIOException if the file exists but cannot be read or is malformed
     */
    public BackupState read(String name) {
        Properties p = new Properties();
        Path f = file(name);
        try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            return BackupState.initial(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + f + ": " + e.getMessage(), e);
        }
        try {
            return new BackupState(name,
                    DiskState.valueOf(p.getProperty("disk", "MISSING")),
                    BackupResult.valueOf(p.getProperty("lastResult", "NEVER")),
                    instant(p.getProperty("lastStart")), instant(p.getProperty("lastEnd")),
                    p.getProperty("message", ""),
                    Integer.parseInt(p.getProperty("snapshots", "0")),
                    Optional.ofNullable(p.getProperty("newestSnapshot")).filter(s -> !s.isEmpty()),
                    Long.parseLong(p.getProperty("bytesTransferred", "0")),
                    Long.parseLong(p.getProperty("bytesUsed", "0")),
                    p.getProperty("lastRunMessage", p.getProperty("message", "")),
                    Optional.ofNullable(p.getProperty("lastSkip")).filter(s -> !s.isEmpty()));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new UncheckedIOException(new IOException("malformed " + f + ": " + e.getMessage(), e));
        }
    }

    /**
     * Atomically replaces the state file.
     *
     * @param state the state to store (its name picks the file)
     * @throws UncheckedIOException if the directory or file cannot be written
     */
    public void write(BackupState state) {
        Properties p = new Properties();
        p.setProperty("disk", state.disk().name());
        p.setProperty("lastResult", state.lastResult().name());
        state.lastStart().ifPresent(i -> p.setProperty("lastStart", i.toString()));
        state.lastEnd().ifPresent(i -> p.setProperty("lastEnd", i.toString()));
        p.setProperty("message", state.message());
        p.setProperty("snapshots", Integer.toString(state.snapshots()));
        state.newestSnapshot().ifPresent(s -> p.setProperty("newestSnapshot", s));
        p.setProperty("bytesTransferred", Long.toString(state.bytesTransferred()));
        p.setProperty("bytesUsed", Long.toString(state.bytesUsed()));
        p.setProperty("lastRunMessage", state.lastRunMessage());
        state.lastSkip().ifPresent(s -> p.setProperty("lastSkip", s));
        Path f = file(state.name());
        try {
            Files.createDirectories(stateDir);
            java.io.StringWriter w = new java.io.StringWriter();
            p.store(w, "jheartbeat backup state");
            AtomicFiles.writeString(f, w.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + f + ": " + e.getMessage(), e);
        }
    }

    private static Optional<Instant> instant(String s) {
        return s == null || s.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(s));
    }
}
