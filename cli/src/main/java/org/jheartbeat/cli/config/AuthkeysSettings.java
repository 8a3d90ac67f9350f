package org.jheartbeat.cli.config;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * jheartbeat.yaml {@code authkeys:}: what this node allows beyond its authkeys file's {@code auth} key.
 * <pre>
 * authkeys:
 *   rollover_until: 2026-12-06T18:00:00Z   # a key roll-over: every key of authkeys is accepted until then
 *   crc_links: [eth1]                      # crc is allowed on these interfaces (crossover cables)
 * </pre>
 *
 * @param rolloverUntil until when frames signed with any key of authkeys are accepted (a key roll-over, see
 *                      docs/security.md); empty: only the {@code auth} key
 * @param crcLinks      interfaces the admin vouches are crossover cables, where {@code crc} may authenticate;
 *                      serial media need no entry
 */
public record AuthkeysSettings(Optional<Instant> rolloverUntil, Set<String> crcLinks) {
    /** No roll-over, crc on serial media only. */
    public static final AuthkeysSettings NONE = new AuthkeysSettings(Optional.empty(), Set.of());

    public AuthkeysSettings {
        Objects.requireNonNull(rolloverUntil, "rolloverUntil");
        crcLinks = Set.copyOf(crcLinks);
    }
}
