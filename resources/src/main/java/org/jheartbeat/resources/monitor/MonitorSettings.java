package org.jheartbeat.resources.monitor;

import java.time.Duration;
import java.util.Objects;

/**
 * How one resource is watched, with Pacemaker's meanings: {@code interval} of the recurring
 * {@code monitor} operation, its {@code timeout}, how many in-place restarts are allowed
 * ({@code migration-threshold} minus one) and how long a failure counts ({@code failure-timeout}).
 *
 * @param interval    time between the end of one monitor and the start of the next, &gt; 0 (default 10 s)
 * @param timeout     how long one monitor may take before it counts as failed, &gt; 0 (default 20 s)
 * @param maxRestarts in-place restarts allowed within {@code window}, &ge; 0 (default 3); the failure
 *                    after those moves the group
 * @param window      how long a failure counts towards {@code maxRestarts}, &gt; 0 (default 10 min)
 * @throws IllegalArgumentException if a duration is not positive or {@code maxRestarts} is negative
 */
public record MonitorSettings(Duration interval, Duration timeout, int maxRestarts, Duration window) {
    /** Every 10 s, 20 s timeout, 3 restarts within 10 minutes (issue 14 item 2). */
    public static final MonitorSettings DEFAULT =
            new MonitorSettings(Duration.ofSeconds(10), Duration.ofSeconds(20), 3, Duration.ofMinutes(10));

    public MonitorSettings {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(window, "window");
        if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()
                || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("monitor interval, timeout and window must be positive");
        }
        if (maxRestarts < 0) {
            throw new IllegalArgumentException("maxRestarts must be 0 or more, not " + maxRestarts);
        }
    }
}
