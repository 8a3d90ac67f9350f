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
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Job states as files {@code <stateDir>/<job>.state}, in {@link Properties} format (ISO-8601
 * instants, {@code count.<path>} keys for the loss guard's per-path counts). Writes go to a temp
 * file in the same directory and are renamed over the old file, so a reader in another process
 * (the {@code hb} CLI, without the daemon) sees either the old or the new state, never half of
 * one. Files are mode 0644 per the umask; they hold no secrets.
 */
public final class JobStateStore {
    private final Path stateDir;

    /** @param stateDir directory of state files; created on the first write */
    public JobStateStore(Path stateDir) {
        this.stateDir = Objects.requireNonNull(stateDir, "stateDir");
    }

    /** @return the directory */
    public Path stateDir() {
        return stateDir;
    }

    /** @return {@code <stateDir>/<job>.state} */
    public Path fileOf(String job) {
        return stateDir.resolve(job + ".state");
    }

    /**
     * Reads a job's state.
     *
     * @param job the job name
     * @return the state; {@link JobState#never} when there is no file
     * @throws UncheckedIOException if the file exists but cannot be read
     * @throws IllegalStateException if the file is not a state file (message names it)
     */
    public JobState read(String job) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(Files.readString(fileOf(job), StandardCharsets.UTF_8)));
        } catch (NoSuchFileException e) {
            return JobState.never(job);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + fileOf(job), e);
        }
        try {
            Map<String, Long> counts = new HashMap<>();
            for (String k : p.stringPropertyNames()) {
                if (k.startsWith("count.")) {
                    counts.put(k.substring("count.".length()), Long.parseLong(p.getProperty(k)));
                }
            }
            return new JobState(job, instant(p, "lastStart"), instant(p, "lastEnd"),
                    JobResult.valueOf(p.getProperty("result", "NEVER")), p.getProperty("message", ""),
                    Long.parseLong(p.getProperty("bytesTransferred", "0")),
                    Long.parseLong(p.getProperty("filesTransferred", "0")),
                    Long.parseLong(p.getProperty("filesTotal", "0")),
                    Integer.parseInt(p.getProperty("attempts", "0")), instant(p, "lastSuccess"), counts);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalStateException(fileOf(job) + " is not a valid job state file: " + e.getMessage(), e);
        }
    }

    /**
     * Writes a job's state atomically (temp file + rename).
     *
     * @param state the state
     * @throws UncheckedIOException if the directory or file cannot be written
     */
    public void write(JobState state) {
        Map<String, String> m = new TreeMap<>();
        state.lastStart().ifPresent(i -> m.put("lastStart", i.toString()));
        state.lastEnd().ifPresent(i -> m.put("lastEnd", i.toString()));
        state.lastSuccess().ifPresent(i -> m.put("lastSuccess", i.toString()));
        m.put("result", state.result().name());
        m.put("message", state.message());
        m.put("bytesTransferred", Long.toString(state.bytesTransferred()));
        m.put("filesTransferred", Long.toString(state.filesTransferred()));
        m.put("filesTotal", Long.toString(state.filesTotal()));
        m.put("attempts", Integer.toString(state.attempts()));
        state.successCounts().forEach((k, v) -> m.put("count." + k, Long.toString(v)));
        Properties p = new Properties();
        p.putAll(m);
        try {
            StringWriter w = new StringWriter();
            p.store(w, "jheartbeat sync job " + state.job());
            Files.createDirectories(stateDir);
            AtomicFiles.writeString(fileOf(state.job()), w.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + fileOf(state.job()), e);
        }
    }


    private static Optional<Instant> instant(Properties p, String key) {
        String v = p.getProperty(key);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(v));
    }
}
