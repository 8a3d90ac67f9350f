package org.jheartbeat.cli.logging;

import java.util.OptionalLong;

/**
 * Decides when to warn that log lines were dropped: as soon as the count grows, then at most once per
 * interval, each time with the lines dropped since the last warning (keepalived's rate-limited
 * logging of bad packets). Pure: the caller passes the total and the time.
 */
public final class DropReportPolicy {
    private final long intervalNanos;
    private long reportedTotal;
    private long lastReportNanos;
    private boolean reported;

    /** @param intervalNanos the least time between two warnings, in ns (positive) */
    public DropReportPolicy(long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval " + intervalNanos + " ns is not positive");
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * @param totalDropped lines dropped since start, never decreasing
     * @param nowNanos     monotonic time, in ns
     * @return the lines dropped since the last warning if a warning is due now, else empty
     */
    public OptionalLong due(long totalDropped, long nowNanos) {
        if (totalDropped <= reportedTotal || reported && nowNanos - lastReportNanos < intervalNanos) {
            return OptionalLong.empty();
        }
        long fresh = totalDropped - reportedTotal;
        reportedTotal = totalDropped;
        lastReportNanos = nowNanos;
        reported = true;
        return OptionalLong.of(fresh);
    }
}
