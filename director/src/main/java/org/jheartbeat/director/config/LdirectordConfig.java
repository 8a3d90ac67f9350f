package org.jheartbeat.director.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A whole ldirectord.cf: its global settings and its virtual services, in file order.
 *
 * @param file     the file it was read from
 * @param globals  the global settings
 * @param virtuals the virtual services
 */
public record LdirectordConfig(Path file, GlobalSettings globals, List<VirtualService> virtuals) {
    public LdirectordConfig {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(globals, "globals");
        virtuals = List.copyOf(virtuals);
    }

    /** The virtual service with this key, if configured. */
    public Optional<VirtualService> virtual(ServiceKey key) {
        return virtuals.stream().filter(v -> v.key().equals(key)).findFirst();
    }
}
