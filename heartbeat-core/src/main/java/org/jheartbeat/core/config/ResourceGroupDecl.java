package org.jheartbeat.core.config;

import java.util.List;
import java.util.Objects;

/**
 * One resource group: a logical line of haresources, {@code node resource [resource...]}.
 * Resources start left to right and stop right to left. The group key, used on the wire
 * ({@code ip-request ipaddr=KEY}), is the first resource token (Heartbeat 3.0.6 ResourceManager).
 *
 * @param preferredNode the node named first on the line (the group's "home")
 * @param resources     at least one resource, in start order
 * @param line          1-based line of haresources where the logical line starts
 */
public record ResourceGroupDecl(NodeName preferredNode, List<ResourceSpec> resources, int line) {
    public ResourceGroupDecl {
        Objects.requireNonNull(preferredNode, "preferredNode");
        resources = List.copyOf(resources);
        if (resources.isEmpty()) {
            throw new IllegalArgumentException("a resource group needs at least one resource");
        }
    }

    /** The group key: the first resource's token as written. */
    public String key() {
        return resources.get(0).token();
    }

    @Override
    public String toString() {
        return preferredNode + " " + String.join(" ", resources.stream().map(ResourceSpec::token).toList());
    }
}
