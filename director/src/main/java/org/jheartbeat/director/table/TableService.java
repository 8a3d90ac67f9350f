package org.jheartbeat.director.table;

import java.util.List;
import java.util.Objects;

/**
 * A virtual service in the table with its real servers (sorted as ipvsadm lists them) and figures.
 *
 * @param spec  what is configured
 * @param reals its real servers
 * @param stats totals ({@code --stats})
 * @param rate  rates ({@code --rate})
 */
public record TableService(ServiceSpec spec, List<TableReal> reals, Counters stats, Counters rate) {
    public TableService {
        Objects.requireNonNull(spec, "spec");
        reals = List.copyOf(reals);
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(rate, "rate");
    }
}
