package org.jheartbeat.core.testkit;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * A {@link Clock} that tells whatever a fake time source says, in ms since the epoch (UTC): the
 * wall-clock view of a {@link ManualScheduler} or a {@link FakeClock}, so that code taking a
 * {@code java.time.Clock} runs on fake time in tests.
 */
final class MillisClock extends Clock {
    private final LongSupplier millis;

    /** @param millis the current time, in ms since 1970-01-01T00:00Z */
    MillisClock(LongSupplier millis) {
        this.millis = millis;
    }

    @Override
    public long millis() {
        return millis.getAsLong();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** @throws UnsupportedOperationException always: the fake wall clock is UTC only */
    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
