package org.jheartbeat.cli.runtime;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.ip.IpAddrAgent;
import org.jheartbeat.resources.ip.IpAddrSpec;
import org.jheartbeat.resources.ip.IpAddrSpecException;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.ip.RouteTable;
import org.jheartbeat.resources.lookup.AgentCheck;
import org.jheartbeat.resources.lookup.ScriptLocator;
import org.jheartbeat.resources.ocf.OcfDirectory;
import org.jheartbeat.resources.lookup.StandardResourceAgents;

/**
 * Checks of a parsed configuration against the machine it runs on, done by {@code hb config check}
 * and at daemon start: what would otherwise only fail at takeover time, when it hurts most.
 * <ul>
 *   <li>ERROR: a resource script that is missing or not executable (looked up in the config dir's
 *       {@code resource.d/}, then {@code /etc/init.d/}, as Heartbeat 3.0.6's ResourceManager does);
 *       the daemon starts anyway and only that group fails ({@link #missingScripts});</li>
 *   <li>ERROR: an {@code lsb:} script missing, an {@code ocf:} agent missing, an OCF parameter its
 *       meta-data does not declare, a required one not written ({@link AgentCheck}); the daemon
 *       refuses to start; WARNING: a {@code systemd:} unit file not found;</li>
 *   <li>ERROR: the same IP address in two groups, however written;</li>
 *   <li>WARNING: a {@code ucast} line naming this machine (Heartbeat's shared ha.cf: not used here);
 *       ERROR when that leaves no medium reaching the peer (ha.cf copied unchanged from the other
 *       node);</li>
 *   <li>WARNING: an IPaddr interface that does not exist here;</li>
 *   <li>ERROR: a ucast, bcast or serial line the daemon could not start here ({@link MediaPreflight}): an
 *       interface that does not exist or has no IPv4 address, a peer reached through another interface, a
 *       port that cannot be bound, a serial device missing, locked or not a serial line;</li>
 *   <li>ERROR: an mcast interface that does not exist here or has no IPv4 address (Heartbeat 3.0.6's
 *       {@code mcast_parse} refuses the line: {@code mcast device [x] is invalid or not set up properly});</li>
 *   <li>ERROR: an IPaddr/IPaddr2 address whose interface or prefix is not given and that no route of this
 *       machine can carry: the IP agent fills those in from the routing table at takeover
 *       ({@link IpAddrSpec#resolve(RouteTable)}, the same code), and would fail there.</li>
 * </ul>
 */
public final class HostChecks {
    private final Path initDir;
    private final Supplier<Optional<RouteTable>> routes;
    private final Path ocfRoot;

    /**
     * Checks against this machine; routes are read with {@code ip -4 -o route show}.
     *
     * @param initDir where init scripts live, normally {@code /etc/init.d}
     */
    public HostChecks(Path initDir) {
        this(initDir, HostChecks::readRoutes);
    }

    /**
     * @param initDir where init scripts live
     * @param routes  this machine's IPv4 routes, or empty if they cannot be read (the route check is then
     *                skipped with a WARNING); asked at most once per check, only if an address needs it
     */
    public HostChecks(Path initDir, Supplier<Optional<RouteTable>> routes) {
        this(initDir, routes, OcfDirectory.DEFAULT_ROOT);
    }

    /**
     * @param initDir where init scripts live
     * @param routes  this machine's IPv4 routes (see above)
     * @param ocfRoot where OCF agents live ({@code OCF_ROOT}), normally {@code /usr/lib/ocf}
     */
    public HostChecks(Path initDir, Supplier<Optional<RouteTable>> routes, Path ocfRoot) {
        this.initDir = initDir;
        this.routes = routes;
        this.ocfRoot = ocfRoot;
    }

