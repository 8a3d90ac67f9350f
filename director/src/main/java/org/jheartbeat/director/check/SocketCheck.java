package org.jheartbeat.director.check;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * Shared frame of the negotiate checks: one {@link Deadline} for the whole check, and every way a
 * server can misbehave (refused, reset, silent, closing early, a wrong answer, even a bug in a
 * decoder) turned into a {@link CheckResult#down down} result with the reason.
 */
abstract class SocketCheck implements HealthCheck {
    /** Where the check's deadline and elapsed time are read. */
    private final MonotonicClock clock;

    /** A check on the system's monotonic clock. */
    SocketCheck() {
        this(MonotonicClock.system());
    }

    /** @param clock where the check's deadline and elapsed time are read */
    SocketCheck(MonotonicClock clock) {
        this.clock = clock;
    }

    /**
     * Talks to the server.
     *
     * @throws CheckFailure if the server answered wrongly (the message is the reason)
     * @throws IOException  if the connection failed or the deadline passed
     */
    abstract void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure;

    @Override
    public final CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        long start = clock.nanoTime();
        Deadline deadline = Deadline.in(timeout, clock);
        CheckResult result;
        try {
            negotiate(target, deadline);
            result = CheckResult.up(elapsed(clock, start));
        } catch (CheckFailure e) {
            result = CheckResult.down(e.getMessage(), elapsed(clock, start));
        } catch (SocketTimeoutException e) {
            result = CheckResult.down(deadline.expiredMessage(), elapsed(clock, start));
        } catch (InterruptedIOException e) {
            Thread.currentThread().interrupt();
            result = CheckResult.down("interrupted", elapsed(clock, start));
        } catch (ConnectException e) {
            result = CheckResult.down(reason(e), elapsed(clock, start));
        } catch (EOFException e) {
            result = CheckResult.down(reason(e), elapsed(clock, start));
        } catch (UnknownHostException e) {
            result = CheckResult.down("unknown host " + e.getMessage(), elapsed(clock, start));
        } catch (IOException e) {
            result = CheckResult.down(reason(e), elapsed(clock, start));
        } catch (RuntimeException e) {
            // a malformed answer a decoder did not foresee: the server is not healthy
            result = CheckResult.down("bad answer (" + reason(e) + ")", elapsed(clock, start));
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("check of " + target.server() + " interrupted");
        }
        return result;
    }

    static String reason(Throwable e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    /** The time since {@code startNanos} on {@code clock}, in ms. */
    static long elapsed(MonotonicClock clock, long startNanos) {
        return (clock.nanoTime() - startNanos) / 1_000_000;
    }

    /**
     * The {@code receive} pattern (Java regex syntax, which covers the Perl patterns ldirectord
     * configurations use), or {@code null} when {@code receive} is empty.
     *
     * @throws CheckFailure if it is not a valid regular expression
     */
    static Pattern receivePattern(CheckTarget target) throws CheckFailure {
        String receive = target.receive().orElse("");
        if (receive.isEmpty()) {
            return null;
        }
        try {
            return Pattern.compile(receive);
        } catch (PatternSyntaxException e) {
            throw new CheckFailure("receive \"" + receive + "\" is not a valid regular expression: "
                    + e.getDescription());
        }
    }

    /** The request with ldirectord's leading '/' taken off (as its ldap, dns, simpletcp and sql checks do). */
    static String requestWithoutSlash(CheckTarget target) {
        String request = target.request().orElse("");
        return request.startsWith("/") ? request.substring(1) : request;
    }

    /** Shortens a server's text for a log line. */
    static String quote(String text) {
        String oneLine = text.replaceAll("[\\r\\n]+", " ").strip();
        return oneLine.length() > 120 ? oneLine.substring(0, 120) + "…" : oneLine;
    }
}
