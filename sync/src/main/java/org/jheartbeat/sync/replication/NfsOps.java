package org.jheartbeat.sync.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.sync.config.NfsTarget;

/**
 * Every operation of a replication job that touches an NFS server or its mount, each in a child process
 * killed (with its descendants) after the target's {@code timeout}: a server that stops answering blocks
 * file-system calls on its mount (a hard mount for ever, a soft one for {@code timeo} × {@code retrans}),
 * and such a call on a daemon thread could not be taken back. The caller gets a one-line failure or
 * nothing; a bound that ran out reads {@code NFS server X not answering within N s (what)}.
 *
 * <p>The server ping is an ONC RPC {@code NULL} call (RFC 5531; program 100003, the mount's NFS version,
 * procedure 0, no credentials) over TCP to the NFS port, written by {@code bash}'s {@code /dev/tcp}: it
 * shows that the server's NFS service answers without touching the mount, so a dead server is told
 * apart from a slow copy, and it needs neither rpcbind on the server (an NFSv4-only server runs none) nor
 * {@code rpcinfo}, which asks rpcbind first even when given the port.
 */
public final class NfsOps {
    /** Exit code of the ping script when the TCP connection cannot be made. */
    private static final int NO_CONNECTION = 3;
    private static final String PING = "exec 3<>/dev/tcp/\"$1\"/\"$2\" || exit " + NO_CONNECTION + "\n"
            + "printf \"\\x80\\x00\\x00\\x28\\x6a\\x68\\x62\\x31\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02"
            + "\\x00\\x01\\x86\\xa3\\x00\\x00\\x00\\x0$3\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"
            + "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\" >&3\n"
            + "head -c 28 <&3 | od -An -v -tx1\n";

    private final List<String> prefix;

    /**
     * @param prefix words put before every command (empty in production; a test runs the commands in a
     *               lab node's network namespace with {@code ip netns exec NS})
     */
    public NfsOps(List<String> prefix) {
        this.prefix = List.copyOf(prefix);
    }

    /** The operations as the daemon runs them: no prefix. */
    public static NfsOps system() {
        return new NfsOps(List.of());
    }

    /**
     * Pings the server's NFS service (RPC NULL) within the target's timeout.
     *
     * @param t the target
     * @return empty when the server answered; else why not
     * @throws InterruptedIOException if the calling thread is interrupted (the child is killed)
     */
    public Optional<String> ping(NfsTarget t) throws InterruptedIOException {
        ProcessResult r = run(t, "RPC ping", List.of("bash", "-c", PING, "nfs-ping", t.host(),
                Integer.toString(t.port()), Integer.toString(t.majorVersion())));
        if (r == null || r.timedOut()) {
            return Optional.of(notAnswering(t, "RPC ping of port " + t.port()));
        }
        if (r.exitCode() == NO_CONNECTION) {
            return Optional.of("NFS server " + t.server() + " not answering: no connection to port " + t.port()
                    + SyncText.lastLine(r.stderr()));
        }
        String hex = r.stdout().replaceAll("\\s+", "");
        // record mark (4 bytes), xid (4), msg_type REPLY = 1 (4): the server answered the call
        if (hex.length() < 24 || !hex.substring(16, 24).equals("00000001")) {
            return Optional.of("NFS server " + t.server() + " did not answer an RPC call on port " + t.port()
                    + " (is that port its NFS service?)");
        }
        return Optional.empty();
    }

    /**
     * Mounts the export on its mount point ({@code mount -t nfs -o OPTIONS SERVER:/EXPORT DIR}; the
     * directory is created first, also in a child, since its parent may be on a hung mount).
     *
     * @param t the target
     * @return empty when mount(8) succeeded; else why not
     * @throws InterruptedIOException if the calling thread is interrupted (the child is killed)
     */
    public Optional<String> mount(NfsTarget t) throws InterruptedIOException {
        Optional<String> dir = mkdirs(t, List.of(t.mountPoint()));
        if (dir.isPresent()) {
            return dir;
        }
        List<String> argv = new ArrayList<>(List.of("mount", "-t", "nfs"));
        if (!t.options().isEmpty()) {
            argv.addAll(List.of("-o", t.mountOptions()));
        }
        argv.addAll(List.of(t.source(), t.mountPoint().toString()));
        ProcessResult r = run(t, "mount", argv);
        if (r == null || r.timedOut()) {
            return Optional.of(notAnswering(t, "mount"));
        }
        if (!r.succeeded()) {
            return Optional.of("cannot mount " + t.source() + " on " + t.mountPoint() + ": mount exit " + r.exitCode()
                    + SyncText.lastLine(r.stderr().isBlank() ? r.stdout() : r.stderr()));
        }
        return Optional.empty();
    }

