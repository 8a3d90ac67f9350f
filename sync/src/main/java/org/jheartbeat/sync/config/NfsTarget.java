package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A replication job's target declared as an NFS export ({@code target: {nfs: SERVER:/EXPORT, mount: DIR,
 * options: [...], timeout: 10s, automount: true}} in sync.yaml). The job copies into {@code mountPoint}
 * only after proving, from {@code /proc/self/mountinfo}, that an NFS file system of exactly this source is
 * mounted there (mounting it first when {@code automount}); every operation that touches the server runs
 * in a child process killed after {@code timeout} (docs/design/sync.md, "NFS targets").
 *
 * @param server     the server as written: a host name, an IPv4 address or {@code [IPv6]}
 * @param export     the exported path on the server, absolute (for NFSv4 the pseudo-file-system path)
 * @param mountPoint the local directory the export is mounted on; the job's files go below it
 * @param options    mount options, one per item, e.g. {@code vers=4.2}, {@code soft}, {@code timeo=50}
 * @param timeout    bound of each operation on the server or the mount (the RPC ping, the mount, a
 *                   {@code statfs}, a {@code mkdir}, the stamp) and the longest the copy may go on
 *                   without the server answering a ping
 * @param automount  {@code true}: the job mounts the export itself when nothing is mounted there (and
 *                   leaves it mounted); {@code false}: the admin mounts it (fstab) and the job only checks
 */
public record NfsTarget(String server, String export, Path mountPoint, List<String> options, Duration timeout,
                        boolean automount) {
    /** Default {@code timeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** The NFS port when no {@code port=} option gives another (RFC 7530 section 3.1). */
    public static final int NFS_PORT = 2049;

    public NfsTarget {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(export, "export");
        Objects.requireNonNull(mountPoint, "mountPoint");
        options = List.copyOf(options);
        Objects.requireNonNull(timeout, "timeout");
    }

    /** @return {@code SERVER:/EXPORT}, the source that mount(8) takes and mountinfo shows */
    public String source() {
        return server + ":" + export;
    }

    /** @return the server's address for a socket: the host, or an IPv6 address without brackets */
    public String host() {
        return server.startsWith("[") && server.endsWith("]") ? server.substring(1, server.length() - 1) : server;
    }

    /** @return the NFS major version the mount asks for: 3 for {@code vers=3}/{@code nfsvers=3}, else 4 */
    public int majorVersion() {
        String v = option("vers");
        if (v == null) {
            v = option("nfsvers");
        }
        return v != null && v.startsWith("3") ? 3 : 4;
    }

    /** @return the server's NFS port: the {@code port=} option when it is a number above 0, else 2049 */
    public int port() {
        String p = option("port");
        try {
            int n = p == null ? 0 : Integer.parseInt(p);
            return n > 0 ? n : NFS_PORT;
        } catch (NumberFormatException e) {
            return NFS_PORT;
        }
    }

    /**
     * Whether this export is served by a node: the server, as written, is the node's name or its address
     * (as under {@code nodes:}; IPv6 brackets ignored). A job whose server is the dead peer must not run:
     * its mount would not answer.
     *
     * @param node    a node name
     * @param address its address, or {@code null}
     * @return true when the server is that node
     */
    public boolean servedBy(String node, String address) {
        String addr = address == null ? null : address.replaceAll("^\\[|\\]$", "");
        return host().equalsIgnoreCase(node) || host().equalsIgnoreCase(addr);
    }

    /** @return the options joined for {@code mount -o} */
    public String mountOptions() {
        return String.join(",", options);
    }

    private String option(String key) {
        for (String o : options) {
            int eq = o.indexOf('=');
            if (eq > 0 && o.substring(0, eq).toLowerCase(Locale.ROOT).equals(key)) {
                return o.substring(eq + 1);
            }
        }
        return null;
    }
}
