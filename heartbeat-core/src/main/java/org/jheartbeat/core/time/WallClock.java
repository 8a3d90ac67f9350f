package org.jheartbeat.core.time;

/**
 * Wall-clock time in milliseconds since the epoch, for the {@code ts} field on the wire and for
 * human-readable timestamps. Never used for deadline arithmetic ({@link MonotonicClock} is).
 */
@FunctionalInterface
public interface WallClock {
    /** Milliseconds since 1970-01-01T00:00Z. */
    long currentTimeMillis();

    /** The system wall clock. */
    static WallClock system() {
        return System::currentTimeMillis;
    }
}
