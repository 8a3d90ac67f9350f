package org.jheartbeat.core.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A STONITH device declared in ha.cf, as Heartbeat 3.0.6 ha.cf(5) defines it:
 * {@code stonith TYPE CONFIGFILE} (the device's parameters on one line of that file) or
 * {@code stonith_host FROMNODE|* TYPE PARAM...} (the device is attached to FROMNODE, or reachable
 * from any node with {@code *}). The type and parameters are checked by the stonith module.
 *
 * @param fromNode   the node the device is attached to; empty for {@code *} and for {@code stonith}
 * @param type       device type, e.g. {@code apcsmart}, {@code external/ssh}, {@code fence_ipmilan}
 * @param params     positional parameters (empty for {@code stonith TYPE CONFIGFILE})
 * @param configFile the parameter file of a {@code stonith} line
 * @param line       1-based ha.cf line
 */
public record StonithDecl(Optional<NodeName> fromNode, String type, List<String> params, Optional<Path> configFile,
                          int line) {
    public StonithDecl {
        Objects.requireNonNull(fromNode, "fromNode");
        Objects.requireNonNull(type, "type");
        params = List.copyOf(params);
        Objects.requireNonNull(configFile, "configFile");
    }

    /** Whether this device is usable from {@code node} ({@code *}, a {@code stonith} line, or FROMNODE = node). */
    public boolean usableFrom(NodeName node) {
        return fromNode.isEmpty() || fromNode.get().equals(node);
    }
}
