package org.jheartbeat.director.check;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * {@code checktype=ping} (and {@code connect} on a udp service), as ldirectord 4.x
 * {@code check_ping}: up to {@code checkcount} ICMP echo attempts, each bounded by the timeout;
 * up at the first reply. Like ldirectord's, the bound is per attempt, so the whole check may
 * take {@code checkcount × timeout} (default checkcount 1).
 *
 * <p>Runs the system's {@code ping} ({@code ping -n -q -c 1 -W S ADDRESS}, iputils) through the
 * project's process runner, which kills it at the timeout. Not
 * {@link java.net.InetAddress#isReachable}: without the raw-socket privilege it silently falls
 * back to a TCP connection to port 7, where a "connection refused" counts as reachable, so the
 * result would depend on how the JVM was started; {@code ping} sends ICMP in every case, as
 * ldirectord's Net::Ping "icmp" does.
 */
final class PingCheck implements HealthCheck {
    private final ProcessRunner runner;
    private final MonotonicClock clock;

    PingCheck(ProcessRunner runner) {
        this(runner, MonotonicClock.system());
    }

    /** @param clock where the check's elapsed time is read */
    PingCheck(ProcessRunner runner, MonotonicClock clock) {
        this.runner = runner;
        this.clock = clock;
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        long start = clock.nanoTime();
        String address = target.server().getAddress() != null ? target.server().getAddress().getHostAddress()
                : target.server().getHostString();
        long seconds = Math.max(1, timeout.toSeconds());
        Duration bound = timeout.isZero() || timeout.isNegative() ? Duration.ofMillis(1) : timeout;
        String last = "no reply";
        for (int attempt = 1; attempt <= target.checkCount(); attempt++) {
            ProcessSpec spec = ProcessSpec.of(bound, List.of("ping", "-n", "-q", "-c", "1",
                    "-W", Long.toString(seconds), address));
            try {
                ProcessResult result = runner.run(spec);
                if (result.succeeded()) {
                    return CheckResult.up(SocketCheck.elapsed(clock, start));
                }
                last = result.timedOut() ? "no ping reply within " + bound.toMillis() + " ms"
                        : "no ping reply (ping exit " + result.exitCode() + ")";
            } catch (InterruptedIOException e) {
                throw new InterruptedException("ping of " + address + " interrupted");
            } catch (IOException e) {
                return CheckResult.down("cannot run ping: " + SocketCheck.reason(e), SocketCheck.elapsed(clock, start));
            }
        }
        String attempts = target.checkCount() > 1 ? " after " + target.checkCount() + " attempts" : "";
        return CheckResult.down(last + attempts, SocketCheck.elapsed(clock, start));
    }
}