    /**
     * Asks the mount for its file-system statistics ({@code stat -f}), which goes to the server.
     *
     * @param t the target
     * @return empty when it answered; else why not
     * @throws InterruptedIOException if the calling thread is interrupted (the child is killed)
     */
    public Optional<String> statfs(NfsTarget t) throws InterruptedIOException {
        ProcessResult r = run(t, "statfs", List.of("stat", "-f", "-c", "%T", t.mountPoint().toString()));
        if (r == null || r.timedOut()) {
            return Optional.of(notAnswering(t, "statfs of " + t.mountPoint()));
        }
        if (!r.succeeded()) {
            return Optional.of("cannot stat " + t.mountPoint() + SyncText.lastLine(r.stderr()));
        }
        return Optional.empty();
    }

    /**
     * Creates directories on the mount ({@code mkdir -p}).
     *
     * @param t    the target
     * @param dirs absolute directories
     * @return empty when made; else why not
     * @throws InterruptedIOException if the calling thread is interrupted (the child is killed)
     */
    public Optional<String> mkdirs(NfsTarget t, List<Path> dirs) throws InterruptedIOException {
        List<String> argv = new ArrayList<>(List.of("mkdir", "-p", "--"));
        dirs.forEach(d -> argv.add(d.toString()));
        ProcessResult r = run(t, "mkdir", argv);
        if (r == null || r.timedOut()) {
            return Optional.of(notAnswering(t, "mkdir"));
        }
        if (!r.succeeded()) {
            return Optional.of("cannot create " + dirs.get(0) + SyncText.lastLine(r.stderr()));
        }
        return Optional.empty();
    }

    /**
     * Copies a local file onto the mount, written under {@code TO.new} and renamed, so a reader never sees
     * half a file.
     *
     * @param t    the target
     * @param from a local file
     * @param to   its place on the mount
     * @return empty when copied; else why not
     * @throws InterruptedIOException if the calling thread is interrupted (the child is killed)
     */
    public Optional<String> copy(NfsTarget t, Path from, Path to) throws InterruptedIOException {
        ProcessResult r = run(t, "copy", List.of("sh", "-c", "mkdir -p -- \"$(dirname -- \"$2\")\" && cp -- \"$1\""
                + " \"$2.new\" && mv -f -- \"$2.new\" \"$2\"", "nfs-copy", from.toString(), to.toString()));
        if (r == null || r.timedOut()) {
            return Optional.of(notAnswering(t, "writing " + to));
        }
        if (!r.succeeded()) {
            return Optional.of("cannot write " + to + SyncText.lastLine(r.stderr()));
        }
        return Optional.empty();
    }

    /**
     * @param t    the target
     * @param what the operation, for the reader
     * @return {@code NFS server X not answering within N s (what)}
     */
    public static String notAnswering(NfsTarget t, String what) {
        return "NFS server " + t.server() + " not answering within " + seconds(t.timeout()) + " (" + what + ")";
    }

    /** {@code 10 s}, {@code 2.5 s}. */
    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** The child's result, or {@code null} when it could not be started (reported as not answering). */
    private ProcessResult run(NfsTarget t, String what, List<String> argv) throws InterruptedIOException {
        Objects.requireNonNull(t, "t");
        List<String> all = new ArrayList<>(prefix);
        all.addAll(argv);
        try {
            return RsyncProcess.run(all, t.timeout(), null);
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            return new ProcessResult(127, "", "cannot start " + all.get(0) + " for " + what + ": " + e.getMessage(),
                    false);
        }
    }
}
