package org.jheartbeat.cli.watchdog;

/**
 * When to pet a watchdog: at the first chance, then whenever at least {@code interval} has passed
 * since the last pet. Pure (the caller passes monotonic time); not thread-safe (one loop thread asks).
 * The cluster loop wakes at least every 100 ms, so a pet is at most that late.
 */
public final class PetSchedule {
    private final long intervalNanos;
    private long lastNanos;
    private boolean petted;

    /** @param intervalNanos the least time between two pets, in ns, &gt; 0 */
    public PetSchedule(long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval must be > 0 ns: " + intervalNanos);
        }
        this.intervalNanos = intervalNanos;
    }

    /**
     * Whether to pet now; a {@code true} answer counts as the pet.
     *
     * @param nowNanos monotonic time, in ns
     */
    public boolean due(long nowNanos) {
        if (petted && nowNanos - lastNanos < intervalNanos) {
            return false;
        }
        petted = true;
        lastNanos = nowNanos;
        return true;
    }

    /** The least time between two pets, in ns. */
    public long intervalNanos() {
        return intervalNanos;
    }
}
