package org.jheartbeat.stonith.device.nut;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.FixedTypeDevice;
import org.jheartbeat.stonith.device.HostList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Type {@code nut}: cuts a node's power through its UPS via NUT (facts stonith-sync §4).
 *
 * <p><b>Parameters</b> ({@link #configNames()}, the {@code -p} order; names as cluster-glue
 * {@code external/nut}): {@code hostname} (the node(s) powered by the UPS; blanks/commas),
 * {@code ups} ({@code upsname[@upsdhost[:port]]}), {@code username}, {@code password} (an
 * {@code upsd.users} user allowed the commands). Optional by name: {@code poweron}
 * ({@value #DEFAULT_POWERON}), {@code poweroff} ({@value #DEFAULT_POWEROFF}), {@code reset}
 * ({@value #DEFAULT_RESET}, cluster-glue's default; words after the command are passed as its
 * argument, e.g. {@code shutdown.return cs} for an apcsmart UPS on mains), {@code statusvar}
 * ({@value #DEFAULT_STATUSVAR}), {@code upscmd}, {@code upsc} (program paths), and ours:
 * {@code repeat} (times each command is sent, default 2), {@code repeatdelay} (seconds between
 * them, default 5, must be 4..14 when repeat &gt; 1), {@code confirmtimeout} (seconds to wait for
 * the status change, default 120).
 *
 * <p><b>Why repeat.</b> NUT's apcsmart driver acts on a "nasty" command ({@code shutdown.*},
 * {@code load.off}) only if another one arrived 3–15 s before; the first is acknowledged and
 * ignored. cluster-glue's external/nut sends once and trusts the exit code, so with apcsmart its
 * {@code off} "succeeds" without cutting power. We send twice {@code repeatdelay} apart and then
 * <b>verify</b>: poll {@code upsc <ups> <statusvar>} every {@link #POLL_INTERVAL} until the
 * flags contain {@code OFF} (reset, off) or {@code OL} without {@code OFF} (on); a timeout is a
 * failure (RESETFAIL), never success. For reset the UPS may come back on later (that is the point
 * of {@code shutdown.return}); seeing {@code OFF} once suffices.
 *
 * <p><b>Results.</b> upscmd non-zero: RESETFAIL; killed on timeout: TIMEOUT; cannot start: OOPS;
 * node not in {@code hostname}: BADHOST. {@link #status()}: OK when
 * upsc prints a status, TIMEOUT, else ACCESS. A failure's log line carries upscmd's own message
 * (upsd's answer, e.g. {@code ERR ACCESS-DENIED} for a wrong password), never the password.
 *
 * <p><b>The password never on a command line.</b> cluster-glue's external/nut passes
 * {@code upscmd -p PASSWORD}, readable by every local user in {@code ps} while upscmd runs. We give
 * only {@code -u USER}: NUT 2.8.0's upscmd then reads the password with {@code getpass(3)}
 * (clients/upscmd.c), and glibc's getpass reads from stdin (prompt on stderr) when it cannot open
 * {@code /dev/tty}. So upscmd runs under {@code setsid -w} (util-linux: a new session, hence no
 * controlling terminal, even when the daemon was started from one; otherwise getpass would wait
 * for the terminal until {@link #RUN_TIMEOUT}), with the password on stdin. {@link ProcessRunner}
 * has no stdin, so, as for fence agents, the password travels in the environment variable
 * {@value #PASSWORD_VAR} (a process's environment is readable only by its owner) to an
 * {@code sh -c} wrapper that unsets it and pipes it to upscmd with the builtin {@code printf}.
 * A password containing CR or LF is refused at configure (getpass reads one line).
 */
public final class NutDevice extends FixedTypeDevice {
    public static final String TYPE = "nut";
    public static final String DEFAULT_POWERON = "load.on";
    public static final String DEFAULT_POWEROFF = "load.off";
    public static final String DEFAULT_RESET = "shutdown.return";
    public static final String DEFAULT_STATUSVAR = "ups.status";
    /** Between status polls: 2 s. */
    public static final Duration POLL_INTERVAL = Duration.ofSeconds(2);
    /** Limit for one upscmd/upsc run: 30 s. */
    public static final Duration RUN_TIMEOUT = Duration.ofSeconds(30);
    /** Environment variable carrying the password to the stdin wrapper. */
    public static final String PASSWORD_VAR = "JHB_NUT_PASSWORD";
    /** The wrapper: {@code $0} is upscmd, {@code $@} its arguments. */
    static final String WRAPPER = "v=$" + PASSWORD_VAR + "; unset " + PASSWORD_VAR
            + "; printf '%s\\n' \"$v\" | exec \"$0\" \"$@\"";
    /** The prompt glibc's getpass writes to stderr when there is no terminal, cut from messages. */
    private static final String PROMPT = "Password: ";
    private static final List<String> NAMES = List.of("hostname", "ups", "username", "password");
    private static final Set<String> OPTIONAL = Set.of("poweron", "poweroff", "reset", "statusvar",
            "upscmd", "upsc", "repeat", "repeatdelay", "confirmtimeout");
    private static final Logger LOG = LoggerFactory.getLogger(NutDevice.class);

    private final ProcessRunner runner;
    private final Sleeper sleeper;
    private Map<String, String> p = Map.of();
    private List<String> hosts = List.of();
    private int repeat;
    private Duration repeatDelay;
    private Duration confirmTimeout;

    /** With {@link OsProcessRunner} and real sleeps. */
    public NutDevice() {
        this(new OsProcessRunner(), Sleeper.system());
    }

    public NutDevice(ProcessRunner runner, Sleeper sleeper) {
        super(TYPE, NAMES);
        this.runner = runner;
        this.sleeper = sleeper;
    }

    /** @throws StonithConfigException naming the missing, unknown or out-of-range parameter */
    @Override
    public void configure(Map<String, String> params) throws StonithConfigException {
        for (String key : params.keySet()) {
            if (!NAMES.contains(key) && !OPTIONAL.contains(key)) {
                throw new StonithConfigException("nut: unknown parameter '" + key + "'; valid names: "
                        + String.join(" ", NAMES) + " " + String.join(" ", OPTIONAL));
            }
        }
        for (String name : NAMES) {
            if (params.getOrDefault(name, "").isBlank()) {
                throw new StonithConfigException("nut: parameter '" + name + "' is missing or empty");
            }
        }
        if (params.get("password").indexOf('\n') >= 0 || params.get("password").indexOf('\r') >= 0) {
            throw new StonithConfigException("nut: parameter 'password' contains a line break; upscmd reads"
                    + " one line as the password");
        }
        Map<String, String> m = new HashMap<>(params);
        m.putIfAbsent("poweron", DEFAULT_POWERON);
        m.putIfAbsent("poweroff", DEFAULT_POWEROFF);
        m.putIfAbsent("reset", DEFAULT_RESET);
        m.putIfAbsent("statusvar", DEFAULT_STATUSVAR);
        m.putIfAbsent("upscmd", "upscmd");
        m.putIfAbsent("upsc", "upsc");
        repeat = number(m, "repeat", 2, 1, 5);
        repeatDelay = Duration.ofSeconds(number(m, "repeatdelay", 5, repeat > 1 ? 4 : 0, 14));
        confirmTimeout = Duration.ofSeconds(number(m, "confirmtimeout", 120, 1, 3600));
        hosts = HostList.required(m, "hostname", TYPE);
        p = Map.copyOf(m);
    }

    private static int number(Map<String, String> m, String name, int dflt, int min, int max)
            throws StonithConfigException {
        String v = m.get(name);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new StonithConfigException("nut: parameter '" + name + "' must be a number from " + min
                + " to " + max + ", was '" + v + "'");
    }

    @Override
    public StonithResult status() {
        ProcessResult r = upsc();
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            return StonithResult.TIMEOUT;
        }
        return r.succeeded() && !r.stdout().isBlank() ? StonithResult.OK : StonithResult.ACCESS;
    }

    @Override
    public List<String> hostList() {
        return hosts;
    }

    @Override
    public StonithResult reset(ResetRequest request, String node) {
        Optional<String> listed = HostList.listed(node, hosts, TYPE, "hostname", LOG);
        if (listed.isEmpty()) {
            return StonithResult.BADHOST;
        }
        String host = listed.get();
        String command = p.get(switch (request) {
            case GENERIC_RESET -> "reset";
            case POWER_ON -> "poweron";
            case POWER_OFF -> "poweroff";
        });
        try {
            for (int i = 1; i <= repeat; i++) {
                if (i > 1) {
                    sleeper.pause(repeatDelay);
                }
                StonithResult sent = send(command, i);
                if (!sent.ok()) {
                    return sent;
                }
            }
            return confirm(request, host);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.error("nut: interrupted while fencing {}", host);
            return StonithResult.RESETFAIL;
        }
    }

    private StonithResult send(String command, int attempt) {
        ProcessResult r = run(upscmdSpec(command));
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            LOG.error("nut: upscmd {} {} timed out", p.get("ups"), command);
            return StonithResult.TIMEOUT;
        }
        if (r.exitCode() != 0) {
            LOG.error("nut: upscmd {} {} failed (exit {}): {}", p.get("ups"), command, r.exitCode(),
                    (r.stdout() + " " + r.stderr().replace(PROMPT, "")).strip());
            return StonithResult.RESETFAIL;
        }
        LOG.info("nut: upscmd {} {} accepted ({} of {})", p.get("ups"), command, attempt, repeat);
        return StonithResult.OK;
    }

    private StonithResult confirm(ResetRequest request, String host) throws InterruptedException {
        long polls = Math.max(1, confirmTimeout.toMillis() / POLL_INTERVAL.toMillis());
        String last = "";
        for (long i = 0; i < polls; i++) {
            if (i > 0) {
                sleeper.pause(POLL_INTERVAL);
            }
            ProcessResult r = upsc();
            if (r == null || !r.succeeded()) {
                continue;
            }
            last = r.stdout().strip();
            List<String> flags = Arrays.asList(last.split("\\s+"));
            boolean done = request == ResetRequest.POWER_ON
                    ? flags.contains("OL") && !flags.contains("OFF") : flags.contains("OFF");
            if (done) {
                LOG.info("nut: {} {} confirmed, {} = {}", request.word(), host, p.get("statusvar"), last);
                return StonithResult.OK;
            }
        }
        LOG.error("nut: {} {} not confirmed within {} s (last {} = '{}')", request.word(), host,
                confirmTimeout.toSeconds(), p.get("statusvar"), last);
        return StonithResult.RESETFAIL;
    }

    /**
     * {@code setsid -w /bin/sh -c WRAPPER upscmd -u USER UPS COMMAND [ARG]}, the password in
     * {@value #PASSWORD_VAR} (package-private for tests).
     */
    ProcessSpec upscmdSpec(String command) {
        List<String> argv = new ArrayList<>(List.of("setsid", "-w", "/bin/sh", "-c", WRAPPER, p.get("upscmd"),
                "-u", p.get("username"), p.get("ups")));
        argv.addAll(Arrays.asList(command.strip().split("\\s+")));
        return new ProcessSpec(argv, Map.of(PASSWORD_VAR, p.get("password")), RUN_TIMEOUT);
    }

    private ProcessResult upsc() {
        return run(new ProcessSpec(List.of(p.get("upsc"), p.get("ups"), p.get("statusvar")), Map.of(), RUN_TIMEOUT));
    }

    private ProcessResult run(ProcessSpec spec) {
        try {
            return runner.run(spec);
        } catch (IOException e) {
            LOG.error("nut: cannot run {}: {}", spec.argv().get(0), e.getMessage());
            return null;
        }
    }
}
