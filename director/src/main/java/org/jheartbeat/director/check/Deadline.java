package org.jheartbeat.director.check;

import java.net.SocketTimeoutException;
import java.time.Duration;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * The end of one check on the monotonic clock: every connect, handshake and read of the check
 * asks how much of the check's timeout is left, so the whole check (not each step) is bounded.
 */
final class Deadline {
    private final MonotonicClock clock;
    private final long endNanos;
    private final long totalMillis;

    private Deadline(MonotonicClock clock, long endNanos, long totalMillis) {
        this.clock = clock;
        this.endNanos = endNanos;
        this.totalMillis = totalMillis;
    }

    /** A deadline {@code timeout} from now on {@code clock} (at least 1 ms). */
    static Deadline in(Duration timeout, MonotonicClock clock) {
        long millis = Math.max(1, timeout.toMillis());
        return new Deadline(clock, clock.nanoTime() + millis * 1_000_000L, millis);
    }

    /** The clock this deadline is measured on (the check's). */
    MonotonicClock clock() {
        return clock;
    }

    /** Milliseconds left, 0 when expired. */
    long remainingMillis() {
        long left = (endNanos - clock.nanoTime()) / 1_000_000L;
        return Math.max(0, left);
    }

    /**
     * The left time as a socket timeout, in ms (positive; never 0, which would mean "forever").
     *
     * @throws SocketTimeoutException if the deadline has passed
     */
    int socketTimeout() throws SocketTimeoutException {
        long left = remainingMillis();
        if (left <= 0) {
            throw new SocketTimeoutException(expiredMessage());
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    /** The whole check's bound, in ms. */
    long totalMillis() {
        return totalMillis;
    }

    String expiredMessage() {
        return "no answer within the check timeout of " + totalMillis + " ms";
    }
}
