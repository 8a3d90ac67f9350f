package org.jheartbeat.core.exec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link ProcessRunner} on {@link ProcessBuilder}.
 *
 * <p>Resource scripts commonly start a daemon in the background that inherits the script's
 * stdout and stderr. Reading pipes until end-of-file would then wait for the daemon, that is
 * forever. So stdout and stderr go to two temporary files, the runner waits for the direct child
 * only (up to the timeout), then reads at most {@code maxOutputBytes} from the start of each file
 * and deletes both. Stdin is {@code /dev/null}. A daemon that keeps the (deleted) file open keeps
 * writing into it harmlessly.
 *
 * <p>On timeout the child and every descendant alive at that moment ({@link
 * ProcessHandle#descendants()}) are killed with SIGKILL and the result has {@code timedOut ==
 * true} and exit code {@link ProcessResult#NO_EXIT_CODE}. Descendants of a child that exits in
 * time are left alone: starting them is the point of a {@code start} script.
 */
public final class OsProcessRunner implements ProcessRunner {
    /** Default limit of captured bytes per stream: 64 KiB. */
    public static final int DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(OsProcessRunner.class);
    private static final File DEV_NULL = new File("/dev/null");
    /** How long to wait for a killed tree to be reaped, in ms. */
    private static final long REAP_WAIT_MS = 5_000;

    private final Path tempDir;
    private final int maxOutputBytes;

    /** A runner using {@code java.io.tmpdir} and the 64 KiB output limit. */
    public OsProcessRunner() {
        this(Path.of(System.getProperty("java.io.tmpdir")), DEFAULT_MAX_OUTPUT_BYTES);
    }

    /**
     * @param tempDir        existing writable directory for the capture files
     * @param maxOutputBytes bytes kept per stream, from the start of the output; positive
     * @throws IllegalArgumentException if maxOutputBytes is not positive
     */
    public OsProcessRunner(Path tempDir, int maxOutputBytes) {
        this.tempDir = Objects.requireNonNull(tempDir, "tempDir");
        if (maxOutputBytes <= 0) {
            throw new IllegalArgumentException("maxOutputBytes must be positive: " + maxOutputBytes);
        }
        this.maxOutputBytes = maxOutputBytes;
    }

    @Override
    public ProcessResult run(ProcessSpec spec) throws IOException {
        Path out = Files.createTempFile(tempDir, "jhb-out-", ".txt");
        Path err = null;
        try {
            err = Files.createTempFile(tempDir, "jhb-err-", ".txt");
            ProcessBuilder builder = new ProcessBuilder(spec.argv())
                    .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().putAll(spec.env());
            Process process = builder.start();
            boolean exited;
            try {
                exited = process.waitFor(spec.timeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                killTree(process);
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while running " + spec.commandLine());
            }
            if (!exited) {
                LOG.warn("{} timed out after {} ms; killing it and its descendants",
                        spec.argv().get(0), spec.timeout().toMillis());
                killTree(process);
            }
            return new ProcessResult(exited ? process.exitValue() : ProcessResult.NO_EXIT_CODE,
                    readBounded(out), readBounded(err), !exited);
        } finally {
            Files.deleteIfExists(out);
            if (err != null) {
                Files.deleteIfExists(err);
            }
        }
    }

    private String readBounded(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(maxOutputBytes), StandardCharsets.UTF_8);
        }
    }

    /** Kills descendants first (snapshot taken while the parent still lives), then the child. */
    private static void killTree(Process process) {
        List<ProcessHandle> descendants = process.descendants().toList();
        descendants.forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(REAP_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
