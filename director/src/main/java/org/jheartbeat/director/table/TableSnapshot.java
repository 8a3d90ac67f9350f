package org.jheartbeat.director.table;

import java.util.List;
import java.util.Optional;
import org.jheartbeat.director.config.ServiceKey;

/**
 * The virtual-service table at one moment, services in ipvsadm's listing order.
 *
 * @param services    the services with their real servers
 * @param connections connection entries (read only when asked for)
 */
public record TableSnapshot(List<TableService> services, List<ConnectionEntry> connections) {
    public TableSnapshot {
        services = List.copyOf(services);
        connections = List.copyOf(connections);
    }

    /** An empty table. */
    public static TableSnapshot empty() {
        return new TableSnapshot(List.of(), List.of());
    }

    /** The service with this key, if present. */
    public Optional<TableService> service(ServiceKey key) {
        return services.stream().filter(s -> s.spec().key().equals(key)).findFirst();
    }
}
