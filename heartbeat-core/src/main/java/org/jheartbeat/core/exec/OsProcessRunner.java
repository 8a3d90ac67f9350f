package org.jheartbeat.core.exec;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DaemonExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteResultHandler;
import org.apache.commons.exec.ExecuteStreamHandler;
import org.apache.commons.exec.PumpStreamHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way jheartbeat starts external programs (resource scripts, {@code ip}/{@code arping},
 * STONITH plugins and fence agents, rsync, ssh, blkid/e2fsck/mount), on Apache commons-exec: a
 * {@link DaemonExecutor} runs the program asynchronously, reports its end to an
 * {@link ExecuteResultHandler} (a latch: commons-exec's {@code DefaultExecuteResultHandler} polls the
 * wall clock every 50 ms), and, for {@link #stream}, pumps stdin and output with a
 * {@link PumpStreamHandler}. The process itself is started with {@link ProcessBuilder} (through the
 * executor's {@code launch} hook) so that argv reaches the program exactly as given (no quoting or
 * {@code ${}} substitution by {@code CommandLine}) and so that {@link #run} can send output to files.
 *
 * <p>Two modes to completion, and {@link #start} for a program the caller watches while it runs:
 * <ul>
 * <li>{@link #run}: resource scripts commonly start a daemon in the background that inherits the
 *     script's stdout and stderr. Reading pipes until end-of-file would then wait for the daemon,
 *     that is forever. So stdout and stderr go to two temporary files, the runner waits for the
 *     direct child only (up to the timeout), then reads at most {@code maxOutputBytes} from the
 *     start of each file and deletes both. Stdin is {@code /dev/null}. While the program runs, the
 *     files are cut back to {@code maxOutputBytes} every 100 ms, so a program that writes without end
 *     does not fill the file system. A daemon that keeps the files open after the script ended keeps
 *     writing into them: they are handed to {@link LeftoverCaptures}, which truncates them every second
 *     for as long as any process holds them.
 *     {@link #start}'s stderr file is cut back the same way until the program exits.</li>
 * <li>{@link #stream}: stdin from the caller's bytes (or {@code /dev/null}), stdout and stderr
 *     copied to the caller's streams as they arrive (rsync's progress, ssh's file contents); the
 *     pumps are given {@value #PUMP_STOP_MS} ms after the program ends to drain.</li>
 * </ul>
 *
 * <p>On timeout, and when the waiting thread is interrupted, the child and every descendant alive
 * at that moment ({@link ProcessHandle#descendants()}, snapshot taken while the child still lives)
 * are killed with SIGKILL; on timeout the result has {@code timedOut == true} and exit code
 * {@link ProcessResult#NO_EXIT_CODE}. commons-exec's {@code ExecuteWatchdog} is not used because it
 * only sends SIGTERM to the direct child: a shell script's children would survive it. Descendants of
 * a child that exits in time are left alone: starting them is the point of a {@code start} script.
 */
public final class OsProcessRunner implements ProcessRunner {
    /** Default limit of captured bytes per stream: 64 KiB. */
    public static final int DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(OsProcessRunner.class);
    private static final File DEV_NULL = new File("/dev/null");
    /** How long to wait for a killed tree to be reaped, in ms. */
    private static final long REAP_WAIT_MS = 5_000;
    /** How long {@link #stream} lets the output pumps drain after the program ended, in ms. */
    private static final long PUMP_STOP_MS = 5_000;
    /** How often {@link #run} cuts its capture files back while the program runs: every 100 ms. */
    private static final long CAPTURE_TRIM_MS = 100;

    /** For {@link #run}: nothing to pump, the streams of a fully redirected process are empty. */
    private static final ExecuteStreamHandler NO_STREAMS = new ExecuteStreamHandler() {
        @Override
        public void setProcessInputStream(OutputStream os) {
        }

        @Override
        public void setProcessErrorStream(InputStream is) {
        }

        @Override
        public void setProcessOutputStream(InputStream is) {
        }

        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }
    };

    private final Path tempDir;
    private final int maxOutputBytes;
    /** Whether a timeout is logged at DEBUG only: the caller says it to the user in its own words. */
    private final boolean callerReportsTimeouts;

    /** A runner using {@code java.io.tmpdir} and the 64 KiB output limit. */
    public OsProcessRunner() {
        this(Path.of(System.getProperty("java.io.tmpdir")), DEFAULT_MAX_OUTPUT_BYTES);
    }

    /**
     * A runner as {@link #OsProcessRunner()} for a caller that tells the user itself when a program timed out
     * ({@code ProcessExit.timedOut()}): the timeout is logged at DEBUG, not WARN, so that a command line client
     * prints one message, its own, not a second {@code hb: WARN: ... timed out} line beside it.
     */
    public static OsProcessRunner callerReportsTimeouts() {
        return new OsProcessRunner(Path.of(System.getProperty("java.io.tmpdir")), DEFAULT_MAX_OUTPUT_BYTES, true);
    }

    /**
     * @param tempDir        existing writable directory for the capture files of {@link #run}
     * @param maxOutputBytes bytes kept per stream by {@link #run}, from the start of the output; positive
     * @throws IllegalArgumentException if maxOutputBytes is not positive
     */
    public OsProcessRunner(Path tempDir, int maxOutputBytes) {
        this(tempDir, maxOutputBytes, false);
    }

    private OsProcessRunner(Path tempDir, int maxOutputBytes, boolean callerReportsTimeouts) {
        this.tempDir = Objects.requireNonNull(tempDir, "tempDir");
        if (maxOutputBytes <= 0) {
            throw new IllegalArgumentException("maxOutputBytes must be positive: " + maxOutputBytes);
        }
        this.maxOutputBytes = maxOutputBytes;
        this.callerReportsTimeouts = callerReportsTimeouts;
    }

    @Override
    public ProcessResult run(ProcessSpec spec) throws IOException {
        Path out = Files.createTempFile(tempDir, "jhb-out-", ".txt");
        Path err = null;
        try {
            err = Files.createTempFile(tempDir, "jhb-err-", ".txt");
            ProcessBuilder builder = builder(spec)
                    .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            ProcessExit exit = execute(spec, builder, NO_STREAMS, List.of(out, err), maxOutputBytes,
                    callerReportsTimeouts);
            return new ProcessResult(exit.exitCode(), readBounded(out), readBounded(err), exit.timedOut());
        } finally {
            // a background child may still hold them: they are unlinked and kept small while it does
            LeftoverCaptures.shared().adopt(out);
            if (err != null) {
                LeftoverCaptures.shared().adopt(err);
            }
        }
    }

    /**
     * Runs the program with pipes: the streaming variant of {@link #run} for callers that need
     * output as it comes or must feed stdin. Output is not bounded here; the caller's streams decide
     * what to keep. stdout and stderr are written from two pump threads (so one object
     * passed as both must be thread-safe), flushed at the end, never closed.
     *
     * @param spec   what to run, its extra environment and timeout
     * @param stdin  bytes for the program's standard input, read to the end and then closed; or
     *               {@code null} for {@code /dev/null}
     * @param stdout receives standard output as it arrives
     * @param stderr receives standard error as it arrives
     * @return the exit code, or {@link ProcessResult#NO_EXIT_CODE} with {@code timedOut} when the
     *         tree was killed on timeout
     * @throws IOException if the program cannot be started (missing, not executable)
     * @throws InterruptedIOException if the calling thread is interrupted while waiting; the program
     *                     tree is killed first and the interrupt flag is restored
     */
    public ProcessExit stream(ProcessSpec spec, InputStream stdin, OutputStream stdout, OutputStream stderr)
            throws IOException {
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
        ProcessBuilder builder = builder(spec);
        if (stdin == null) {
            builder.redirectInput(ProcessBuilder.Redirect.from(DEV_NULL));
        }
        PumpStreamHandler pumps = new PumpStreamHandler(stdout, stderr, stdin);
        pumps.setStopTimeout(Duration.ofMillis(PUMP_STOP_MS));
        return execute(spec, builder, pumps, List.of(), 0, callerReportsTimeouts);
    }

    /**
     * Starts the program and returns at once, for a caller that watches it while it runs or lets it run
     * on its own: stdin {@code /dev/null}, stdout discarded, the first {@code maxOutputBytes} of stderr
     * kept (see {@link StartedProcess}). Started through commons-exec like {@link #run}; when the spec's
     * timeout passes the program and its descendants are killed with SIGKILL (logged as a warning).
     *
     * @param spec what to run, its extra environment and the longest it may run
     * @return the running program
     * @throws IOException if the program cannot be started (missing, not executable)
     * @throws InterruptedIOException if the calling thread is interrupted while the program is being
     *                     started (it is killed) and the interrupt flag is restored
     */
    public StartedProcess start(ProcessSpec spec) throws IOException {
        Path err = Files.createTempFile(tempDir, "jhb-err-", ".txt");
        ProcessBuilder builder = builder(spec)
                .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile());
        Launcher executor = new Launcher(builder);
        executor.setStreamHandler(NO_STREAMS);
        executor.setExitValues(null);
        Done done = new Done();
        String label = spec.argv().get(0).isBlank() ? "program" : spec.argv().get(0);
        try {
            executor.execute(new CommandLine(label), Map.of(), done);
            executor.launched.await();
        } catch (InterruptedException e) {
            Process process = launchedProcess(executor);
            if (process != null) {
                killTree(process);
            }
            Files.deleteIfExists(err);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while starting " + spec.argv().get(0));
        }
        Process process = executor.process;
        if (process == null) {
            try {
                done.await(REAP_WAIT_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Files.deleteIfExists(err);
            throw startFailure(spec, done);
        }
        StartedProcess started = new StartedProcess(process, err, maxOutputBytes);
        trimWhileAlive(process, err, maxOutputBytes);
        process.onExit().orTimeout(spec.timeout().toMillis(), TimeUnit.MILLISECONDS).exceptionally(t -> {
            if (process.isAlive()) {
                LOG.warn("{} still runs after {} ms; killing it and its descendants", spec.argv().get(0),
                        spec.timeout().toMillis());
                started.kill();
            }
            return process;
        });
        return started;
    }

    private static ProcessBuilder builder(ProcessSpec spec) {
        ProcessBuilder builder = new ProcessBuilder(spec.argv());
        builder.environment().putAll(spec.env());
        return builder;
    }

    /**
     * Starts the program through commons-exec, waits up to the timeout, kills the tree if needed.
     *
     * @param captures files the program's output goes to, cut back to {@code keep} bytes every
     *                 {@value #CAPTURE_TRIM_MS} ms while it runs ({@link #trim})
     * @param keep     bytes of each capture that are read afterwards
     */
    private static ProcessExit execute(ProcessSpec spec, ProcessBuilder builder, ExecuteStreamHandler streams,
            List<Path> captures, int keep, boolean callerReportsTimeouts) throws IOException {
        Launcher executor = new Launcher(builder);
        executor.setStreamHandler(streams);
        executor.setExitValues(null); // every exit code is a result, not an ExecuteException
        Done done = new Done();
        // the CommandLine is only a label: Launcher starts builder's argv
        String label = spec.argv().get(0).isBlank() ? "program" : spec.argv().get(0);
        executor.execute(new CommandLine(label), Map.of(), done);
        boolean timedOut = false;
        try {
            executor.launched.await(); // the timeout counts from the start of the program, not of the thread
            boolean ended = awaitTrimming(done, spec.timeout().toMillis(), captures, keep);
            Process process = executor.process;
            if (!ended && process != null && process.isAlive()) {
                String msg = "{} timed out after {} ms; killing it and its descendants";
                if (callerReportsTimeouts) {
                    LOG.debug(msg, spec.argv().get(0), spec.timeout().toMillis());
                } else {
                    LOG.warn(msg, spec.argv().get(0), spec.timeout().toMillis());
                }
                killTree(process);
                timedOut = true;
            }
            done.await(REAP_WAIT_MS + PUMP_STOP_MS);
        } catch (InterruptedException e) {
            Process process = launchedProcess(executor);
            if (process != null) {
                killTree(process);
            }
            Thread.currentThread().interrupt();
            // the program only: its arguments may be secrets (upscmd -p PASSWORD) and the message reaches the log
            throw new InterruptedIOException("interrupted while running " + spec.argv().get(0));
        }
        Process process = executor.process;
        if (process == null) {
            throw startFailure(spec, done);
        }
        if (done.failure != null) {
            // the program ran; only the stream plumbing complained (e.g. a pump still busy at stop)
            LOG.debug("{}: {}", spec.argv().get(0), done.failure.getMessage());
        }
        if (timedOut || process.isAlive()) {
            return new ProcessExit(ProcessResult.NO_EXIT_CODE, true);
        }
        return new ProcessExit(process.exitValue(), false);
    }

    /**
     * Waits for the end of the program up to {@code timeoutMs}; meanwhile, every {@value #CAPTURE_TRIM_MS} ms,
     * cuts each capture file back to {@code keep} bytes, so that a program writing without end (a script
     * in a loop, {@code yes}) cannot fill the file system: disk use stays at what it writes in that time.
     *
     * @return whether the program ended in time
     */
    private static boolean awaitTrimming(Done done, long timeoutMs, List<Path> captures, int keep)
            throws InterruptedException {
        if (captures.isEmpty()) {
            return done.await(timeoutMs);
        }
        // a latch's timed await returns false only once its time has passed, so the slices add up
        for (long waited = 0; waited < timeoutMs; waited += CAPTURE_TRIM_MS) {
            if (done.await(Math.min(CAPTURE_TRIM_MS, timeoutMs - waited))) {
                return true;
            }
            captures.forEach(f -> trim(f, keep));
        }
        return false;
    }

    /** One daemon thread for every {@link #start}ed program's stderr trims (each is a few microseconds). */
    private static final java.util.concurrent.ScheduledExecutorService TRIMMER =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "hb-capture-trim");
                t.setDaemon(true);
                return t;
            });

    /**
     * Cuts a {@link #start}ed program's stderr file back to {@code keep} bytes every {@value #CAPTURE_TRIM_MS}
     * ms until it exits (a director callback may run for minutes).
     */
    private static void trimWhileAlive(Process process, Path file, int keep) {
        java.util.concurrent.ScheduledFuture<?> f = TRIMMER.scheduleWithFixedDelay(() -> trim(file, keep),
                CAPTURE_TRIM_MS, CAPTURE_TRIM_MS, TimeUnit.MILLISECONDS);
        process.onExit().thenRun(() -> f.cancel(false));
    }

    /**
     * Truncates a capture file to {@code keep} bytes. The program writes at its own offset (the file
     * is opened without O_APPEND), so its later writes leave a hole that takes no disk space, and the
     * first {@code keep} bytes, the part {@link #run} reads, stay as written.
     */
    private static void trim(Path file, int keep) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (ch.size() > keep) {
                ch.truncate(keep);
            }
        } catch (IOException e) {
            LOG.debug("cannot trim {}: {}", file, e.toString());
        }
    }

    /** The process, once launch has returned (waits up to the reap time, ignoring interrupts). */
    private static Process launchedProcess(Launcher executor) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REAP_WAIT_MS);
        while (true) {
            try {
                executor.launched.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                return executor.process;
            } catch (InterruptedException again) {
                // keep waiting: the caller restores the interrupt flag
            }
        }
    }

    private static IOException startFailure(ProcessSpec spec, Done done) {
        Throwable cause = done.failure;
        while (cause != null && !(cause instanceof IOException && cause.getClass() != ExecuteException.class)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof IOException io) {
            return io;
        }
        return new IOException("cannot run " + spec.argv().get(0), cause);
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

    /** The end of an asynchronous execution, awaited on a latch (monotonic time). */
    private static final class Done implements ExecuteResultHandler {
        private final CountDownLatch latch = new CountDownLatch(1);
        private volatile ExecuteException failure;

        @Override
        public void onProcessComplete(int exitValue) {
            latch.countDown();
        }

        @Override
        public void onProcessFailed(ExecuteException e) {
            failure = e;
            latch.countDown();
        }

        boolean await(long millis) throws InterruptedException {
            return latch.await(millis, TimeUnit.MILLISECONDS);
        }
    }

    /** commons-exec's daemon-thread executor, starting the process from a prepared ProcessBuilder. */
    private static final class Launcher extends DaemonExecutor {
        private final ProcessBuilder builder;
        /** Opened once launch has returned or failed. */
        private final CountDownLatch launched = new CountDownLatch(1);
        private volatile Process process;

        Launcher(ProcessBuilder builder) {
            this.builder = builder;
        }

        @Override
        protected Process launch(CommandLine command, Map<String, String> env, Path workingDirectory)
                throws IOException {
            try {
                Process started = builder.start();
                process = started;
                return started;
            } finally {
                launched.countDown();
            }
        }
    }
}
