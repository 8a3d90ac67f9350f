package org.jheartbeat.stonith.device.ssh;

import java.io.IOException;
import java.time.Duration;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.HostList;
import org.jheartbeat.stonith.device.TestOnlyHostListDevice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Type {@code ssh}, parameter {@code hostlist}, as cluster-glue's {@code ssh} plugin (facts
 * stonith-sync §2.1): {@code ssh -q -x -n -l root <host> "<command>"} where the command queues
 * {@code reboot -nf} (or {@code poweroff -nf} for POWER_OFF) with {@code at now} after a 2 s
 * sleep, so ssh returns before the host dies; then pings the host ({@code ping -c 1 -w 1}) up to
 * {@link #PING_ATTEMPTS} times, {@link #PING_INTERVAL} apart, and reports OK at the first ping
 * that fails (the host went away). A host that keeps answering is RESETFAIL.
 *
 * <p>POWER_ON is refused (INVAL): a host that is down cannot be asked over ssh. ssh failure
 * (non-zero exit: host unreachable, no key) is RESETFAIL, an ssh run longer than
 * {@link #SSH_TIMEOUT} TIMEOUT, nodes not in the list BADHOST. {@link #status()} is always OK,
 * as in cluster-glue. <b>Test only</b>: it needs the victim alive, reachable and obedient, which a
 * node that has to be fenced usually is not; a loud WARN says so at configure.
 */
public final class SshDevice extends TestOnlyHostListDevice {
    public static final String TYPE = "ssh";
    /** Logged at WARN by {@link #configure}. */
    public static final String WARNING = "ssh STONITH device is for TESTING ONLY: it cannot fence a hung, "
            + "crashed or unreachable node (the victim must run sshd and obey); do not use it in production";
    /** Runs on the victim for a reset. */
    public static final String REBOOT_COMMAND =
            "echo 'sleep 2; /sbin/reboot -nf' | SHELL=/bin/sh at now >/dev/null 2>&1";
    /** Runs on the victim for POWER_OFF. */
    public static final String POWEROFF_COMMAND =
            "echo 'sleep 2; /sbin/poweroff -nf' | SHELL=/bin/sh at now >/dev/null 2>&1";
    /** Pings before giving up: 15, as cluster-glue. */
    public static final int PING_ATTEMPTS = 15;
    /** Between pings: 1 s. */
    public static final Duration PING_INTERVAL = Duration.ofSeconds(1);
    /** Limit for the ssh run: 30 s. */
    public static final Duration SSH_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration PING_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(SshDevice.class);

    private final ProcessRunner runner;
    private final Sleeper sleeper;

    /** With {@link OsProcessRunner} and real sleeps. */
    public SshDevice() {
        this(new OsProcessRunner(), Sleeper.system());
    }

    public SshDevice(ProcessRunner runner, Sleeper sleeper) {
        super(TYPE, WARNING, LOG);
        this.runner = runner;
        this.sleeper = sleeper;
    }






    @Override
    public StonithResult reset(ResetRequest request, String node) {
        String host = HostList.normalize(node);
        if (request == ResetRequest.POWER_ON) {
            LOG.error("ssh: cannot power on {} over ssh", host);
            return StonithResult.INVAL;
        }
        if (!hostList().contains(host)) {
            LOG.error("ssh: {} is not in hostlist {}", host, hostList());
            return StonithResult.BADHOST;
        }
        String command = request == ResetRequest.POWER_OFF ? POWEROFF_COMMAND : REBOOT_COMMAND;
        LOG.warn("ssh: asking {} to {} itself (test-only device)", host, request.word());
        try {
            ProcessResult r = runner.run(ProcessSpec.of(SSH_TIMEOUT,
                    "ssh", "-q", "-x", "-n", "-l", "root", host, command));
            if (r.timedOut()) {
                return StonithResult.TIMEOUT;
            }
            if (r.exitCode() != 0) {
                LOG.error("ssh: ssh to {} failed (exit {}): {}", host, r.exitCode(), r.stderr().strip());
                return StonithResult.RESETFAIL;
            }
            for (int i = 0; i < PING_ATTEMPTS; i++) {
                sleeper.pause(PING_INTERVAL);
                if (!runner.run(ProcessSpec.of(PING_TIMEOUT, "ping", "-c", "1", "-w", "1", host)).succeeded()) {
                    LOG.info("ssh: {} stopped answering ping; {} done", host, request.word());
                    return StonithResult.OK;
                }
            }
            LOG.error("ssh: {} still answers ping after {} tries; {} not confirmed", host, PING_ATTEMPTS,
                    request.word());
            return StonithResult.RESETFAIL;
        } catch (IOException e) {
            LOG.error("ssh: cannot run ssh/ping for {}: {}", host, e.getMessage());
            return StonithResult.OOPS;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StonithResult.RESETFAIL;
        }
    }
}