    private static Optional<RouteTable> readRoutes() {
        try {
            ProcessResult r = new OsProcessRunner().run(ProcessSpec.of(IpAddrAgent.IP_TIMEOUT,
                    IpCommands.DEFAULT.routes()));
            return r.succeeded() ? Optional.of(RouteTable.parse(r.stdout())) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Every problem found, as {@link #check(ClusterConfig, boolean)} with no daemon running on this machine. */
    public List<ConfigDiagnostic> check(ClusterConfig config) {
        return check(config, false);
    }

    /**
     * Every problem found, in file order: haresources first, then ha.cf, then the media tried as the daemon's
     * start uses them ({@link MediaPreflight}).
     *
     * @param daemonRunning whether a daemon runs on this machine now: its ports and serial lines are busy, so
     *                      they are not tried
     */
    public List<ConfigDiagnostic> check(ClusterConfig config, boolean daemonRunning) {
        List<ConfigDiagnostic> out = new ArrayList<>(checkResources(config.configDir(), config.resourceGroups()));
        Path haCf = config.configDir().resolve("ha.cf");
        int usable = 0;
        for (MediumDecl m : config.media()) {
            if (m instanceof MediumDecl.Ucast u) {
                if (isOwnAddress(u.peer())) {
                    // Heartbeat lets both nodes share one ha.cf listing both addresses; the line naming
                    // this machine is simply not used here
                    out.add(ConfigDiagnostic.warning(haCf, u.line(), "ucast peer " + u.peer() + " is an address of"
                            + " this machine: this line is not used on this node"));
                } else {
                    usable++;
                }
                continue;
            }
            usable++;
            if (m instanceof MediumDecl.Mcast mc && !hasIpv4(mc.iface())) {
                out.add(ConfigDiagnostic.error(haCf, mc.line(), "mcast device [" + mc.iface() + "] is invalid or not"
                        + " set up properly: " + (interfaceExists(mc.iface()) ? "it has no IPv4 address" : "no such"
                        + " interface on this machine") + "; name an interface with an IPv4 address (ip -4 addr)"));
            }
        }
        if (usable == 0 && !config.media().isEmpty()) {
            out.add(ConfigDiagnostic.error(haCf, config.media().get(0).line(), "no heartbeat medium reaches the peer:"
                    + " every ucast line names an address of this machine; name the OTHER node's address"));
        }
        out.addAll(MediaPreflight.check(config, daemonRunning));
        return out;
    }

    /**
     * The haresources part of {@link #check(ClusterConfig)}: scripts found, one address per group,
     * IPaddr interfaces present. Also used by {@code hb resources} on an edited file before writing it.
     *
     * @param configDir the config directory (its {@code resource.d/} is searched, errors name its haresources)
     * @param groups    the parsed groups
     */
    public List<ConfigDiagnostic> checkResources(Path configDir, List<ResourceGroupDecl> groups) {
        List<ConfigDiagnostic> out = new ArrayList<>();
        Path haresources = configDir.resolve("haresources");
        ScriptLocator locator = ScriptLocator.of(configDir, initDir);
        Map<String, ResourceGroupDecl> ips = new HashMap<>();
        List<Optional<RouteTable>> table = new ArrayList<>(1); // read once, when first needed
        for (ResourceGroupDecl g : groups) {
            for (ResourceSpec r : g.resources()) {
                if (StandardResourceAgents.IP_AGENTS.contains(r.agent())) {
                    String[] parts = r.args().isEmpty() ? new String[0] : r.args().get(0).split("/");
                    if (parts.length == 0) {
                        continue;
                    }
                    ResourceGroupDecl other = ips.putIfAbsent(parts[0], g);
                    if (other != null && other != g) {
                        out.add(ConfigDiagnostic.error(haresources, g.line(), "address " + parts[0]
                                + " is also in the group on line " + other.line()
                                + "; an address may belong to one group only"));
                    }
                    IpAddrSpec spec;
                    try {
                        spec = IpAddrSpec.parse(r.agent(), r.agentArgs());
                    } catch (IpAddrSpecException e) {
                        continue; // the parser reported it
                    }
                    if (spec.iface().isPresent() && !interfaceExists(spec.iface().get())) {
                        out.add(ConfigDiagnostic.warning(haresources, g.line(), "interface " + spec.iface().get()
                                + " of " + r.token() + " does not exist on this machine"));
                    }
                    if (spec.needsRouteLookup()) {
                        if (table.isEmpty()) {
                            table.add(routes.get());
                            if (table.get(0).isEmpty()) {
                                out.add(ConfigDiagnostic.warning(haresources, g.line(), "cannot read this machine's"
                                        + " routes (ip -4 -o route show): addresses without an interface were not"
                                        + " checked"));
                            }
                        }
                        if (table.get(0).isPresent()) {
                            routeProblem(spec, r.token(), table.get(0).get()).ifPresent(msg ->
                                    out.add(ConfigDiagnostic.error(haresources, g.line(), msg)));
                        }
                    }
                } else {
                    ocfAddress(r).ifPresent(address -> {
                        ResourceGroupDecl other = ips.putIfAbsent(address, g);
                        if (other != null && other != g) {
                            out.add(ConfigDiagnostic.error(haresources, g.line(), "address " + address
                                    + " is also in the group on line " + other.line()
                                    + "; an address may belong to one group only"));
                        }
                    });
                    for (AgentCheck.Problem p : agentCheck(configDir).check(r)) {
                        out.add(p.kind() == AgentCheck.Kind.WARNING
                                ? ConfigDiagnostic.warning(haresources, g.line(), p.message())
                                : ConfigDiagnostic.error(haresources, g.line(), p.message()));
                    }
                }
            }
        }
        return out;
    }

    /**
     * A resource script that is missing or not executable: an ERROR of {@link #check} for {@code hb
     * config check}, but one that fails only its own group, so the daemon starts anyway and reports
     * it (one missing script must not keep the other groups down).
     *
     * @param group      the group's haresources index
     * @param key        the group's key (first resource token)
     * @param diagnostic the same diagnostic {@link #check} reports, {@code haresources:line: …}
     */
    public record MissingScript(int group, String key, ConfigDiagnostic diagnostic) { }

    /**
     * The missing or non-executable resource scripts among {@code groups}, looked up as
     * {@link #checkResources} does; each diagnostic equals the one {@link #check} reports for it.
     *
     * @param configDir the config directory (its {@code resource.d/} is searched)
     * @param groups    the parsed groups, in file order
     * @return one entry per resource whose script is not found, in file order
     */
    public List<MissingScript> missingScripts(Path configDir, List<ResourceGroupDecl> groups) {
        List<MissingScript> out = new ArrayList<>();
        Path haresources = configDir.resolve("haresources");
        AgentCheck agents = agentCheck(configDir);
        for (int i = 0; i < groups.size(); i++) {
            ResourceGroupDecl g = groups.get(i);
            for (ResourceSpec r : g.resources()) {
                if (StandardResourceAgents.IP_AGENTS.contains(r.agent())) {
                    continue;
                }
                // only a Heartbeat-class script "not found"; a bad name, and every problem of the
                // lsb/ocf/systemd classes, stays an error of check() that stops the daemon
                for (AgentCheck.Problem p : agents.check(r)) {
                    if (p.kind() == AgentCheck.Kind.MISSING_SCRIPT) {
                        out.add(new MissingScript(i, g.key(), ConfigDiagnostic.error(haresources, g.line(),
                                p.message())));
                    }
                }
            }
        }
        return out;
    }

    /** The {@code ip} parameter of an {@code ocf:heartbeat:IPaddr2} or {@code IPaddr} resource, if any. */
    private static Optional<String> ocfAddress(ResourceSpec r) {
        try {
            if (r.agentRef() instanceof org.jheartbeat.core.config.AgentRef.Ocf o
                    && StandardResourceAgents.IP_AGENTS.contains(o.type()) && o.params().containsKey("ip")) {
                return Optional.of(o.params().get("ip"));
            }
        } catch (IllegalArgumentException e) {
            // the parser reported it
        }
        return Optional.empty();
    }

    /** The class-aware agent check for {@code configDir}, on this machine's OCF root and unit directories. */
    private AgentCheck agentCheck(Path configDir) {
        return new AgentCheck(ScriptLocator.of(configDir, initDir), new OcfDirectory(ocfRoot, new OsProcessRunner()),
                AgentCheck.UNIT_DIRS);
    }

    /**
     * Why the IP agent could not place the address at takeover, or empty if a route carries it.
     */
    private static Optional<String> routeProblem(IpAddrSpec spec, String token, RouteTable table) {
        try {
            spec.resolve(table);
            return Optional.empty();
        } catch (IpAddrSpecException e) {
            return Optional.of("no route of this machine can carry " + spec.address() + " (" + token + "): no"
                    + " interface is given and no connected route contains it, so the IP agent would fail at"
                    + " takeover; write the ip/prefix/iface form, e.g. " + spec.address() + "/24/eth0, or add the"
                    + " interface's network to this machine");
        }
    }

    /** Whether a ucast medium names this machine (Heartbeat ignores such a line on that node). */
    public static boolean pointsAtThisMachine(MediumDecl m) {
        return m instanceof MediumDecl.Ucast u && isOwnAddress(u.peer());
    }

    private static boolean interfaceExists(String name) {
        try {
            return NetworkInterface.getByName(name) != null;
        } catch (SocketException e) {
            return true;
        }
    }

    private static boolean hasIpv4(String name) {
        try {
            NetworkInterface ni = NetworkInterface.getByName(name);
            return ni != null && ni.getInterfaceAddresses().stream()
                    .anyMatch(a -> a.getAddress() instanceof java.net.Inet4Address);
        } catch (SocketException e) {
            return true;
        }
    }

    private static boolean isOwnAddress(String host) {
        try {
            return NetworkInterface.getByInetAddress(InetAddress.getByName(host)) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }
}
