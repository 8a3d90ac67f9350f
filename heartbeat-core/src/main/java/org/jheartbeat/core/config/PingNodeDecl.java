package org.jheartbeat.core.config;

import java.util.List;
import java.util.Objects;

/**
 * A ping pseudo-node declared in ha.cf (Heartbeat 3.0.6 ha.cf(5)): each host of a
 * {@code ping HOST...} line is a pseudo-node of its own, named by the host as written; a
 * {@code ping_group NAME HOST...} line is one pseudo-node named NAME that is up while any of its
 * hosts answers.
 *
 * @param name  the pseudo-node's name ({@code cl_status listnodes}): the host, or the group name
 * @param hosts the addresses or host names to send ICMP echo requests to (one for {@code ping})
 * @param group whether it came from {@code ping_group}
 * @param line  1-based ha.cf line
 */
public record PingNodeDecl(String name, List<String> hosts, boolean group, int line) {
    public PingNodeDecl {
        Objects.requireNonNull(name, "name");
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("a ping node needs at least one host");
        }
    }
}
