package org.jheartbeat.resources.ocf;

import org.jheartbeat.resources.ResourceAgentException;

/** An OCF agent's meta-data cannot be obtained or read. */
public final class OcfMetadataException extends ResourceAgentException {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong */
    public OcfMetadataException(String message) {
        super(message);
    }
}
