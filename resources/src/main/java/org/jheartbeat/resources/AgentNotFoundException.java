package org.jheartbeat.resources;

import java.nio.file.Path;
import java.util.List;

/**
 * No regular executable file exists for a resource's script name in any of the directories
 * Heartbeat 3.0.6 ResourceManager looks in ({@code /etc/ha.d/resource.d}, then {@code
 * /etc/init.d}).
 */
public final class AgentNotFoundException extends ResourceAgentException {
    private static final long serialVersionUID = 1L;
    private final String resource;
    private final transient List<Path> lookedIn;

    /**
     * @param resource the haresources token, e.g. {@code labweb::8080}
     * @param lookedIn every candidate path that was checked, in lookup order
     */
    public AgentNotFoundException(String resource, List<Path> lookedIn) {
        super("Cannot locate resource script for " + resource + ": no regular executable file at "
                + String.join(" or ", lookedIn.stream().map(Path::toString).toList()));
        this.resource = resource;
        this.lookedIn = List.copyOf(lookedIn);
    }

    /** @return the haresources token whose script is missing */
    public String resource() {
        return resource;
    }

    /** @return the candidate paths, in lookup order */
    public List<Path> lookedIn() {
        return lookedIn;
    }
}
