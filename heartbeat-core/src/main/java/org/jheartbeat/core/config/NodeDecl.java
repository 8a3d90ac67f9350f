package org.jheartbeat.core.config;

import java.util.Objects;

/**
 * One node named by an ha.cf {@code node} line (Heartbeat 3.0.6 ha.cf(5): {@code node a b} declares
 * two nodes on the same line).
 *
 * @param name the lowercased node name
 * @param line 1-based ha.cf line it was declared on
 */
public record NodeDecl(NodeName name, int line) {
    public NodeDecl {
        Objects.requireNonNull(name, "name");
    }
}
