package org.jheartbeat.core.time;

/**
 * A monotonic time source in nanoseconds. Only deadline arithmetic (keepalive, deadtime) uses it;
 * it never goes backwards and has no relation to wall time. Production code uses
 * {@link #system()}; tests use the testkit's {@code FakeClock}.
 */
@FunctionalInterface
public interface MonotonicClock {
    /** Current monotonic time, in ns, from an arbitrary origin. */
    long nanoTime();

    /** The JVM's monotonic clock ({@link System#nanoTime()}). */
    static MonotonicClock system() {
        return System::nanoTime;
    }
}
