package org.jheartbeat.resources;

/**
 * A resource cannot be managed at all: its agent is missing or its arguments are invalid. Not
 * thrown for a start/stop that merely fails (that is an {@link AgentResult}).
 */
public class ResourceAgentException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message names the resource token and the reason */
    public ResourceAgentException(String message) {
        super(message);
    }
}
