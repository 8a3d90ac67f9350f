package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The contents of one ha.cf as written, before defaults and cross-field rules
 * ({@link ConfigValidator} applies those). Values a file did not set are empty; each set value keeps
 * the line it came from so that later diagnostics can point at it.
 *
 * @param file         the ha.cf path, for diagnostics
 * @param keepaliveMs  {@code keepalive} in ms, if set
 * @param deadtimeMs   {@code deadtime} in ms, if set
 * @param warntimeMs   {@code warntime} in ms, if set
 * @param initdeadMs   {@code initdead} in ms, if set
 * @param udpPort      {@code udpport} in force for the media (default {@value ClusterConfig#DEFAULT_UDP_PORT})
 * @param nodes        {@code node} names in file order, duplicates dropped
 * @param media        bcast/ucast/mcast/serial media in file order
 * @param stonith      {@code stonith} and {@code stonith_host} lines in file order
 * @param autoFailback {@code auto_failback}, if set
 * @param logging      logfile, debugfile, logfacility
 * @param deadpingMs   {@code deadping} in ms, if set (dead time of ping nodes)
 * @param pingNodes    {@code ping} and {@code ping_group} pseudo-nodes in file order
 * @param ipfailLine   the {@code respawn} line that names {@code ipfail}, if any (enables the ipfail rule)
 * @param watchdog     the {@code watchdog} device, if set (checked when read: see {@code WatchdogDirective})
 * @param rejected     the directives (by keyword, e.g. {@code deadtime}) with a line refused by an error: their
 *                     value is the default or an earlier line's, which the combined checks must not judge
 */
public record HaCf(Path file, Optional<Setting<Long>> keepaliveMs, Optional<Setting<Long>> deadtimeMs,
                   Optional<Setting<Long>> warntimeMs, Optional<Setting<Long>> initdeadMs, int udpPort,
                   List<NodeDecl> nodes, List<MediumDecl> media, Optional<Setting<FailbackPolicy>> autoFailback,
                   LogSettings logging, List<StonithDecl> stonith, Optional<Setting<Long>> deadpingMs,
                   List<PingNodeDecl> pingNodes, Optional<Integer> ipfailLine, Optional<Setting<Path>> watchdog,
                   Set<String> rejected) {

    /**
     * A value together with the 1-based ha.cf line that set it (the last line wins, as in Heartbeat).
     *
     * @param value the parsed value
     * @param line  1-based line
     * @param <T>   value type
     */
    public record Setting<T>(T value, int line) {
        public Setting {
            Objects.requireNonNull(value, "value");
        }
    }

    public HaCf {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(deadpingMs, "deadpingMs");
        nodes = List.copyOf(nodes);
        media = List.copyOf(media);
        stonith = List.copyOf(stonith);
        pingNodes = List.copyOf(pingNodes);
        Objects.requireNonNull(ipfailLine, "ipfailLine");
        Objects.requireNonNull(watchdog, "watchdog");
        rejected = Set.copyOf(rejected);
    }

    /** The node names alone, in file order. */
    public List<NodeName> nodeNames() {
        return nodes.stream().map(NodeDecl::name).toList();
    }
}
