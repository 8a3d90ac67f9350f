package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * {@code checktype=connect}: the real server is up when a TCP connection to its check port is
 * accepted within the timeout, as ldirectord 4.x {@code check_connect}. Nothing is sent.
 */
public final class ConnectCheck implements HealthCheck {
    private final MonotonicClock clock;

    /** A check on the system's monotonic clock. */
    public ConnectCheck() {
        this(MonotonicClock.system());
    }

    /** @param clock where the check's elapsed time is read */
    public ConnectCheck(MonotonicClock clock) {
        this.clock = clock;
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        long start = clock.nanoTime();
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket socket = new Socket()) {
            socket.connect(target.server(), millis);
            return CheckResult.up(elapsed(start));
        } catch (SocketTimeoutException e) {
            return CheckResult.down("no connection within " + millis + " ms", elapsed(start));
        } catch (IOException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return CheckResult.down(why, elapsed(start));
        } finally {
            if (Thread.interrupted()) {
                throw new InterruptedException("check of " + target.server() + " interrupted");
            }
        }
    }

    private long elapsed(long startNanos) {
        return SocketCheck.elapsed(clock, startNanos);
    }
}
