package org.jheartbeat.director.check;

import java.util.Objects;

/**
 * The outcome of one health check of one real server.
 *
 * @param up      whether the real server passed
 * @param reason  why it failed, in words an admin can act on (empty when {@code up})
 * @param elapsedMillis how long the check took, in milliseconds
 */
public record CheckResult(boolean up, String reason, long elapsedMillis) {

    public CheckResult {
        Objects.requireNonNull(reason, "reason");
        if (elapsedMillis < 0) {
            throw new IllegalArgumentException("elapsedMillis < 0: " + elapsedMillis);
        }
    }

    /** A passed check that took {@code elapsedMillis} milliseconds. */
    public static CheckResult up(long elapsedMillis) {
        return new CheckResult(true, "", elapsedMillis);
    }

    /** A failed check, with the reason (e.g. "connection refused"). */
    public static CheckResult down(String reason, long elapsedMillis) {
        return new CheckResult(false, reason, elapsedMillis);
    }
}
