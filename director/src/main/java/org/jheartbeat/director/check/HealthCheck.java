package org.jheartbeat.director.check;

import java.time.Duration;

/**
 * One kind of health check (ldirectord's {@code checktype} with its {@code service}).
 *
 * <p>Implementations block the calling thread (the director's check pool, never an event loop)
 * and return within {@code timeout} plus a few milliseconds: every connect, read and write is
 * bounded. They never throw for a server that misbehaves: a refused connection, a timeout or a
 * wrong answer is a {@link CheckResult#down down} result with the reason.
 */
public interface HealthCheck {

    /**
     * Checks one real server.
     *
     * @param target  the server and what to ask it
     * @param timeout the whole check's bound ({@code checktimeout}, or {@code negotiatetimeout} /
     *                {@code connecttimeout} where ldirectord uses those)
     * @return up, or down with the reason
     * @throws InterruptedException if the check thread is interrupted (the director is stopping)
     */
    CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException;
}
