package org.jheartbeat.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Ping nodes and the ipfail rule, as ha.cf declares them (Heartbeat 3.0.6 ha.cf(5) {@code ping},
 * {@code ping_group}, {@code deadping}, and {@code respawn hacluster /usr/lib/heartbeat/ipfail}).
 *
 * @param nodes    the ping pseudo-nodes in file order
 * @param deadping silence after which a ping node is dead (ha.cf {@code deadping}, default deadtime)
 * @param ipfail   whether a {@code respawn} line names {@code ipfail}: only then does a node that sees
 *                 fewer ping nodes than its peer hand its groups over; otherwise ping nodes are only
 *                 reported
 * @param nodeTable the names of the cluster nodes and the ping nodes in ha.cf line order, as Heartbeat
 *                 builds its node table ({@code cl_status listnodes} prints it backwards); empty when
 *                 there are no ping nodes
 */
public record PingSettings(List<PingNodeDecl> nodes, Duration deadping, boolean ipfail, List<String> nodeTable) {
    /** No ping nodes, no ipfail. */
    public static final PingSettings NONE = new PingSettings(List.of(), Duration.ofSeconds(30), false);

    /** Settings without a recorded node table (ping nodes taken as declared after the cluster nodes). */
    public PingSettings(List<PingNodeDecl> nodes, Duration deadping, boolean ipfail) {
        this(nodes, deadping, ipfail, List.of());
    }

    public PingSettings {
        nodes = List.copyOf(nodes);
        nodeTable = List.copyOf(nodeTable);
        Objects.requireNonNull(deadping, "deadping");
        if (deadping.isNegative() || deadping.isZero()) {
            throw new IllegalArgumentException("deadping must be positive");
        }
    }
}
