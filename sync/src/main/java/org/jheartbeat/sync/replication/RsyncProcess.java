package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.RsyncStats;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.exec.ProcessResult;

/**
 * Runs rsync and optionally copies its stdout, as it comes, to a progress stream (thin I/O edge;
 * core's {@code OsProcessRunner} captures to files and cannot stream). Stdin is {@code /dev/null},
 * the environment gets {@code LC_ALL=C} so the {@code --stats} wording and digit grouping are the
 * ones {@link RsyncStats} parses. At most the last 256 KiB of stdout and the first 64 KiB of
 * stderr are kept. On timeout or interrupt the process and its descendants (ssh) get SIGKILL.
 */
final class RsyncProcess {
    private static final int STDOUT_KEEP = 256 * 1024;
    private static final int STDERR_KEEP = 64 * 1024;

    private RsyncProcess() {
    }

    /**
     * @param argv     the command
     * @param timeout  limit, positive
     * @param progress stream that receives stdout bytes as they arrive, or {@code null}
     * @return exit code (or {@link ProcessResult#NO_EXIT_CODE} with timedOut), stdout tail, stderr head
     * @throws IOException if rsync cannot be started
     * @throws InterruptedIOException if the thread is interrupted (the tree is killed first)
     */
    static ProcessResult run(List<String> argv, Duration timeout, OutputStream progress) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread outPump = pump(p.getInputStream(), out, STDOUT_KEEP, true, progress, "rsync-stdout");
        Thread errPump = pump(p.getErrorStream(), err, STDERR_KEEP, false, progress, "rsync-stderr");
        boolean exited;
        try {
            exited = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!exited) {
                kill(p);
            }
            outPump.join(5_000);
            errPump.join(5_000);
        } catch (InterruptedException e) {
            kill(p);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while running rsync");
        }
        String o;
        String e;
        synchronized (out) {
            o = out.toString(StandardCharsets.UTF_8);
        }
        synchronized (err) {
            e = err.toString(StandardCharsets.UTF_8);
        }
        return new ProcessResult(exited ? p.exitValue() : ProcessResult.NO_EXIT_CODE, o, e, !exited);
    }

    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread pump(InputStream in, ByteArrayOutputStream keep, int limit, boolean tail,
                               OutputStream progress, String name) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    synchronized (keep) {
                        if (tail) {
                            keep.write(buf, 0, n);
                            if (keep.size() > 4 * limit) {
                                byte[] all = keep.toByteArray();
                                keep.reset();
                                keep.write(all, all.length - limit, limit);
                            }
                        } else if (keep.size() < limit) {
                            keep.write(buf, 0, Math.min(n, limit - keep.size()));
                        }
                    }
                    if (progress != null) {
                        synchronized (progress) {
                            progress.write(buf, 0, n);
                            progress.flush();
                        }
                    }
                }
            } catch (IOException ignored) {
                // the process went away or the progress stream closed: nothing more to read
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
