package org.jheartbeat.sync.replication;

/**
 * What an rsync exit status means for a replication job. Codes are those of {@code rsync(1)},
 * section EXIT VALUES (rsync 3.x); 255 is what ssh returns when it cannot connect or the
 * connection drops, and rsync passes it on.
 *
 * <ul>
 * <li>{@link #OK}: 0.</li>
 * <li>{@link #PARTIAL}: 24, "partial transfer due to vanished source files". Files deleted while
 *     rsync ran (log rotation, mail delivery) are normal on a live source; the replica is as good
 *     as the run, so it counts as a success with a warning.</li>
 * <li>{@link #TRANSIENT}, retried after {@code retry_delay}: the network or the peer hiccupped and a
 *     later attempt may well succeed. 10 (socket I/O), 12 (protocol data stream: usually the
 *     connection dropped mid-run), 30 (timeout in data send/receive), 35 (timeout waiting for a
 *     daemon connection), 255 (ssh could not connect or lost the link: peer rebooting, link
 *     down), and our own timeout kill (see {@link #classify(int, boolean)}).</li>
 * <li>{@link #FATAL}, raised as an alarm, not retried: the same run would fail the same way.
 *     1 (syntax or usage: a bad {@code rsync_options}), 2 (protocol incompatibility), 3 (errors
 *     selecting input/output files: a missing source), 4 (action not supported: e.g. -A/-X on a
 *     filesystem without ACLs/xattrs), 5 (error starting the client-server protocol: the remote
 *     rsync is missing or the remote shell prints junk), 6 (daemon log), 11 (file I/O error:
 *     typically the destination is full or read-only; waiting seconds does not fix that), 13
 *     (program diagnostics), 14 (IPC), 20 (rsync got SIGUSR1/SIGINT: someone stopped it on
 *     purpose), 21 (waitpid), 22 (out of memory), 23 (partial transfer due to error: files that
 *     could not be read or written, e.g. permissions, which a retry will hit again), 25
 *     (--max-delete stopped deletions), and every other code, including 127 (remote
 *     {@code rsync} not found), because an unknown failure must reach a human.</li>
 * </ul>
 */
public enum RsyncExit {
    /** Exit 0: all done. */
    OK,
    /** Exit 24: done, but some source files vanished during the run. */
    PARTIAL,
    /** Worth retrying. */
    TRANSIENT,
    /** Alarm: do not retry. */
    FATAL;

    /**
     * Classifies an rsync run.
     *
     * @param exitCode the exit status (any int; -1 when the process was killed)
     * @param timedOut {@code true} when we killed rsync because the job's {@code timeout} expired:
     *                 counted as {@link #TRANSIENT} (a slow or stalled link)
     * @return the class
     */
    public static RsyncExit classify(int exitCode, boolean timedOut) {
        if (timedOut) {
            return TRANSIENT;
        }
        return switch (exitCode) {
            case 0 -> OK;
            case 24 -> PARTIAL;
            case 10, 12, 30, 35, 255 -> TRANSIENT;
            default -> FATAL;
        };
    }

    /**
     * The rsync(1) description of a code, for log lines and {@code hb sync status}.
     *
     * @param exitCode exit status
     * @return a short text such as {@code "error in socket I/O"}; {@code "exit N"} when unknown
     */
    public static String describe(int exitCode) {
        return switch (exitCode) {
            case 0 -> "success";
            case 1 -> "syntax or usage error";
            case 2 -> "protocol incompatibility";
            case 3 -> "errors selecting input/output files, dirs";
            case 4 -> "requested action not supported";
            case 5 -> "error starting client-server protocol";
            case 6 -> "daemon unable to append to log-file";
            case 10 -> "error in socket I/O";
            case 11 -> "error in file I/O";
            case 12 -> "error in rsync protocol data stream";
            case 13 -> "errors with program diagnostics";
            case 14 -> "error in IPC code";
            case 20 -> "received SIGUSR1 or SIGINT";
            case 21 -> "some error returned by waitpid()";
            case 22 -> "error allocating core memory buffers";
            case 23 -> "partial transfer due to error";
            case 24 -> "partial transfer due to vanished source files";
            case 25 -> "the --max-delete limit stopped deletions";
            case 30 -> "timeout in data send/receive";
            case 35 -> "timeout waiting for daemon connection";
            case 127 -> "command not found";
            case 255 -> "ssh failed (connection refused, unreachable or dropped)";
            default -> "exit " + exitCode;
        };
    }
}
