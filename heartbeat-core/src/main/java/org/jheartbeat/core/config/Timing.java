package org.jheartbeat.core.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The failure-detection timers of ha.cf, as Heartbeat 3.0.6 ha.cf(5) defines them.
 *
 * @param keepalive interval between our {@code status} messages (default 1 s)
 * @param deadtime  silence after which a node is declared dead (default 30 s)
 * @param warntime  gap between two heartbeats that triggers a "Late heartbeat" warning (default deadtime/2)
 * @param initdead  dead time used until a node has first been heard from (default derived from deadtime)
 */
public record Timing(Duration keepalive, Duration deadtime, Duration warntime, Duration initdead) {
    public Timing {
        Objects.requireNonNull(keepalive, "keepalive");
        Objects.requireNonNull(deadtime, "deadtime");
        Objects.requireNonNull(warntime, "warntime");
        Objects.requireNonNull(initdead, "initdead");
    }

    /** Shorthand for tests: all four values in milliseconds. */
    public static Timing ofMillis(long keepaliveMs, long warntimeMs, long deadtimeMs, long initdeadMs) {
        return new Timing(Duration.ofMillis(keepaliveMs), Duration.ofMillis(deadtimeMs),
                Duration.ofMillis(warntimeMs), Duration.ofMillis(initdeadMs));
    }

    /**
     * Heartbeat 3.0.6's default initdead for a given deadtime ({@code config.c}): deadtime itself
     * when deadtime is over 10 s, 12 s when it is under 6 s, twice deadtime otherwise.
     */
    public static Duration defaultInitdead(Duration deadtime) {
        long ms = deadtime.toMillis();
        if (ms > 10_000) {
            return deadtime;
        }
        if (ms < 6_000) {
            return Duration.ofSeconds(12);
        }
        return deadtime.multipliedBy(2);
    }
}
