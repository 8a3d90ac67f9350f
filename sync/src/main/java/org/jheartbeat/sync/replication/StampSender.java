package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessExit;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Sends a peer job's replica stamp with an rsync that is started, and connects, while the copy
 * runs: {@code rsync -e SSH --protect-args --mkpath --chmod=F644 --ignore-times --files-from=- DIR/ PEER:DIR/}.
 * rsync reads {@code --files-from=-} only once ssh is up and the peer's rsync answered, so it waits
 * there, connected, until the copy is done; then it gets the stamp's name (the copy succeeded) or an
 * empty list (it did not: nothing is sent, the peer's stamp stays as it was). The peer still sees
 * the stamp only after the copy, and whole (rsync writes a temp file and renames it). {@code --ignore-times}:
 * two stamps of one size written within the same second (runs that quick) look unchanged to rsync's
 * size-and-time check, and the peer kept the older one.
 *
 * <p>Why: a second ssh connection after the copy cost as much as a copy with nothing to do (0.39 s
 * against 0.04 s once connected, in the lab over ssh at load ~6), and was most of what a peer run
 * with nothing to copy cost beyond the bare rsync (docs/benchmarks.md). Its ssh is now also the
 * master of the connection the copies share ({@link PeerLink}, {@link SharedSsh}).
 */
final class StampSender {
    private static final OsProcessRunner RUNNER = new OsProcessRunner();
    /**
     * {@link #close} waits at most this many seconds: more than the core runner takes to kill and reap
     * a tree and drain its pumps (5 s + 5 s).
     */
    private static final int CLOSE_WAITS = 30;

    private final CompletableFuture<byte[]> list = new CompletableFuture<>();
    private final CompletableFuture<ProcessResult> result = new CompletableFuture<>();
    private final Thread thread;

    /**
     * Starts the rsync on a thread of its own.
     *
     * @param argv     from {@link #argv}
     * @param localDir the argv's local directory, created first (rsync checks it when it starts)
     * @param timeout  limit of the whole process, from now (covers the copy it waits for)
     * @param name     thread name
     */
    StampSender(List<String> argv, Path localDir, Duration timeout, String name) {
        thread = new Thread(() -> {
            RsyncProcess.Keep err = new RsyncProcess.Keep(16 * 1024, false, null);
            try {
                java.nio.file.Files.createDirectories(localDir);
                ProcessExit e = RUNNER.stream(new ProcessSpec(argv, Map.of("LC_ALL", "C"), timeout), new ListInput(list),
                        OutputStream.nullOutputStream(), err);
                result.complete(new ProcessResult(e.exitCode(), "", err.text(), e.timedOut()));
            } catch (IOException e) {
                result.complete(new ProcessResult(ProcessResult.NO_EXIT_CODE, "", String.valueOf(e.getMessage()), false));
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * The stamp rsync's limit: as long as the longest run of the job can take (every path, every
     * attempt up to its timeout, the retry delays), plus {@code stampTimeout} for the stamp itself.
     *
     * @param job          the job
     * @param stampTimeout time for the transfer once the list is given
     * @return the limit
     */
    static Duration limit(org.jheartbeat.sync.config.ReplicationJobSpec job, Duration stampTimeout) {
        long attempts = (long) job.paths().size() * (job.retries() + 1L);
        return job.timeout().multipliedBy(attempts).plus(job.retryDelay().multipliedBy(attempts)).plus(stampTimeout);
    }

    /**
     * The stamp rsync's argv.
     *
     * @param rsync       the rsync program
     * @param ssh         the remote shell argv
     * @param localDir    where the stamp file is written before it is sent
     * @param peerAddress the peer's address
     * @param remoteDir   the stamp's directory on the peer
     * @return the argv
     */
    static List<String> argv(String rsync, List<String> ssh, Path localDir, String peerAddress, Path remoteDir) {
        String host = peerAddress.contains(":") && !peerAddress.contains("[") ? "[" + peerAddress + "]" : peerAddress;
        List<String> argv = new ArrayList<>(List.of(rsync, "-e", RsyncCommand.remoteShell(ssh), RsyncCommand.PROTECT_ARGS,
                "--mkpath", "--chmod=F644", "--ignore-times", "--files-from=-"));
        argv.add(localDir + "/");
        argv.add(host + ":" + remoteDir + "/");
        return argv;
    }

    /**
     * Sends {@code fileName} (already written in the local directory) and waits for the rsync.
     *
     * @param fileName the stamp's name
     * @param wait     how long to wait for the transfer
     * @return how the rsync ended ({@code timedOut} also when it did not end within {@code wait}:
     *         it is then killed)
     * @throws InterruptedException if interrupted while waiting (the rsync is killed)
     */
    ProcessResult send(String fileName, Duration wait) throws InterruptedException {
        list.complete((fileName + "\n").getBytes(StandardCharsets.UTF_8));
        try {
            return result.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            cancel();
            return new ProcessResult(ProcessResult.NO_EXIT_CODE, "", "", true);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            cancel();
            throw e;
        }
    }

    /**
     * Sends nothing: the rsync gets an empty list and ends (or is killed when it has not read it);
     * idempotent, and a no-op after {@link #send}'s transfer ended.
     */
    void cancel() {
        list.complete(new byte[0]);
        if (!result.isDone()) {
            thread.interrupt(); // the runner kills rsync and its ssh
        }
    }

    /** @return whether the rsync ended (or could not be started) */
    boolean ended() {
        return result.isDone();
    }

    /**
     * {@link #cancel}s, then waits until the rsync and the thread that ran it ended (a killed tree is
     * reaped within the core runner's bounds; this wait is bounded too and ignores interrupts, whose
     * flag it restores), so that its ssh is gone when the run's socket directory is removed.
     */
    void close() {
        cancel();
        boolean interrupted = false;
        for (int i = 0; i < CLOSE_WAITS && thread.isAlive(); i++) {
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** stdin for rsync: blocks until the list is known, then gives it and ends. */
    private static final class ListInput extends InputStream {
        private final CompletableFuture<byte[]> list;
        private byte[] bytes;
        private int pos;

        ListInput(CompletableFuture<byte[]> list) {
            this.list = list;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (bytes == null) {
                try {
                    bytes = list.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("stamp list");
                } catch (ExecutionException e) {
                    throw new IOException(e.getCause());
                }
            }
            if (pos >= bytes.length) {
                return -1;
            }
            int n = Math.min(len, bytes.length - pos);
            System.arraycopy(bytes, pos, b, off, n);
            pos += n;
            return n;
        }
    }
}
