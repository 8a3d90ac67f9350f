package org.jheartbeat.core.testkit;

import java.time.Duration;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.core.time.WallClock;

/** A manually advanced clock for tests: both monotonic (ns) and wall (ms) time move together. */
public final class FakeClock implements MonotonicClock, WallClock {
    private long nanos = 1_000_000_000L;
    private long wallMillis = 1_700_000_000_000L;

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public long currentTimeMillis() {
        return wallMillis;
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
