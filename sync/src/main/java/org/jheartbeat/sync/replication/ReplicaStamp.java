package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.AtomicFiles;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
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
 * The small file that travels with a replica: which node sent it and when the run that produced
 * it started (the replica holds at least the source's state at that instant). Stored as
 * properties: {@code job}, {@code source}, {@code start}, {@code end} (ISO-8601).
 *
 * @param job        job name
 * @param sourceNode node that ran the job
 * @param start      start of the successful run
 * @param end        end of the run
 */
public record ReplicaStamp(String job, String sourceNode, Instant start, Instant end) {
    public ReplicaStamp {
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(sourceNode, "sourceNode");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
    }

    /** @return {@code <stateDir>/replica/<job>.stamp}: where a node finds the stamp of its replica */
    public static Path localFile(Path stateDir, String job) {
        return stateDir.resolve("replica").resolve(job + ".stamp");
    }

    /** @return {@code <target>/.jheartbeat-replica/<job>.stamp}: the stamp kept next to a path target */
    public static Path targetFile(Path target, String job) {
        return target.resolve(".jheartbeat-replica").resolve(job + ".stamp");
    }

    /** @return the file text */
    public String format() {
        Properties p = new Properties();
        p.setProperty("job", job);
        p.setProperty("source", sourceNode);
        p.setProperty("start", start.toString());
        p.setProperty("end", end.toString());
        StringWriter w = new StringWriter();
        try {
            p.store(w, "jheartbeat replica stamp");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /**
     * Writes the stamp atomically (temp + rename), creating the directory.
     *
     * @param file where
     * @throws IOException if it cannot be written
     */
    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        AtomicFiles.writeString(file, format());
    }

    /**
     * Reads a stamp.
     *
     * @param file the stamp file
     * @return the stamp, empty when the file does not exist
     * @throws IOException if it exists but cannot be read or is not a stamp
     */
    public static Optional<ReplicaStamp> read(Path file) throws IOException {
        Properties p = new Properties();
        try {
            p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ReplicaStamp(p.getProperty("job", ""), p.getProperty("source", "?"),
                    Instant.parse(p.getProperty("start", "")), Instant.parse(p.getProperty("end", ""))));
        } catch (DateTimeParseException e) {
            throw new IOException(file + " is not a replica stamp: " + e.getMessage(), e);
        }
    }
}
