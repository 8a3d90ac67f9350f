package org.jheartbeat.director.check;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The numeric {@code checktype=N}, as ldirectord 4.x: connect checks, and a negotiate check once
 * the real server has passed N connect checks in a row; a failed connect check makes the next
 * check a negotiate check. A negotiate check that passes starts the count again; one that fails
 * is repeated until it passes. The first check of a real server is a connect check (N = 0: every
 * check negotiates).
 *
 * <p>Stateful: one counter per {@link CheckTarget} (the whole target, so two virtual services
 * that check the same server differently count apart, as ldirectord counts per real entry). Safe
 * for concurrent checks of different targets; checks of the same target must not overlap (the
 * director runs one check per real server at a time). {@link #forget} drops a target's counter
 * when a reload removes it.
 */
public final class CombinedCheck implements HealthCheck {
    /** A count that forces the next check to negotiate. */
    private static final int FORCE_NEGOTIATE = Integer.MAX_VALUE;

    private final int every;
    private final HealthCheck connect;
    private final HealthCheck negotiate;
    private final Map<CheckTarget, Integer> connectsPassed = new ConcurrentHashMap<>();

    /**
     * @param every     N: connect checks to pass before a negotiate check (0 or more)
     * @param connect   the connect check
     * @param negotiate the negotiate check of the service
     * @throws IllegalArgumentException if {@code every} is negative
     */
    public CombinedCheck(int every, HealthCheck connect, HealthCheck negotiate) {
        if (every < 0) {
            throw new IllegalArgumentException("checktype must be 0 or more: " + every);
        }
        this.every = every;
        this.connect = connect;
        this.negotiate = negotiate;
    }

    /** N, the connect checks between negotiate checks. */
    public int every() {
        return every;
    }

    /** Whether the next check of {@code target} is a negotiate check. */
    public boolean negotiatesNext(CheckTarget target) {
        return connectsPassed.getOrDefault(target, 0) >= every;
    }

    /** Drops the counter of a target that is no longer checked. */
    public void forget(CheckTarget target) {
        connectsPassed.remove(target);
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        if (negotiatesNext(target)) {
            CheckResult result = negotiate.check(target, timeout);
            if (result.up()) {
                connectsPassed.put(target, 0);
            }
            return result;
        }
        CheckResult result = connect.check(target, timeout);
        connectsPassed.merge(target, result.up() ? 1 : FORCE_NEGOTIATE,
                (old, add) -> add == FORCE_NEGOTIATE ? FORCE_NEGOTIATE : Math.min(FORCE_NEGOTIATE - 1, old + add));
        return result;
    }
}
