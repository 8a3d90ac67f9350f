package org.jheartbeat.stonith.device;

import java.time.Duration;

/**
 * Waits between polls. Devices take one so tests run without real sleeps; production uses
 * {@link #REAL}.
 */
@FunctionalInterface
public interface Sleeper {
    /** {@link Thread#sleep(long)}; an interrupt ends the wait with {@link InterruptedException}. */
    Sleeper REAL = d -> Thread.sleep(d.toMillis());

    /**
     * @param duration how long to wait (ms resolution)
     * @throws InterruptedException if the waiting thread is interrupted
     */
    void sleep(Duration duration) throws InterruptedException;
}
