package org.jheartbeat.resources.ip;

import org.jheartbeat.resources.ResourceAgentException;

/**
 * An IPaddr resource argument cannot be used: it does not parse, or its prefix/interface cannot
 * be found in the routing table.
 */
public final class IpAddrSpecException extends ResourceAgentException {
    private static final long serialVersionUID = 1L;

    /** @param message names the token and what is wrong with it */
    public IpAddrSpecException(String message) {
        super(message);
    }
}
