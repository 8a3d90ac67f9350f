package org.jheartbeat.director.config;

import java.util.Objects;

/**
 * The {@code fallback=} server of a virtual service: added with weight 1 while no real server is
 * up, deleted (never quiesced) as soon as one is [ldirectord 4.x].
 *
 * @param endpoint where to send clients (the virtual's port when the directive gives none)
 * @param forward  gate (the default), masq or ipip
 */
public record FallbackServer(Endpoint endpoint, Forward forward) {
    public FallbackServer {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(forward, "forward");
    }
}
