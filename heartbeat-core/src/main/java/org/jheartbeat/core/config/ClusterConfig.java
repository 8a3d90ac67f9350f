package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.auth.AuthKeys;

/**
 * A validated, immutable cluster configuration read from a config directory ({@code ha.cf},
 * {@code authkeys}, {@code haresources}). A reload builds a new instance; nothing mutates one.
 *
 * @param configDir      the directory it was read from, e.g. {@code /etc/ha.d}
 * @param timing         keepalive, deadtime, warntime, initdead
 * @param udpPort        ha.cf {@code udpport} (default 694)
 * @param nodes          the {@code node} names in file order
 * @param media          every heartbeat medium in file order
 * @param autoFailback   ha.cf {@code auto_failback}
 * @param logging        logfile, debugfile, logfacility
 * @param authKeys       the authkeys contents
 * @param resourceGroups the haresources groups in file order
 * @param stonith        STONITH devices ({@code stonith}, {@code stonith_host}) in file order
 * @param ping           ping nodes, deadping and whether the ipfail rule is on ({@link PingSettings#NONE}: none)
 * @param watchdog       ha.cf {@code watchdog}: the kernel watchdog device (or a FIFO standing in for one in
 *                       tests), checked when ha.cf was read; empty for none
 */
public record ClusterConfig(Path configDir, Timing timing, int udpPort, List<NodeName> nodes,
                            List<MediumDecl> media, FailbackPolicy autoFailback, LogSettings logging,
                            AuthKeys authKeys, List<ResourceGroupDecl> resourceGroups, List<StonithDecl> stonith,
                            PingSettings ping, Optional<Path> watchdog) {
    /** Heartbeat's default UDP port ({@code ha-cluster/udp}). */
    public static final int DEFAULT_UDP_PORT = 694;

    public ClusterConfig {
        Objects.requireNonNull(configDir, "configDir");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(autoFailback, "autoFailback");
        Objects.requireNonNull(logging, "logging");
        Objects.requireNonNull(authKeys, "authKeys");
        nodes = List.copyOf(nodes);
        media = List.copyOf(media);
        resourceGroups = List.copyOf(resourceGroups);
        stonith = List.copyOf(stonith);
        Objects.requireNonNull(ping, "ping");
        Objects.requireNonNull(watchdog, "watchdog");
    }

    /** A configuration without a watchdog device. */
    public ClusterConfig(Path configDir, Timing timing, int udpPort, List<NodeName> nodes, List<MediumDecl> media,
                         FailbackPolicy autoFailback, LogSettings logging, AuthKeys authKeys,
                         List<ResourceGroupDecl> resourceGroups, List<StonithDecl> stonith, PingSettings ping) {
        this(configDir, timing, udpPort, nodes, media, autoFailback, logging, authKeys, resourceGroups, stonith, ping,
                Optional.empty());
    }

    /** A configuration without ping nodes ({@link PingSettings#NONE}). */
    public ClusterConfig(Path configDir, Timing timing, int udpPort, List<NodeName> nodes, List<MediumDecl> media,
                         FailbackPolicy autoFailback, LogSettings logging, AuthKeys authKeys,
                         List<ResourceGroupDecl> resourceGroups, List<StonithDecl> stonith) {
        this(configDir, timing, udpPort, nodes, media, autoFailback, logging, authKeys, resourceGroups, stonith,
                PingSettings.NONE);
    }

    /** The same configuration with other keys (e.g. with jheartbeat.yaml's key roll-over window). */
    public ClusterConfig withAuthKeys(AuthKeys keys) {
        return new ClusterConfig(configDir, timing, udpPort, nodes, media, autoFailback, logging, keys, resourceGroups,
                stonith, ping, watchdog);
    }

    /**
     * The STONITH device this node uses, as Heartbeat 3.0.6 picks it: the last {@code stonith} or
     * {@code stonith_host} line usable from {@code local} (lines for other nodes are ignored).
     */
    public Optional<StonithDecl> stonithFor(NodeName local) {
        StonithDecl found = null;
        for (StonithDecl d : stonith) {
            if (d.usableFrom(local)) {
                found = d;
            }
        }
        return Optional.ofNullable(found);
    }

    /** The other node of a two-node cluster, seen from {@code local}; empty for a one-node config. */
    public Optional<NodeName> peerOf(NodeName local) {
        return nodes.stream().filter(n -> !n.equals(local)).findFirst();
    }
}
