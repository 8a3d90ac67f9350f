package org.jheartbeat.sync.replication;

import org.jheartbeat.sync.RsyncStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessExit;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Runs rsync through the core runner's streaming variant ({@link OsProcessRunner#stream}) and
 * optionally copies its stdout and stderr, as they come, to a progress stream. Stdin is
 * {@code /dev/null}, the environment gets {@code LC_ALL=C} so the {@code --stats} wording and digit
 * grouping are the ones {@link RsyncStats} parses. At most the last 256 KiB of stdout and the first
 * 64 KiB of stderr are kept. On timeout or interrupt the process and its descendants (ssh) get
 * SIGKILL (the runner's guarantee).
 */
final class RsyncProcess {
    private static final int STDOUT_KEEP = 256 * 1024;
    private static final int STDERR_KEEP = 64 * 1024;
    private static final OsProcessRunner RUNNER = new OsProcessRunner();

    private RsyncProcess() {
    }

    /**
     * @param argv     the command
     * @param timeout  limit, positive
     * @param progress stream that receives stdout and stderr bytes as they arrive, or {@code null}
     * @return exit code (or {@link ProcessResult#NO_EXIT_CODE} with timedOut), stdout tail, stderr head
     * @throws IOException if rsync cannot be started
     * @throws InterruptedIOException if the thread is interrupted (the tree is killed first)
     */
    static ProcessResult run(List<String> argv, Duration timeout, OutputStream progress) throws IOException {
        return run(argv, Map.of(), timeout, progress);
    }

    /**
     * The same with extra environment variables (the sync hooks' {@code JHB_SYNC_*}).
     *
     * @param argv     the command
     * @param env      variables added to the inherited environment and {@code LC_ALL=C}
     * @param timeout  limit, positive
     * @param progress stream that receives stdout and stderr bytes as they arrive, or {@code null}
     * @return exit code (or {@link ProcessResult#NO_EXIT_CODE} with timedOut), stdout tail, stderr head
     * @throws IOException if the program cannot be started
     * @throws InterruptedIOException if the thread is interrupted (the tree is killed first)
     */
    static ProcessResult run(List<String> argv, Map<String, String> env, Duration timeout, OutputStream progress)
            throws IOException {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("LC_ALL", "C");
        Keep out = new Keep(STDOUT_KEEP, true, progress);
        Keep err = new Keep(STDERR_KEEP, false, progress);
        ProcessExit exit = RUNNER.stream(new ProcessSpec(argv, all, timeout), null, out, err);
        return new ProcessResult(exit.exitCode(), out.text(), err.text(), exit.timedOut());
    }

    /**
     * Keeps the last (tail) or first (head) {@code limit} bytes written and copies every byte to the
     * progress stream, if any. A failing progress stream (closed terminal) is dropped, the capture
     * goes on.
     */
    static final class Keep extends OutputStream {
        private final ByteArrayOutputStream keep = new ByteArrayOutputStream();
        private final int limit;
        private final boolean tail;
        private OutputStream progress;

        Keep(int limit, boolean tail, OutputStream progress) {
            this.limit = limit;
            this.tail = tail;
            this.progress = progress;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] buf, int off, int n) {
            if (tail) {
                keep.write(buf, off, n);
                if (keep.size() > 4 * limit) {
                    byte[] all = keep.toByteArray();
                    keep.reset();
                    keep.write(all, all.length - limit, limit);
                }
            } else if (keep.size() < limit) {
                keep.write(buf, off, Math.min(n, limit - keep.size()));
            }
            OutputStream p = progress;
            if (p != null) {
                try {
                    synchronized (p) {
                        p.write(buf, off, n);
                        p.flush();
                    }
                } catch (IOException e) {
                    progress = null;
                }
            }
        }

        /** @return what is kept, decoded as UTF-8 (the tail cut to {@code limit} bytes) */
        synchronized String text() {
            byte[] all = keep.toByteArray();
            int from = tail ? Math.max(0, all.length - limit) : 0;
            return new String(all, from, all.length - from, StandardCharsets.UTF_8);
        }
    }
}
