package org.jheartbeat.director.check;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * {@code checktype=external} and {@code external-perl}, as ldirectord 4.x {@code check_external}:
 * runs {@code checkcommand} (default {@code /bin/true}; the program's path as written, no shell)
 * with four arguments — the virtual address (or firewall mark), the virtual port, the real
 * server's address and the real server's port — and the server is up when it exits 0 within
 * the timeout. At the timeout the command and its children are killed (the project's
 * {@link ProcessRunner}; ldirectord sends SIGTERM to the child).
 *
 * <p>external-perl: ldirectord evaluates the file inside its own Perl; here it is run as
 * {@code perl FILE ARGS}, which gives the script the same {@code @ARGV} and exit status.
 */
final class ExternalCheck implements HealthCheck {
    private final ProcessRunner runner;
    private final boolean perl;
    private final MonotonicClock clock;

    ExternalCheck(ProcessRunner runner, boolean perl) {
        this(runner, perl, MonotonicClock.system());
    }

    /** @param clock where the check's elapsed time is read */
    ExternalCheck(ProcessRunner runner, boolean perl, MonotonicClock clock) {
        this.runner = runner;
        this.perl = perl;
        this.clock = clock;
    }

    @Override
    public CheckResult check(CheckTarget target, Duration timeout) throws InterruptedException {
        long start = clock.nanoTime();
        String command = target.checkCommand().filter(c -> !c.isBlank()).orElse("/bin/true");
        List<String> argv = new ArrayList<>();
        if (perl) {
            argv.add("perl");
        }
        argv.add(command);
        argv.add(target.virtualService());
        argv.add(Integer.toString(target.virtualPort()));
        argv.add(target.server().getAddress() != null ? target.server().getAddress().getHostAddress()
                : target.server().getHostString());
        argv.add(Integer.toString(target.realPort()));
        Duration bound = timeout.isZero() || timeout.isNegative() ? Duration.ofMillis(1) : timeout;
        try {
            ProcessResult result = runner.run(ProcessSpec.of(bound, argv));
            if (result.succeeded()) {
                return CheckResult.up(SocketCheck.elapsed(clock, start));
            }
            if (result.timedOut()) {
                return CheckResult.down(command + " did not finish within " + bound.toMillis() + " ms (killed)",
                        SocketCheck.elapsed(clock, start));
            }
            String said = (result.stderr().isBlank() ? result.stdout() : result.stderr()).strip();
            return CheckResult.down(command + " exited with status " + result.exitCode()
                    + (said.isEmpty() ? "" : ": " + SocketCheck.quote(said)), SocketCheck.elapsed(clock, start));
        } catch (InterruptedIOException e) {
            throw new InterruptedException("external check " + command + " interrupted");
        } catch (IOException e) {
            return CheckResult.down("cannot run " + command + ": " + SocketCheck.reason(e),
                    SocketCheck.elapsed(clock, start));
        }
    }
}
