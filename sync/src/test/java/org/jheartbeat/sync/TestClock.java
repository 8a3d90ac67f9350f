package org.jheartbeat.sync;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A java.time.Clock tests move by hand (the core FakeClock is not a java.time.Clock). */
public final class TestClock extends Clock {
    private volatile Instant now;

    /** @param start the first instant it tells */
    public TestClock(Instant start) {
        this.now = start;
    }

    /** @param d moves the clock forward by this */
    public void advance(Duration d) {
        now = now.plus(d);
    }

    /** @param t the instant it tells from now on */
    public void set(Instant t) {
        now = t;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }
}
