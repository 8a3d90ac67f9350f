package org.jheartbeat.resources.lookup;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.resources.ResourceAgent;
import org.jheartbeat.resources.ResourceAgents;
import org.jheartbeat.resources.ip.ArpCampaigns;
import org.jheartbeat.resources.ip.ArpLauncher;
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.ProcArpLauncher;
import org.jheartbeat.resources.ip.IpAddrAgent;
import org.jheartbeat.resources.ip.IpAddrSpec;
import org.jheartbeat.resources.ip.IpAddrSpecException;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.script.ScriptAgent;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.time.Sleeper;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.drbd.DrbdDiskAgent;
import org.jheartbeat.resources.lsb.LsbAgent;
import org.jheartbeat.resources.fs.BuiltinFilesystem;
import org.jheartbeat.resources.ocf.OcfAgent;
import org.jheartbeat.resources.ocf.OcfDirectory;
import org.jheartbeat.resources.ocf.OcfMetadata;
import org.jheartbeat.resources.ocf.OcfMetadataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jheartbeat.resources.systemd.SystemdAgent;
import org.jheartbeat.resources.mail.MailToAgent;
import org.jheartbeat.resources.mail.MailToSpec;
import org.jheartbeat.resources.names.HostnameAgent;
import org.jheartbeat.resources.names.HostnameSpec;
import org.jheartbeat.resources.names.NameCommands;
import org.jheartbeat.resources.names.TakenHostNames;

/**
 * The production {@link ResourceAgents}, by the token's class ({@link AgentRef}): Heartbeat names
 * {@code IPaddr} and {@code IPaddr2} (including bare IP tokens, which the config reader turns into
 * {@code IPaddr::token}) get the built-in {@link IpAddrAgent}, {@code drbddisk} the built-in {@link
 * DrbdDiskAgent}, every other Heartbeat name a {@link ScriptAgent} for the script found by {@link
 * ScriptLocator}; {@code lsb:} an {@link LsbAgent} on the init directory's script, {@code ocf:} an
 * {@link OcfAgent}, {@code systemd:} a {@link SystemdAgent}; {@code Hostname} the built-in {@link HostnameAgent}
 * (unless {@code resource.d/Hostname} exists); {@code MailTo} and {@code ocf:heartbeat:MailTo} the built-in {@link
 * MailToAgent} (unless {@code resource.d/MailTo}, or resource-agents' OCF agent, exists). The lookup happens on every {@link #forSpec(ResourceSpec)} call, so scripts
 * installed later are found.
 */
public final class StandardResourceAgents implements ResourceAgents {
    /** Agent names served by the built-in IP agent. */
    public static final Set<String> IP_AGENTS = Set.of("IPaddr", "IPaddr2");
    private static final Logger LOG = LoggerFactory.getLogger(StandardResourceAgents.class);

    private final ScriptLocator locator;
    private final ProcessRunner runner;
    private final IpCommands ip;
    private final GratuitousArp arp;
    private final Executor background;
    private final ArpCampaigns campaigns = new ArpCampaigns();
    private final OcfDirectory ocf;
    private final String systemctl;
    private final String drbdadm;
    private final Sleeper sleeper;
    private final ArpLauncher arpLauncher;

    /**
     * @param locator    where scripts are looked up
     * @param runner     runs scripts, {@code ip} and {@code arping}
     * @param ip         argv builders for {@code ip}
     * @param arp        gratuitous ARP policy
     * @param background executor for background gratuitous ARP runs
     */
    public StandardResourceAgents(ScriptLocator locator, ProcessRunner runner, IpCommands ip, GratuitousArp arp,
            Executor background) {
        this(locator, runner, ip, arp, background, new OcfDirectory(OcfDirectory.DEFAULT_ROOT, runner), "systemctl",
                "drbdadm", Sleeper.system());
    }

