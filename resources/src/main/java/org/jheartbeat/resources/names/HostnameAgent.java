package org.jheartbeat.resources.names;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Built-in agent of {@code Hostname::NAME::...} ({@link HostnameSpec}): while this node holds the group
 * of the node called NAME, clients that reach NAME by name reach this node (docs/design/resources.md,
 * "Hostname").
 *
 * <ul>
 *   <li><b>DNS</b> ({@code dns=}): an RFC 2136 update with {@code nsupdate} (optionally TSIG-signed) makes
 *       the A record hold {@code address}; on stop it gets {@code dns_home} back. Status asks the server
 *       ({@code dig +norecurse}). A failed update (the server's RCODE, e.g. REFUSED or NOTAUTH, or no
 *       answer) fails the start with the server's words. A failed update on stop is logged WARN and the
 *       stop succeeds: a record left on an address is not something two nodes can hold at once, and
 *       blocking the group for it would be worse.</li>
 *   <li><b>NetBIOS</b> ({@code netbios=}): a dedicated {@code nmbd} with its own smb.conf and state in
 *       {@code RUN/nmbd-NB} answers for NB on {@code address} only (bound to it). Not {@code netbios
 *       aliases} plus a reload of the machine's nmbd: Samba 4.17's nmbd does not register aliases added by
 *       a reload, and never registers again a name it lost to a defender (both measured), so the home
 *       node's nmbd would stay deaf to broadcasts after a failback. The instance runs wherever the
 *       resource runs, also on NAME's own node, so the name always moves with the group; the machine's
 *       own nmbd must not claim NB itself.</li>
 *   <li><b>Host name</b> ({@code hostname=yes}): {@code hostname NAME} in this UTS namespace, after
 *       recording this machine's own name ({@link TakenHostNames}); stop sets it back.</li>
 * </ul>
 * On NAME's own node (its host name is NAME and no record says it was taken) DNS is set to {@code
 * dns_home} if it is not, the host name is left alone, and only the NetBIOS instance runs. Start and
 * stop are idempotent. Status is RUNNING when any part points here (so a half-taken set is released at
 * daemon start), STOPPED when none does, FAILED when nothing could be asked. {@link #reassert()} applies
 * every part again. Order: start DNS, NetBIOS, host name; stop the reverse.
 */
public final class HostnameAgent implements ResourceAgent {
    /** Where the NetBIOS instances and nsupdate scripts live on a real machine. */
    public static final Path DEFAULT_RUN_DIR = Path.of("/run/jheartbeat");
    /** Limit for each nsupdate run (its own -t is 10 s). */
    static final Duration NSUPDATE_LIMIT = Duration.ofSeconds(20);
    /** Limit for each dig, nmbd or hostname run. */
    static final Duration SHORT_LIMIT = Duration.ofSeconds(10);
    /** How long start waits for the nmbd pid file, and stop for the instance to exit after SIGTERM. */
    static final Duration NMBD_WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final Logger LOG = LoggerFactory.getLogger(HostnameAgent.class);

    private final HostnameSpec spec;
    private final String token;
    private final ProcessRunner runner;
    private final NameCommands commands;
    private final Path runDir;
    private final TakenHostNames taken;
    private final Sleeper sleeper;

    /**
     * @param spec     the parsed token
     * @param token    the token, for messages
     * @param runner   runs nsupdate, dig, nmbd, hostname
     * @param commands the programs
     * @param runDir   where the nmbd instances and nsupdate scripts live ({@code /run/jheartbeat})
     * @param taken    the record of taken host names
     * @param sleeper  pauses while waiting for nmbd
     */
    public HostnameAgent(HostnameSpec spec, String token, ProcessRunner runner, NameCommands commands, Path runDir,
                         TakenHostNames taken, Sleeper sleeper) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.token = Objects.requireNonNull(token, "token");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.commands = Objects.requireNonNull(commands, "commands");
        this.runDir = Objects.requireNonNull(runDir, "runDir");
        this.taken = Objects.requireNonNull(taken, "taken");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** @return the parsed token */
    public HostnameSpec spec() {
        return spec;
    }

    /** Where the NetBIOS instance of this resource keeps its smb.conf, pid file and log. */
    public Path nmbdDir() {
        return runDir.resolve("nmbd-" + spec.netbios().orElse(spec.name().toUpperCase(Locale.ROOT)));
    }

    @Override
    public AgentResult start() {
        return atHomeOrFailed(this::startAt);
    }

    private AgentResult startAt(boolean home) {
        List<String> done = new ArrayList<>();
        if (spec.dns().isPresent()) {
            HostnameSpec.Dns dns = spec.dns().get();
            String target = home ? dns.home() : spec.address().orElseThrow();
            Optional<List<String>> now = lookUp(dns);
            if (now.isEmpty() || !now.get().equals(List.of(target))) {
                Optional<String> refused = update(dns, target);
                if (refused.isPresent()) {
                    return AgentResult.failed(refused.get(), AgentResult.NO_EXIT_CODE);
                }
            }
            done.add("DNS " + dns.fqdn() + " A " + target);
        }
        if (spec.netbios().isPresent()) {
            Optional<String> failed = startNmbd();
            if (failed.isPresent()) {
                return AgentResult.failed(failed.get(), AgentResult.NO_EXIT_CODE);
            }
            done.add("NetBIOS " + spec.netbios().get() + " at " + spec.address().orElseThrow());
        }
        if (spec.hostname() && !home) {
            try {
                String own = currentHostname();
                if (!own.equalsIgnoreCase(spec.name())) {
                    taken.record(spec.name(), own);
                    LOG.info("Running {}", String.join(" ", commands.setHostname(spec.name())));
                    ProcessResult r = runner.run(ProcessSpec.of(SHORT_LIMIT, commands.setHostname(spec.name())));
                    if (!r.succeeded()) {
                        taken.remove(spec.name());
                        return AgentResult.failed(token + ": hostname " + spec.name() + " failed: "
                                + r.stderr().strip(), r.exitCode());
                    }
                }
                done.add("host name " + spec.name() + " (own name " + own + " recorded in "
                        + taken.file(spec.name()) + ")");
            } catch (IOException e) {
                return AgentResult.failed(token + ": cannot set the host name: " + e.getMessage(),
                        AgentResult.NO_EXIT_CODE);
            }
        }
        return AgentResult.ok((home ? spec.name() + " is this node's own name; " : "took over ") + String.join(", ", done));
    }

    @Override
    public AgentResult reassert() {
        AgentResult r = start();
        if (!r.isOk()) {
            LOG.warn("{}: applying the names again failed: {}", token, r.message());
        }
        return r;
    }

    @Override
    public AgentResult stop() {
        return atHomeOrFailed(this::stopAt);
    }

    private AgentResult stopAt(boolean home) {
        List<String> done = new ArrayList<>();
        if (spec.hostname()) {
            try {
                Optional<String> own = taken.ownNameFor(spec.name());
                if (own.isPresent()) {
                    if (currentHostname().equalsIgnoreCase(spec.name())) {
                        LOG.info("Running {}", String.join(" ", commands.setHostname(own.get())));
                        ProcessResult r = runner.run(ProcessSpec.of(SHORT_LIMIT, commands.setHostname(own.get())));
                        if (!r.succeeded()) {
                            return AgentResult.failed(token + ": hostname " + own.get() + " failed: "
                                    + r.stderr().strip(), r.exitCode());
                        }
                        done.add("host name back to " + own.get());
                    }
                    taken.remove(spec.name());
                }
            } catch (IOException e) {
                return AgentResult.failed(token + ": cannot give the host name back: " + e.getMessage(),
                        AgentResult.NO_EXIT_CODE);
            }
        }
        if (spec.netbios().isPresent()) {
            Optional<String> failed = stopNmbd();
            if (failed.isPresent()) {
                return AgentResult.failed(failed.get(), AgentResult.NO_EXIT_CODE);
            }
            done.add("NetBIOS " + spec.netbios().get() + " released");
        }
        if (spec.dns().isPresent() && !home) {
            HostnameSpec.Dns dns = spec.dns().get();
            Optional<List<String>> now = lookUp(dns);
            if (now.isEmpty() || now.get().contains(spec.address().orElseThrow())) {
                Optional<String> failed = update(dns, dns.home());
                if (failed.isPresent()) {
                    LOG.warn("{} (the record may still name {}; the stop goes on)", failed.get(),
                            spec.address().orElseThrow());
                } else {
                    done.add("DNS " + dns.fqdn() + " A " + dns.home());
                }
            }
        }
        return AgentResult.ok(done.isEmpty() ? "nothing held" : String.join(", ", done));
    }

    @Override
    public AgentResult status() {
        return atHomeOrFailed(this::statusAt);
    }

    private AgentResult statusAt(boolean home) {
        List<String> here = new ArrayList<>();
        List<String> notHere = new ArrayList<>();
        int unknown = 0;
        int parts = 0;
        if (spec.netbios().isPresent()) {
            parts++;
            Optional<Long> pid = nmbdPid();
            (pid.isPresent() ? here : notHere).add("NetBIOS " + spec.netbios().get()
                    + pid.map(p -> " (nmbd " + p + ")").orElse(""));
        }
        if (!home && spec.dns().isPresent()) {
            parts++;
            HostnameSpec.Dns dns = spec.dns().get();
            Optional<List<String>> now = lookUp(dns);
            if (now.isEmpty()) {
                unknown++;
            } else {
                (now.get().contains(spec.address().orElseThrow()) ? here : notHere)
                        .add("DNS " + dns.fqdn() + " A " + now.get());
            }
        }
        if (!home && spec.hostname()) {
            parts++;
            try {
                (currentHostname().equalsIgnoreCase(spec.name()) ? here : notHere).add("host name");
            } catch (IOException e) {
                unknown++;
            }
        }
        if (!here.isEmpty()) {
            return AgentResult.running("Running OK: " + String.join(", ", here) + " point here"
                    + (notHere.isEmpty() ? "" : "; not: " + String.join(", ", notHere)));
        }
        if (parts > 0 && unknown == parts) {
            return AgentResult.failed(token + ": cannot tell where the names point", AgentResult.NO_EXIT_CODE);
        }
        return AgentResult.stopped("Resource is stopped: " + (home ? spec.name() + " is this node's own name"
                : "no name of " + spec.name() + " points here"));
    }

    /** NAME's own node: the host name is NAME and no record says it was taken over. */
    /**
     * Runs {@code op} with whether this machine is the name's home (see {@link #atHome}); a failure to find out
     * fails the operation with its reason.
     */
    private AgentResult atHomeOrFailed(java.util.function.Function<Boolean, AgentResult> op) {
        boolean home;
        try {
            home = atHome();
        } catch (IOException e) {
            return AgentResult.failed(token + ": " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        return op.apply(home);
    }

    private boolean atHome() throws IOException {
        return currentHostname().equalsIgnoreCase(spec.name()) && taken.ownNameFor(spec.name()).isEmpty();
    }

    private String currentHostname() throws IOException {
        ProcessResult r = runner.run(ProcessSpec.of(SHORT_LIMIT, commands.showHostname()));
        String name = r.stdout().strip();
        if (!r.succeeded() || name.isEmpty()) {
            throw new IOException("hostname failed (rc=" + r.exitCode() + "): " + r.stderr().strip());
        }
        return name;
    }

    /** The record's addresses at the server, or empty when dig got no answer. */
    private Optional<List<String>> lookUp(HostnameSpec.Dns dns) {
        try {
            ProcessResult r = runner.run(ProcessSpec.of(SHORT_LIMIT, commands.dig(dns)));
            if (!r.succeeded()) {
                LOG.debug("{}: dig failed (rc={}): {}", token, r.exitCode(), r.stdout().strip());
                return Optional.empty();
            }
            return Optional.of(DigAnswer.addresses(r.stdout()));
        } catch (IOException e) {
            LOG.debug("{}: cannot run dig: {}", token, e.getMessage());
            return Optional.empty();
        }
    }

    /** Sends the update; empty on success, else one line naming the record, the server and its answer. */
    private Optional<String> update(HostnameSpec.Dns dns, String address) {
        String what = "DNS update of " + dns.fqdn() + " to A " + address + " at " + dns.server();
        Path script = null;
        try {
            Files.createDirectories(runDir);
            script = Files.createTempFile(runDir, "nsupdate-", ".txt");
            Files.writeString(script, NameCommands.updateScript(dns, address), StandardCharsets.US_ASCII);
            List<String> argv = commands.nsupdate(dns.keyFile(), script);
            LOG.info("Running {} ({})", String.join(" ", argv), what);
            NsupdateOutcome o = NsupdateOutcome.of(runner.run(ProcessSpec.of(NSUPDATE_LIMIT, argv)));
            if (o.ok()) {
                return Optional.empty();
            }
            return Optional.of(token + ": " + what + " failed: " + o.rcode().map(c -> "the server answered " + c
                    + " (" + o.detail() + ")").orElse(o.detail()));
        } catch (IOException e) {
            return Optional.of(token + ": " + what + " failed: " + e.getMessage());
        } finally {
            if (script != null) {
                try {
                    Files.deleteIfExists(script);
                } catch (IOException e) {
                    LOG.debug("removing {}: {}", script, e.getMessage());
                }
            }
        }
    }

    private Optional<String> startNmbd() {
        if (nmbdPid().isPresent()) {
            return Optional.empty();
        }
        Path dir = nmbdDir();
        Path conf = dir.resolve("smb.conf");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(dir.resolve("nmbd.pid"));
            Files.writeString(conf, NameCommands.nmbdConf(spec.netbios().orElseThrow(), spec.address().orElseThrow(),
                    dir), StandardCharsets.US_ASCII);
            List<String> argv = commands.nmbd(conf);
            LOG.info("Running {}", String.join(" ", argv));
            ProcessResult r = runner.run(ProcessSpec.of(SHORT_LIMIT, argv));
            if (!r.succeeded()) {
                return Optional.of(token + ": nmbd for " + spec.netbios().get() + " failed (rc=" + r.exitCode() + "): "
                        + (r.stderr() + " " + r.stdout()).strip() + logTail(dir));
            }
            for (long waited = 0; waited <= NMBD_WAIT.toMillis(); waited += POLL.toMillis()) {
                if (nmbdPid().isPresent()) {
                    return Optional.empty();
                }
                sleeper.pause(POLL);
            }
            return Optional.of(token + ": nmbd for " + spec.netbios().get() + " did not come up within "
                    + NMBD_WAIT.toSeconds() + " s" + logTail(dir));
        } catch (IOException e) {
            return Optional.of(token + ": cannot start nmbd for " + spec.netbios().get() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of(token + ": interrupted while starting nmbd");
        }
    }

    private Optional<String> stopNmbd() {
        Optional<Long> pid = nmbdPid();
        if (pid.isEmpty()) {
            return Optional.empty();
        }
        Optional<ProcessHandle> h = ProcessHandle.of(pid.get());
        if (h.isEmpty()) {
            return Optional.empty();
        }
        LOG.info("Stopping nmbd {} for {} (SIGTERM; it releases its names)", pid.get(), spec.netbios().orElseThrow());
        h.get().destroy();
        try {
            for (long waited = 0; waited <= NMBD_WAIT.toMillis() && nmbdPid().isPresent(); waited += POLL.toMillis()) {
                sleeper.pause(POLL);
            }
            if (nmbdPid().isPresent()) {
                LOG.warn("nmbd {} did not exit after SIGTERM; SIGKILL", pid.get());
                h.get().destroyForcibly();
                for (long waited = 0; waited <= NMBD_WAIT.toMillis() && nmbdPid().isPresent(); waited += POLL.toMillis()) {
                    sleeper.pause(POLL);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (nmbdPid().isPresent()) {
            return Optional.of(token + ": nmbd " + pid.get() + " for " + spec.netbios().get() + " does not exit");
        }
        try {
            Files.deleteIfExists(nmbdDir().resolve("nmbd.pid"));
        } catch (IOException e) {
            LOG.debug("removing the pid file: {}", e.getMessage());
        }
        return Optional.empty();
    }

    /** The instance's pid, if its pid file names a live process whose command line names its smb.conf. */
    private Optional<Long> nmbdPid() {
        Path pidFile = nmbdDir().resolve("nmbd.pid");
        try {
            if (!Files.isRegularFile(pidFile)) {
                return Optional.empty();
            }
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
            Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
            if (!Files.isReadable(cmdline)) {
                return Optional.empty();
            }
            String cmd = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).replace('\0', ' ');
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            int close = stat.lastIndexOf(')');
            boolean zombie = close > 0 && close + 2 < stat.length() && stat.charAt(close + 2) == 'Z';
            return !zombie && cmd.contains(nmbdDir().resolve("smb.conf").toString()) ? Optional.of(pid) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String logTail(Path dir) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("log.nmbd"), StandardCharsets.UTF_8);
            List<String> tail = lines.subList(Math.max(0, lines.size() - 3), lines.size()).stream().map(String::strip)
                    .toList();
            return tail.isEmpty() ? "" : "; its log: " + String.join(" / ", tail);
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public String toString() {
        return "HostnameAgent[" + token + "]";
    }
}
