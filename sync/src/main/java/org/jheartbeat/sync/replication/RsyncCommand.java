package org.jheartbeat.sync.replication;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.sync.config.ReplicationJobSpec;

/**
 * Builds rsync argv for replication (pure). Every run uses {@code -aHAX --numeric-ids --stats
 * --partial}: archive mode with hard links, ACLs and xattrs, numeric ownership (the nodes' user
 * databases may differ), a report to parse, and kept partial files so a retried run resumes large
 * files. Then {@code --delete} when the job says so, {@code --info=progress2} when someone watches
 * ({@code hb sync run}), the job's {@code rsync_options}, and for the peer {@code -e SSH},
 * {@code --protect-args} and {@code --mkpath} (rsync 3.2.3+: creates a missing destination path on
 * the peer). {@code --protect-args} ({@code -s}, rsync 3.0+) sends the paths to the peer's rsync
 * over the protocol instead of on the ssh command line, which the peer's login shell would split
 * and expand: a path with blanks, quotes or {@code $(...)} arrives as written and runs nothing.
 * rsync 3.2.4+ escapes such paths by default, but older rsync (Debian 11, RHEL 8) and
 * {@code RSYNC_OLD_ARGS=1} do not. The source ends
 * in {@code /} so its contents, not the directory itself, land in the destination directory.
 */
public final class RsyncCommand {
    /** Paths go to the peer over rsync's protocol, never through its shell (see the class comment). */
    static final String PROTECT_ARGS = "--protect-args";

    private RsyncCommand() {
    }

    /**
     * The destination of one source path.
     *
     * @param job         the job
     * @param source      one of its paths (absolute)
     * @param peerAddress the peer's address for a peer job (ignored for a path target)
     * @return {@code ADDR:/src/path/} for the peer ({@code [ADDR]} for IPv6), or
     *         {@code <target>/<path without leading />/} for a path target
     */
    public static String destination(ReplicationJobSpec job, Path source, String peerAddress) {
        if (job.toPeer()) {
            String host = peerAddress.contains(":") && !peerAddress.contains("[") ? "[" + peerAddress + "]" : peerAddress;
            return host + ":" + withSlash(source.toString());
        }
        return withSlash(localDestination(job, source).toString());
    }

    /**
     * @param job    a job with a path target
     * @param source one of its paths
     * @return {@code <target>/<path without leading />}
     */
    public static Path localDestination(ReplicationJobSpec job, Path source) {
        Path target = job.targetPath().orElseThrow(() -> new IllegalArgumentException(job.name() + " targets the peer"));
        return target.resolve(source.getRoot().relativize(source));
    }

    /**
     * The argv of one rsync run.
     *
     * @param rsync       the rsync program ({@code rsync} or an absolute path)
     * @param job         the job
     * @param source      one of its paths
     * @param peerAddress the peer's address (peer jobs only; may be null for path targets)
     * @param ssh         the remote shell argv ({@code sync.yaml ssh}); used for peer jobs only
     * @param progress    add {@code --info=progress2}
     * @return the argv
     */
    public static List<String> build(String rsync, ReplicationJobSpec job, Path source, String peerAddress,
                                     List<String> ssh, boolean progress) {
        return build(rsync, job, source, peerAddress, ssh, progress, java.util.Optional.empty());
    }

    /**
     * As {@link #build(String, ReplicationJobSpec, Path, String, List, boolean)}; with a backup dir,
     * files the run would replace or delete on the receiver are moved there instead
     * ({@code --backup --backup-dir=DIR}, DIR absolute on the receiver; rsync(1)).
     *
     * @param backupDir where the receiver keeps what the run displaces, or empty
     * @return the argv
     */
    public static List<String> build(String rsync, ReplicationJobSpec job, Path source, String peerAddress,
                                     List<String> ssh, boolean progress, java.util.Optional<Path> backupDir) {
        List<String> argv = new ArrayList<>(List.of(rsync, "-aHAX", "--numeric-ids", "--stats", "--partial"));
        if (job.delete()) {
            argv.add("--delete");
        }
        backupDir.ifPresent(d -> {
            argv.add("--backup");
            argv.add("--backup-dir=" + d);
        });
        if (progress) {
            argv.add("--info=progress2");
        }
        argv.addAll(job.rsyncOptions());
        if (job.toPeer()) {
            argv.add("-e");
            argv.add(remoteShell(ssh));
            argv.add(PROTECT_ARGS);
            argv.add("--mkpath");
        }
        argv.add(withSlash(source.toString()));
        argv.add(destination(job, source, peerAddress));
        return argv;
    }

    /**
     * Joins an argv into one {@code rsync -e} string. rsync splits that string on blanks and
     * honours single and double quotes (rsync(1), {@code --rsh}); words with blanks or quotes are
     * quoted accordingly.
     *
     * @param ssh argv, e.g. {@code [ssh, -o, BatchMode=yes]}
     * @return e.g. {@code ssh -o BatchMode=yes}
     */
    public static String remoteShell(List<String> ssh) {
        List<String> words = new ArrayList<>();
        for (String w : ssh) {
            if (w.isEmpty()) {
                words.add("''");
            } else if (!w.matches(".*[\\s'\"\\\\].*")) {
                words.add(w);
            } else if (!w.contains("'")) {
                words.add("'" + w + "'");
            } else {
                words.add("\"" + w.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
            }
        }
        return String.join(" ", words);
    }

    private static String withSlash(String p) {
        return p.endsWith("/") ? p : p + "/";
    }
}
