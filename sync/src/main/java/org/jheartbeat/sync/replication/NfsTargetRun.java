package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.sync.MountTable;
import org.jheartbeat.sync.config.NfsTarget;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NFS part of a replication run (for {@link ReplicationRunner}): before the copy, the server must
 * answer, the mount point must be that export by {@code /proc/self/mountinfo} (mounted here first when the
 * target says {@code automount}), and {@code statfs} of the mount must answer; during the copy a
 * {@link Watch} pings the server every {@code timeout} and stops the copy when it does not answer. Every
 * operation is a child process bounded by the target's {@code timeout} ({@link NfsOps}).
 */
final class NfsTargetRun {
    private static final Logger LOG = LoggerFactory.getLogger("sync");

    /** Reads the mount table (production: {@link MountTable#read()}). */
    @FunctionalInterface
    interface Mounts {
        /**
         * @return the entries of the mount table, in file order
         * @throws IOException if it cannot be read
         */
        List<MountTable.Entry> read() throws IOException;
    }

    /**
     * Why the target is not ready.
     *
     * @param transientFault the server did not answer (the next run tries again, as for a network fault)
     * @param why            one line: what is wrong and what to do
     */
    record Problem(boolean transientFault, String why) {
        JobResult result() {
            return transientFault ? JobResult.FAILED_TRANSIENT : JobResult.FAILED_FATAL;
        }
    }

    private final NfsOps ops;
    private final Mounts mounts;

    NfsTargetRun(NfsOps ops, Mounts mounts) {
        this.ops = Objects.requireNonNull(ops, "ops");
        this.mounts = Objects.requireNonNull(mounts, "mounts");
    }

    /**
     * Proves the target ready for the copy and creates the destination directories on it.
     *
     * @param job  job name, for the log
     * @param t    the target
     * @param dirs the destination directories of the job's paths
     * @return empty when ready; else the problem (nothing was copied)
     * @throws InterruptedIOException if the thread is interrupted (the child in flight is killed)
     */
    Optional<Problem> prepare(String job, NfsTarget t, List<Path> dirs) throws InterruptedIOException {
        Optional<String> bad = ops.ping(t);
        if (bad.isPresent()) {
            return Optional.of(new Problem(true, bad.get()));
        }
        NfsMountCheck.Verdict v;
        try {
            v = NfsMountCheck.check(mounts.read(), t);
        } catch (IOException e) {
            return Optional.of(new Problem(false, "cannot read the mount table: " + e.getMessage()));
        }
        if (v.state() == NfsMountCheck.State.NOT_MOUNTED && t.automount()) {
            LOG.info("sync job {}: mounting {} on {}", job, t.source(), t.mountPoint());
            bad = ops.mount(t);
            if (bad.isPresent()) {
                return Optional.of(new Problem(bad.get().contains(" not answering"), bad.get()));
            }
            try {
                v = NfsMountCheck.check(mounts.read(), t);
            } catch (IOException e) {
                return Optional.of(new Problem(false, "cannot read the mount table: " + e.getMessage()));
            }
            if (v.state() != NfsMountCheck.State.MOUNTED) {
                return Optional.of(new Problem(false, "mount of " + t.source() + " reported success, but " + v.reason()));
            }
        }
        if (v.state() != NfsMountCheck.State.MOUNTED) {
            return Optional.of(new Problem(false, v.reason()));
        }
        bad = ops.statfs(t);
        if (bad.isEmpty()) {
            bad = ops.mkdirs(t, dirs);
        }
        return bad.map(why -> new Problem(why.contains(" not answering"), why));
    }

    /**
     * Writes a file onto the mount within the bound (the replica stamp).
     *
     * @return empty when written; else why not
     * @throws InterruptedIOException if the thread is interrupted
     */
    Optional<String> copy(NfsTarget t, Path from, Path to) throws InterruptedIOException {
        return ops.copy(t, from, to);
    }

    /**
     * Starts watching the server while {@code victim} copies: every {@code timeout}, an RPC ping and a
     * {@code statfs} of the mount (each bounded by {@code timeout}); the first that fails is kept and
     * {@code victim} is interrupted, which kills its rsync. So a server that dies during a copy stops it
     * within twice {@code timeout}.
     */
    Watch watch(NfsTarget t, Thread victim) {
        return new Watch(ops, t, victim);
    }

    /** A running watch; {@link #close()} stops it. */
    static final class Watch implements AutoCloseable {
        private final Object lock = new Object();
        private final Thread thread;
        private volatile String failure;
        private boolean stopped;

        Watch(NfsOps ops, NfsTarget t, Thread victim) {
            thread = new Thread(() -> loop(ops, t, victim), "sync-nfs-watch");
            thread.setDaemon(true);
            thread.start();
        }

        private void loop(NfsOps ops, NfsTarget t, Thread victim) {
            while (true) {
                synchronized (lock) {
                    try {
                        if (!stopped) {
                            lock.wait(t.timeout().toMillis());
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (stopped) {
                        return;
                    }
                }
                Optional<String> bad;
                try {
                    bad = ops.ping(t);
                    if (bad.isEmpty()) {
                        bad = ops.statfs(t);
                    }
                } catch (InterruptedIOException e) {
                    return; // closed while a probe ran: its child is killed
                }
                if (bad.isPresent()) {
                    synchronized (lock) {
                        if (stopped) {
                            return;
                        }
                        failure = bad.get();
                    }
                    victim.interrupt();
                    return;
                }
            }
        }

        /** @return what stopped the copy, once the watch interrupted it */
        Optional<String> failure() {
            return Optional.ofNullable(failure);
        }

        /**
         * Stops the watch (a probe in flight is killed). When the watch had interrupted the caller, the
         * interrupt is consumed here: it was meant for the copy, not for what the thread does next.
         */
        @Override
        public void close() {
            synchronized (lock) {
                stopped = true;
                lock.notifyAll();
            }
            thread.interrupt();
            boolean interrupted = Thread.interrupted();
            try {
                thread.join(10_000); // a probe in flight is killed at once; the bound only catches a bug
            } catch (InterruptedException e) {
                interrupted = true;
            }
            if (interrupted && failure == null) {
                Thread.currentThread().interrupt(); // someone else's interrupt (a cancelled hand-over) stays
            }
        }
    }
}
