package org.jheartbeat.resources.ip;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.RejectedExecutionException;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Built-in agent for {@code IPaddr}/{@code IPaddr2} resources: takes over an IPv4 address with
 * iproute2 and announces it with gratuitous ARP, covering what Heartbeat 3.0.6's IPaddr wrapper
 * does for haresources.
 *
 * <ul>
 *   <li>start: resolve missing prefix/interface from {@code ip -4 -o route show}; if the address
 *       is already on the interface, announce it again and succeed; else {@code ip -4 addr add IP/prefix brd
 *       + dev IFACE}, then gratuitous ARP per {@link GratuitousArp}: with {@link
 *       GratuitousArp#synchronousFirst()} and an {@link ArpLauncher}, start returns once the first
 *       ARP is on the wire (logged INFO {@code Gratuitous ARP for IP on IFACE sent}) and the rest of
 *       the announcement runs on the {@code background} executor, whose completion is not awaited;
 *       failures are logged.</li>
 *   <li>start after a status that said stopped ({@link #startKnownStopped()}, the group runner's
 *       takeover path): the same without listing the addresses again; an {@code ip addr add} that
 *       finds the address there already ({@code Address already assigned}) counts as already
 *       running.</li>
 *   <li>status: RUNNING if {@code ip -o -4 addr show dev IFACE} lists the address (any prefix),
 *       else STOPPED; FAILED if that cannot be determined.</li>
 *   <li>stop: cancel any gratuitous-ARP run still going for the address, then {@code ip -4 addr
 *       del IP/prefix dev IFACE} with the prefix currently assigned; stopping an absent address
 *       is OK.</li>
 * </ul>
 * Each {@code ip} call is limited to 10 s.
 */
public final class IpAddrAgent implements ResourceAgent {
    /** Limit for each {@code ip} invocation: 10 s. */
    public static final Duration IP_TIMEOUT = Duration.ofSeconds(10);
    private static final Logger LOG = LoggerFactory.getLogger(IpAddrAgent.class);

    private final IpAddrSpec spec;
    private final ProcessRunner runner;
    private final IpCommands ip;
    private final GratuitousArp arp;
    private final Executor background;
    private final ArpCampaigns campaigns;
    private final ArpLauncher launcher;
    private final MonotonicClock clock;

    /**
     * @param spec       the parsed resource argument
     * @param runner     runs {@code ip} and {@code arping}
     * @param ip         argv builders for {@code ip}
     * @param arp        gratuitous ARP policy
     * @param background where the background ARP run executes (a direct executor in tests)
     */
    public IpAddrAgent(IpAddrSpec spec, ProcessRunner runner, IpCommands ip, GratuitousArp arp, Executor background) {
        this(spec, runner, ip, arp, background, new ArpCampaigns());
    }

    /**
     * @param campaigns the daemon-wide registry of ARP runs, so a stop cancels a run started by an
     *                  earlier start of the same address
     */
    public IpAddrAgent(IpAddrSpec spec, ProcessRunner runner, IpCommands ip, GratuitousArp arp, Executor background,
                       ArpCampaigns campaigns) {
        this(spec, runner, ip, arp, background, campaigns, null);
    }

    /**
     * @param launcher starts the first ARP of an announcement and confirms it is out ({@link
     *                 ProcArpLauncher}); {@code null}: a synchronous first ARP is a whole
     *                 {@code arping -c 1} run through {@code runner} (about 1 s)
     */
    public IpAddrAgent(IpAddrSpec spec, ProcessRunner runner, IpCommands ip, GratuitousArp arp, Executor background,
                       ArpCampaigns campaigns, ArpLauncher launcher) {
        this(spec, runner, ip, arp, background, campaigns, launcher, MonotonicClock.system());
    }

    /** As above; {@code clock}: where the wait for the first ARP's linger is measured. */
    public IpAddrAgent(IpAddrSpec spec, ProcessRunner runner, IpCommands ip, GratuitousArp arp, Executor background,
                       ArpCampaigns campaigns, ArpLauncher launcher, MonotonicClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.launcher = launcher;
        this.campaigns = Objects.requireNonNull(campaigns, "campaigns");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.ip = Objects.requireNonNull(ip, "ip");
        this.arp = Objects.requireNonNull(arp, "arp");
        this.background = Objects.requireNonNull(background, "background");
    }

    /** @return the parsed resource argument */
    public IpAddrSpec spec() {
        return spec;
    }

    /** The resolved address and whether (with which prefix) it is on its interface now. */
    private record Located(ResolvedIpAddr addr, Optional<AddressTable.Assigned> present) { }

    private Located locate() throws IOException {
        ResolvedIpAddr addr = resolve();
        return new Located(addr, lookUp(addr));
    }

    /** What start and stop do once the address is resolved and looked up on its interface. */
    @FunctionalInterface
    private interface AtLocation {
        AgentResult apply(ResolvedIpAddr addr, Optional<AddressTable.Assigned> present);
    }

    /** Resolves the address and looks it up, then runs {@code action}; a failure of either is the result. */
    private AgentResult located(AtLocation action) {
        Located where;
        try {
            where = locate();
        } catch (IOException | IpAddrSpecException e) {
            return cannotLocate(e);
        }
        return action.apply(where.addr(), where.present());
    }

    private AgentResult cannotLocate(Exception e) {
        return AgentResult.failed("IPaddr " + spec + ": " + e.getMessage(), AgentResult.NO_EXIT_CODE);
    }

    @Override
    public AgentResult start() {
        return located(this::start);
    }

    private AgentResult start(ResolvedIpAddr addr, Optional<AddressTable.Assigned> present) {
        if (present.isPresent()) {
            // still announce: after a crash, a restart or a healed partition the neighbours may
            // point at the other node, which no longer holds the address
            LOG.info("IPaddr {} already present on {}; announcing it again", present.get().cidr(), addr.iface());
            announce(addr);
            return AgentResult.ok("already running");
        }
        AgentResult added = runChecked(ip.add(addr), "add " + addr);
        if (!added.isOk()) {
            return added;
        }
        announce(addr);
        return AgentResult.ok("added " + addr);
    }

    /**
     * Adds the address that {@link #status()} just found absent, without listing the addresses
     * again. If it is there after all ({@code ip addr add} fails: {@link #alreadyAssigned}), it is
     * announced again and counts as already running, as {@link #start()} would have found.
     */
    @Override
    public AgentResult startKnownStopped() {
        ResolvedIpAddr addr;
        try {
            addr = resolve();
        } catch (IOException | IpAddrSpecException e) {
            return cannotLocate(e);
        }
        List<String> argv = ip.add(addr);
        ProcessSpec add = ProcessSpec.of(IP_TIMEOUT, argv);
        LOG.info("Running {}", add.commandLine());
        ProcessResult result;
        try {
            result = runner.run(add);
        } catch (IOException e) {
            return AgentResult.failed("IPaddr add " + addr + " failed: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
        if (!result.succeeded()) {
            if (alreadyAssigned(result.stderr())) {
                LOG.info("IPaddr {} already present on {}; announcing it again", addr.address(), addr.iface());
                announce(addr);
                return AgentResult.ok("already running");
            }
            LOG.error("Return code {} from {}", result.exitCode(), argv.get(0));
            return AgentResult.failed("IPaddr add " + addr + " failed: " + result.stderr().strip(), result.exitCode());
        }
        announce(addr);
        return AgentResult.ok("added " + addr);
    }

    /**
     * @param stderr what {@code ip addr add} said
     * @return whether it refused because the address is on the interface already: iproute2 with the
     *         kernel's extended ack (Debian 12) says {@code Error: ipv4: Address already assigned.},
     *         older ones {@code RTNETLINK answers: File exists}
     */
    static boolean alreadyAssigned(String stderr) {
        return stderr.contains("Address already assigned") || stderr.contains("File exists");
    }

    /** Announces the (already present) address again with gratuitous ARP. */
    @Override
    public AgentResult reassert() {
        try {
            ResolvedIpAddr addr = resolve();
            LOG.info("IPaddr {} already on {}; announcing it again", addr.address(), addr.iface());
            announce(addr);
            return AgentResult.ok("announced again");
        } catch (IOException | IpAddrSpecException e) {
            return cannotLocate(e);
        }
    }

    @Override
    public AgentResult status() {
        try {
            ResolvedIpAddr addr = resolve();
            return lookUp(addr).map(a -> AgentResult.running("Running OK: " + a.cidr() + " on " + a.iface()))
                    .orElseGet(() -> AgentResult.stopped("Resource is stopped: " + addr.address()
                            + " not on " + addr.iface()));
        } catch (IOException | IpAddrSpecException e) {
            return cannotLocate(e);
        }
    }

    @Override
    public AgentResult stop() {
        return located(this::stop);
    }

    private AgentResult stop(ResolvedIpAddr addr, Optional<AddressTable.Assigned> present) {
        campaigns.cancel(addr.iface(), addr.address());
        if (present.isEmpty()) {
            return AgentResult.ok("not present");
        }
        AgentResult removed = runChecked(ip.del(present.get().cidr(), addr.iface()), "del " + present.get().cidr());
        return removed.isOk() ? AgentResult.ok("removed " + present.get().cidr() + " from " + addr.iface()) : removed;
    }

    private ResolvedIpAddr resolve() throws IOException {
        if (!spec.needsRouteLookup()) {
            return spec.resolve(new RouteTable(List.of()));
        }
        ProcessResult routes = runner.run(ProcessSpec.of(IP_TIMEOUT, ip.routes()));
        if (!routes.succeeded()) {
            throw new IOException("ip route show failed (rc=" + routes.exitCode() + "): " + routes.stderr().strip());
        }
        return spec.resolve(RouteTable.parse(routes.stdout()));
    }

    private Optional<AddressTable.Assigned> lookUp(ResolvedIpAddr addr) throws IOException {
        ProcessResult shown = runner.run(ProcessSpec.of(IP_TIMEOUT, ip.show(addr.iface())));
        if (!shown.succeeded()) {
            throw new IOException("ip addr show dev " + addr.iface() + " failed (rc=" + shown.exitCode() + "): "
                    + shown.stderr().strip());
        }
        return AddressTable.parse(shown.stdout()).find(addr.iface(), addr.address());
    }

    private AgentResult runChecked(List<String> argv, String what) {
        ProcessSpec spec = ProcessSpec.of(IP_TIMEOUT, argv);
        LOG.info("Running {}", spec.commandLine());
        try {
            ProcessResult result = runner.run(spec);
            if (result.succeeded()) {
                return AgentResult.ok(what);
            }
            LOG.error("Return code {} from {}", result.exitCode(), argv.get(0));
            return AgentResult.failed("IPaddr " + what + " failed: " + result.stderr().strip(), result.exitCode());
        } catch (IOException e) {
            return AgentResult.failed("IPaddr " + what + " failed: " + e.getMessage(), AgentResult.NO_EXIT_CODE);
        }
    }

    private void announce(ResolvedIpAddr addr) {
        int rest = arp.count();
        if (rest == 0) {
            return;
        }
        ArpLauncher.Launched first = null;
        if (arp.synchronousCount() > 0 && launcher != null) {
            first = launchFirst(addr);
            rest--;
        } else if (arp.synchronousCount() > 0) {
            sendArp(addr, 1);
            rest--;
        }
        if (rest == 0 && first == null) {
            return;
        }
        AtomicBoolean cancelled = campaigns.begin(addr.iface(), addr.address());
        ArpLauncher.Launched lingering = first;
        int left = rest;
        try {
            background.execute(() -> {
                if (lingering != null) {
                    awaitFirst(addr, lingering, cancelled);
                }
                // one ARP per arping run (~1 s each), so a stop cancels the rest at once
                for (int i = 0; i < left && !cancelled.get(); i++) {
                    sendArp(addr, 1);
                }
                campaigns.finished(addr.iface(), addr.address(), cancelled);
            });
        } catch (RejectedExecutionException e) {
            if (first != null) {
                first.kill();
            }
            LOG.warn("Gratuitous ARP for {} not sent: background executor refused it", addr);
        }
    }

    /** Longest wait for the first ARP to be confirmed out: then start returns anyway. */
    static final Duration FIRST_ARP_WAIT = Duration.ofMillis(200);

    /** Starts the first arping and returns once its ARP is out (or it could not be confirmed); null if it cannot run. */
    private ArpLauncher.Launched launchFirst(ResolvedIpAddr addr) {
        List<String> argv = arp.argv(addr.iface(), addr.address(), 1);
        try {
            ArpLauncher.Launched l = launcher.launch(argv, FIRST_ARP_WAIT);
            if (l.confirmed()) {
                LOG.info("Gratuitous ARP for {} on {} sent", addr.address(), addr.iface());
            } else {
                LOG.warn("Gratuitous ARP for {} on {}: {} not confirmed sent within {} ms; going on", addr.address(),
                        addr.iface(), String.join(" ", argv), FIRST_ARP_WAIT.toMillis());
            }
            return l;
        } catch (IOException e) {
            LOG.warn("Gratuitous ARP failed: cannot run {}: {}", String.join(" ", argv), e.getMessage());
            return null;
        }
    }

    /** On the background executor: lets the first arping finish its linger (killed at once on a stop). */
    private void awaitFirst(ResolvedIpAddr addr, ArpLauncher.Launched first, AtomicBoolean cancelled) {
        long deadline = clock.nanoTime() + GratuitousArp.timeoutFor(1).toNanos();
        try {
            while (true) {
                if (cancelled.get() || clock.nanoTime() - deadline >= 0) {
                    first.kill();
                    return;
                }
                int rc = first.awaitExit(Duration.ofMillis(50));
                if (rc != -1) {
                    if (rc != 0) {
                        LOG.warn("Gratuitous ARP failed: {} on {} returned {} {}", addr.address(), addr.iface(), rc,
                                first.stderr());
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            first.kill();
            Thread.currentThread().interrupt();
        }
    }

    private void sendArp(ResolvedIpAddr addr, int n) {
        ProcessSpec arping = ProcessSpec.of(GratuitousArp.timeoutFor(n), arp.argv(addr.iface(), addr.address(), n));
        try {
            ProcessResult result = runner.run(arping);
            if (!result.succeeded()) {
                LOG.warn("Gratuitous ARP failed: {} returned {} {}", arping.commandLine(), result.exitCode(),
                        result.stderr().strip());
            }
        } catch (IOException e) {
            LOG.warn("Gratuitous ARP failed: cannot run {}: {}", arping.commandLine(), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "IpAddrAgent[" + spec + "]";
    }
}