    /**
     * @param locator    where Heartbeat and LSB scripts are looked up (LSB: its init directory only)
     * @param runner     runs every agent program
     * @param ip         argv builders for {@code ip}
     * @param arp        gratuitous ARP policy
     * @param background executor for background gratuitous ARP runs
     * @param ocf        where OCF agents and their meta-data are found
     * @param systemctl  the {@code systemctl} program (name on PATH or path)
     * @param drbdadm    the {@code drbdadm} program
     * @param sleeper    pauses of the drbddisk promotion retries
     */
    public StandardResourceAgents(ScriptLocator locator, ProcessRunner runner, IpCommands ip, GratuitousArp arp,
            Executor background, OcfDirectory ocf, String systemctl, String drbdadm, Sleeper sleeper) {
        this(locator, runner, ip, arp, background, ocf, systemctl, drbdadm, sleeper, null);
    }

    /**
     * As the constructor above, plus:
     *
     * @param arpLauncher starts an address's first ARP and confirms it is out ({@code null}: a
     *                    synchronous first ARP is a whole {@code arping} run)
     */
    public StandardResourceAgents(ScriptLocator locator, ProcessRunner runner, IpCommands ip, GratuitousArp arp,
            Executor background, OcfDirectory ocf, String systemctl, String drbdadm, Sleeper sleeper,
            ArpLauncher arpLauncher) {
        this.arpLauncher = arpLauncher;
        this.locator = Objects.requireNonNull(locator, "locator");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.ip = Objects.requireNonNull(ip, "ip");
        this.arp = Objects.requireNonNull(arp, "arp");
        this.background = Objects.requireNonNull(background, "background");
        this.ocf = Objects.requireNonNull(ocf, "ocf");
        this.systemctl = Objects.requireNonNull(systemctl, "systemctl");
        this.drbdadm = Objects.requireNonNull(drbdadm, "drbdadm");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** @return where OCF agents are found (for {@code hb resources describe} and checks) */
    public OcfDirectory ocf() {
        return ocf;
    }

    /**
     * Agents for a real host: scripts in {@code configDir/resource.d} then {@code initDir}, {@code
     * ip} and {@code arping} from {@code PATH}, 5 ARPs: the first confirmed out before an address
     * start returns ({@link ProcArpLauncher}), the rest on a daemon thread pool.
     *
     * @param configDir normally {@code /etc/ha.d}
     * @param initDir   normally {@code /etc/init.d}
     * @param runner    normally an {@code OsProcessRunner}
     * @return the agents
     */
    public static StandardResourceAgents forHost(Path configDir, Path initDir, ProcessRunner runner) {
        ExecutorService arpPool = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "gratuitous-arp");
            thread.setDaemon(true);
            return thread;
        });
        return new StandardResourceAgents(ScriptLocator.of(configDir, initDir), runner, IpCommands.DEFAULT,
                GratuitousArp.FIRST_CONFIRMED, arpPool, new OcfDirectory(OcfDirectory.DEFAULT_ROOT, runner), "systemctl",
                "drbdadm", Sleeper.system(), new ProcArpLauncher());
    }

    /**
     * @throws IpAddrSpecException if an IP resource's argument is
     *         missing, repeated or invalid
     * @throws org.jheartbeat.resources.AgentNotFoundException if no script (Heartbeat or LSB class) or
     *         OCF agent exists for the name
     * @throws ResourceAgentException if the token's class or arguments are invalid ({@code Hostname}'s
     *         options: {@link HostnameSpec#parse}; the config parser
     *         refuses such tokens first); an OCF agent whose meta-data cannot be read is still made,
     *         with the default timeouts (logged WARN)
     */
    @Override
    public ResourceAgent forSpec(ResourceSpec spec) {
        AgentRef ref;
        try {
            ref = spec.agentRef();
        } catch (IllegalArgumentException e) {
            throw new ResourceAgentException(e.getMessage());
        }
        if (ref instanceof AgentRef.Heartbeat h) {
            if (IP_AGENTS.contains(h.name())) {
                return new IpAddrAgent(IpAddrSpec.parse(h.name(), h.args()), runner, ip, arp, background, campaigns,
                        arpLauncher);
            }
            if (h.name().equals(DrbdDiskAgent.NAME)) {
                return new DrbdDiskAgent(h.args(), runner, sleeper, drbdadm);
            }
            if (h.name().equals(HostnameSpec.AGENT) && !locator.exists(h.name())) {
                return new HostnameAgent(HostnameSpec.parse(h.args(), spec.token()), spec.token(), runner,
                        NameCommands.DEFAULT, HostnameAgent.DEFAULT_RUN_DIR,
                        new TakenHostNames(TakenHostNames.DEFAULT_DIR), sleeper);
            }
            if (h.name().equals(MailToSpec.NAME) && !locator.exists(h.name())) {
                return mailTo(MailToSpec.parse(h.args(), spec.token()), spec.token());
            }
            if (h.name().equals(BuiltinFilesystem.NAME) && !locator.exists(h.name())) {
                return ocfAgent(BuiltinFilesystem.asOcf(h.args())
                        .orElseThrow(() -> new ResourceAgentException(BuiltinFilesystem.usage(spec.token()))), spec);
            }
            if (h.name().equals(org.jheartbeat.resources.script.BuiltinLdirectord.NAME) && !locator.exists(h.name())) {
                java.util.Optional<java.nio.file.Path> wrapper = org.jheartbeat.resources.script.BuiltinLdirectord.locate();
                if (wrapper.isPresent()) {
                    return new ScriptAgent(wrapper.get(), h.args(), runner);
                }
            }
            return new ScriptAgent(locator.locate(h.name(), spec.token()), h.args(), runner, h.timeouts());
        }
        if (ref instanceof AgentRef.Lsb l) {
            return new LsbAgent(locateInit(l.script(), spec.token()), l, runner);
        }
        if (ref instanceof AgentRef.Systemd u) {
            return new SystemdAgent(u, runner, systemctl);
        }
        AgentRef.Ocf o = (AgentRef.Ocf) ref;
        if (builtinOcfMailTo(o, ocf)) {
            return mailTo(MailToSpec.ofOcf(o.params(), spec.token()), spec.token());
        }
        return ocfAgent(o, spec);
    }

    /** Whether {@code o} is {@code ocf:heartbeat:MailTo} and resource-agents' agent is not installed. */
    static boolean builtinOcfMailTo(AgentRef.Ocf o, OcfDirectory ocf) {
        return o.provider().equals("heartbeat") && o.type().equals(MailToSpec.NAME)
                && !java.nio.file.Files.isExecutable(ocf.root().resolve("resource.d/heartbeat/MailTo"));
    }

    private ResourceAgent mailTo(MailToSpec mail, String token) {
        return new MailToAgent(mail, token, runner, MailToAgent.configuredSendmail(), HostnameAgent.DEFAULT_RUN_DIR,
                org.jheartbeat.core.time.WallClocks.system(), MailToAgent.hostName());
    }

    private ResourceAgent ocfAgent(AgentRef.Ocf o, ResourceSpec spec) {
        java.nio.file.Path executable = ocf.locate(o, spec.token());
        OcfMetadata metadata;
        try {
            metadata = ocf.metadata(o, spec.token());
        } catch (OcfMetadataException e) {
            // meta-data only gives default timeouts here: a slow or broken meta-data action must not
            // fail a start or, worse, block a stop (hb config check reports it)
            LOG.warn("{}; {} uses the default timeout of {} s", e.getMessage(), spec.token(),
                    OcfAgent.DEFAULT_TIMEOUT.toSeconds());
            metadata = OcfMetadata.EMPTY;
        }
        return new OcfAgent(o, spec.token(), executable, ocf.root(), metadata, runner);
    }

    /**
     * @param script an LSB script name
     * @param token  the haresources token, for the message
     * @return its path in the init directory (not {@code resource.d}: an LSB resource is an init script)
     * @throws org.jheartbeat.resources.AgentNotFoundException if it is not a regular executable file there
     */
    public java.nio.file.Path locateInit(String script, String token) {
        return new ScriptLocator(locator.initDir(), locator.initDir()).locate(script, token);
    }
}
