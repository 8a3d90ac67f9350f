package org.jheartbeat.core.time;

import java.time.Duration;

/**
 * Pauses the calling thread: retry pauses, device polls, waits for an operator. Injected
 * everywhere a blocking worker waits, so unit tests record the pauses instead of sleeping.
 * Production code uses {@link #system()}; never used on the cluster loop thread, which must not
 * block.
 */
@FunctionalInterface
public interface Sleeper {
    /**
     * Blocks for {@code pause} (a zero or negative pause returns at once).
     *
     * @param pause how long to pause
     * @throws InterruptedException if the thread is interrupted while pausing (the interrupt flag
     *                              is then clear, as with {@link Thread#sleep(long)})
     */
    void pause(Duration pause) throws InterruptedException;

    /**
     * The real pause, {@link Thread#sleep(long, int)}: a pause below 1 ms still sleeps (so a caller
     * waiting out a sub-ms remainder does not spin); pauses above about 292 years are not supported.
     */
    static Sleeper system() {
        return pause -> {
            if (pause.isNegative() || pause.isZero()) {
                return;
            }
            Thread.sleep(pause.toMillis(), pause.toNanosPart() % 1_000_000);
        };
    }
}
