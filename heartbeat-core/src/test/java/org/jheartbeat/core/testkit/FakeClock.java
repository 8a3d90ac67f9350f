package org.jheartbeat.core.testkit;

import java.time.Clock;
import java.time.Duration;
import org.jheartbeat.core.time.MonotonicClock;

/** A manually advanced clock for tests: both monotonic (ns) and wall (ms) time move together. */
public final class FakeClock implements MonotonicClock {
    private long nanos = 1_000_000_000L;
    private long wallMillis = 1_700_000_000_000L;

    @Override
    public long nanoTime() {
        return nanos;
    }

    /** The wall time, in ms since 1970-01-01T00:00Z. */
    public long currentTimeMillis() {
        return wallMillis;
    }

    /** This clock's wall time as a {@link Clock} (UTC) that moves with it. */
    public Clock wall() {
        return new MillisClock(this::currentTimeMillis);
    }

    /** Moves time forward and returns the new {@link #nanoTime()}. */
    public long advance(Duration d) {
        nanos += d.toNanos();
        wallMillis += d.toMillis();
        return nanos;
    }

    /** Moves time forward by {@code ms} milliseconds and returns the new {@link #nanoTime()}. */
    public long advanceMillis(long ms) {
        return advance(Duration.ofMillis(ms));
    }
}
