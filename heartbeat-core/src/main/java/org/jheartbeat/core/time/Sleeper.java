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
     * Blocks for {@code pause} (ms resolution; a zero or negative pause returns at once).
     *
     * @param pause how long to pause
     * @throws InterruptedException if the thread is interrupted while pausing (the interrupt flag
     *                              is then clear, as with {@link Thread#sleep(long)})
     */
    void pause(Duration pause) throws InterruptedException;

    /** The real pause, {@link Thread#sleep(long)} with ms resolution. */
    static Sleeper system() {
        return pause -> {
            long ms = pause.toMillis();
            if (ms > 0) {
                Thread.sleep(ms);
            }
        };
    }
}
