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
 */
public record PingSettings(List<PingNodeDecl> nodes, Duration deadping, boolean ipfail) {
    /** No ping nodes, no ipfail. */
    public static final PingSettings NONE = new PingSettings(List.of(), Duration.ofSeconds(30), false);

    public PingSettings {
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(deadping, "deadping");
        if (deadping.isNegative() || deadping.isZero()) {
            throw new IllegalArgumentException("deadping must be positive");
        }
    }
}
