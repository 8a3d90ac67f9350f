package org.jheartbeat.director.table;

import java.util.Objects;

/**
 * A real server in the table with its figures.
 *
 * @param spec        what is configured
 * @param activeConns ActiveConn
 * @param inactConns  InActConn
 * @param stats       totals ({@code --stats})
 * @param rate        rates ({@code --rate})
 */
public record TableReal(RealSpec spec, long activeConns, long inactConns, Counters stats, Counters rate) {
    public TableReal {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(rate, "rate");
    }

    /** A real server with no traffic. */
    public static TableReal idle(RealSpec spec) {
        return new TableReal(spec, 0, 0, Counters.ZERO, Counters.ZERO);
    }
}
