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
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.IpAddrAgent;
import org.jheartbeat.resources.ip.IpAddrSpec;
import org.jheartbeat.resources.ip.IpAddrSpecException;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.script.ScriptAgent;

/**
 * The production {@link ResourceAgents}: {@code IPaddr} and {@code IPaddr2} (including bare IP
 * tokens, which the config reader turns into {@code IPaddr::token}) get the built-in {@link
 * IpAddrAgent}; every other agent name gets a {@link ScriptAgent} for the script found by {@link
 * ScriptLocator}. The lookup happens on every {@link #forSpec(ResourceSpec)} call, so scripts
 * installed later are found.
 */
public final class StandardResourceAgents implements ResourceAgents {
    /** Agent names served by the built-in IP agent. */
    public static final Set<String> IP_AGENTS = Set.of("IPaddr", "IPaddr2");

    private final ScriptLocator locator;
    private final ProcessRunner runner;
    private final IpCommands ip;
    private final GratuitousArp arp;
    private final Executor background;
    private final ArpCampaigns campaigns = new ArpCampaigns();

    /**
     * @param locator    where scripts are looked up
     * @param runner     runs scripts, {@code ip} and {@code arping}
     * @param ip         argv builders for {@code ip}
     * @param arp        gratuitous ARP policy
     * @param background executor for background gratuitous ARP runs
     */
    public StandardResourceAgents(ScriptLocator locator, ProcessRunner runner, IpCommands ip, GratuitousArp arp,
            Executor background) {
        this.locator = Objects.requireNonNull(locator, "locator");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.ip = Objects.requireNonNull(ip, "ip");
        this.arp = Objects.requireNonNull(arp, "arp");
        this.background = Objects.requireNonNull(background, "background");
    }

    /**
     * Agents for a real host: scripts in {@code configDir/resource.d} then {@code initDir}, {@code
     * ip} and {@code arping} from {@code PATH}, 5 background ARPs on a daemon thread pool.
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
                GratuitousArp.DEFAULT, arpPool);
    }

    /**
     * @throws IpAddrSpecException if an IP resource's argument is
     *         missing, repeated or invalid
     * @throws org.jheartbeat.resources.AgentNotFoundException if no script exists for the name
     */
    @Override
    public ResourceAgent forSpec(ResourceSpec spec) {
        if (IP_AGENTS.contains(spec.agent())) {
            return new IpAddrAgent(IpAddrSpec.parse(spec.agent(), spec.args()), runner, ip, arp, background, campaigns);
        }
        return new ScriptAgent(locator.locate(spec.agent(), spec.token()), spec.args(), runner);
    }
}
