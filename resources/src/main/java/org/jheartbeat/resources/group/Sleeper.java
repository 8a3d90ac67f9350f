package org.jheartbeat.resources.group;

import java.time.Duration;

/**
 * Pauses the calling thread between stop retries; injected so unit tests never sleep.
 */
@FunctionalInterface
public interface Sleeper {
    /** The real pause, {@link Thread#sleep(long)} with ms resolution. */
    Sleeper THREAD = pause -> Thread.sleep(pause.toMillis());

    /**
     * @param pause how long to pause
     * @throws InterruptedException if the thread is interrupted while pausing
     */
    void pause(Duration pause) throws InterruptedException;
}
