package org.jheartbeat.core.time;

import java.time.Clock;

/**
 * The system wall clock for public convenience constructors outside this package, which may not read the JVM's
 * clocks themselves (the architecture test): they take it from here, as they take {@link MonotonicClock#system()}.
 */
public final class WallClocks {
    private WallClocks() {
    }

    /** The JVM's wall clock in UTC ({@link Clock#systemUTC()}). */
    public static Clock system() {
        return Clock.systemUTC();
    }
}
