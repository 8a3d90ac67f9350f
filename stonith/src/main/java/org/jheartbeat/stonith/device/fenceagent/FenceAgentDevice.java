package org.jheartbeat.stonith.device.fenceagent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.HostList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ClusterLabs fence agent, type {@code fence_<x>} (facts stonith-sync §3).
 *
 * <p><b>Parameters.</b> Read from the agent's {@code -o metadata} XML. {@link #configNames()} are
 * the agent's required options (except {@code action}, {@code plug}/{@code port} and
 * {@code nodename}, which this device sets) followed by {@code hostlist} (the nodes this device
 * fences; last, so a positional {@code stonith_host} line puts the rest of the words there, as
 * cluster-glue does). Every other non-CLI-only option of the agent is accepted by name
 * ({@link #optionalNames()}), plus {@code hostmap}: {@code node:plug} pairs separated by blanks,
 * commas or semicolons (a node without an entry uses its own name as plug). If the metadata cannot
 * be read, the fixed set {@link #FALLBACK_OPTIONS} is accepted and {@code plug} is sent.
 *
 * <p><b>Running.</b> Options go to the agent's stdin as {@code key=value} lines:
 * {@code action=reboot|on|off|monitor|status}, {@code nodename=<node>}, {@code plug=<plug>} (or
 * {@code port=} if the agent lists only that; neither if it lists neither, like fence_dummy), then
 * the configured options. {@link ProcessRunner} has no stdin, so the lines are passed in the
 * environment variable {@value #STDIN_VAR} to {@code sh -c}, which unsets it and pipes it to the
 * agent with the builtin {@code printf} (no argv exposure; the environment of a process is
 * readable only by its owner). Values containing CR/LF are refused at configure.
 *
 * <p><b>Results.</b> reboot/on/off: exit 0 OK, anything else RESETFAIL (§3: 1 = failure). Agents
 * without {@code reboot} (fabric agents) are sent {@code off} for a generic reset. Nodes not in
 * {@code hostlist} are BADHOST. {@link #status()} runs {@code monitor} (or {@code status}): 0 or 2
 * (device reachable, power off) OK, 1 ACCESS. Runs killed on timeout are TIMEOUT, agents that
 * cannot start OOPS.
 */
public final class FenceAgentDevice implements StonithDevice {
    /** Environment variable carrying the stdin lines to the {@code sh} wrapper. */
    public static final String STDIN_VAR = "JHB_FENCE_STDIN";
    /** The wrapper: {@code $0} is the agent. */
    static final String WRAPPER = "v=$" + STDIN_VAR + "; unset " + STDIN_VAR
            + "; printf '%s\\n' \"$v\" | exec \"$0\"";
    /** Options accepted when the metadata cannot be read. */
    public static final List<String> FALLBACK_OPTIONS = List.of("ip", "ipport", "username", "password",
            "password_script", "ssl", "ssl_insecure", "ssh", "identity_file", "method", "delay",
            "power_timeout", "power_wait", "shell_timeout", "login_timeout", "retry_on");
    /** Options this device sets itself or that only make sense on a command line. */
    static final Set<String> RESERVED = Set.of("action", "option", "plug", "port", "nodename", "help",
            "version", "verbose", "verbose_level", "quiet", "debug", "separator", "plug_separator");
    /** Default limit for metadata/monitor/status: 60 s. */
    public static final Duration DEFAULT_INFO_TIMEOUT = Duration.ofSeconds(60);
    /** Default limit for reboot/on/off: 180 s (power_timeout 20 s, retries, slow BMCs). */
    public static final Duration DEFAULT_POWER_TIMEOUT = Duration.ofSeconds(180);
    private static final Logger LOG = LoggerFactory.getLogger(FenceAgentDevice.class);

    private final String agent;
    private final Path program;
    private final ProcessRunner runner;
    private final Duration infoTimeout;
    private final Duration powerTimeout;
    private final FenceAgentMetadata metadata;
    private final List<String> configNames = new ArrayList<>();
    private final Set<String> optional = new LinkedHashSet<>();
    private final String plugOption;
    private Map<String, String> options = Map.of();
    private List<String> hosts = List.of();
    private final Map<String, String> hostmap = new LinkedHashMap<>();

    /**
     * The agent found on PATH or /usr/sbin, with {@link OsProcessRunner} and default timeouts.
     *
     * @throws StonithConfigException when no such agent is installed
     */
    public FenceAgentDevice(String agent) throws StonithConfigException {
        this(agent, FenceAgents.locate(agent, FenceAgents.searchPath()).orElseThrow(() ->
                new StonithConfigException("fence agent " + agent + " not found on PATH or in /usr/sbin "
                        + "(see 'hb stonith list-types')")),
                new OsProcessRunner(), DEFAULT_INFO_TIMEOUT, DEFAULT_POWER_TIMEOUT);
    }

    /**
     * Reads the agent's metadata (falls back to {@link #FALLBACK_OPTIONS} if that fails, logged).
     *
     * @param agent        type name, {@code fence_<x>}
     * @param program      the executable
     * @param runner       runs it
     * @param infoTimeout  limit for metadata/monitor/status, positive
     * @param powerTimeout limit for reboot/on/off, positive
     * @throws StonithConfigException when the name does not start with {@code fence_}
     */
    public FenceAgentDevice(String agent, Path program, ProcessRunner runner, Duration infoTimeout,
            Duration powerTimeout) throws StonithConfigException {
        if (!agent.startsWith("fence_") || agent.contains("/")) {
            throw new StonithConfigException("'" + agent + "' is not a fence agent name (fence_<x>; see 'hb stonith list-types')");
        }
        this.agent = agent;
        this.program = program;
        this.runner = runner;
        this.infoTimeout = infoTimeout;
        this.powerTimeout = powerTimeout;
        this.metadata = readMetadata();
        if (metadata == null) {
            optional.addAll(FALLBACK_OPTIONS);
            plugOption = "plug";
        } else {
            for (FenceAgentMetadata.Parameter p : metadata.parameters()) {
                if (!RESERVED.contains(p.name())) {
                    (p.required() && !p.deprecated() ? configNames : optional).add(p.name());
                }
            }
            optional.removeAll(configNames);
            plugOption = metadata.hasParameter("plug") ? "plug" : metadata.hasParameter("port") ? "port" : null;
        }
        configNames.add("hostlist");
        optional.add("hostmap");
    }

    private FenceAgentMetadata readMetadata() {
        try {
            ProcessResult r = runner.run(ProcessSpec.of(infoTimeout, program.toString(), "-o", "metadata"));
            if (r.succeeded()) {
                return FenceAgentMetadata.parse(r.stdout());
            }
            LOG.warn("{} -o metadata failed (exit {}); accepting the fixed option set {}", agent,
                    r.exitCode(), FALLBACK_OPTIONS);
        } catch (IOException e) {
            LOG.warn("{} -o metadata unusable ({}); accepting the fixed option set {}", agent,
                    e.getMessage(), FALLBACK_OPTIONS);
        }
        return null;
    }

    @Override
    public String type() {
        return agent;
    }

    @Override
    public List<String> configNames() {
        return List.copyOf(configNames);
    }

    /** @return options accepted by name but not required (agent options, then {@code hostmap}) */
    public List<String> optionalNames() {
        return List.copyOf(optional);
    }

    /** @return the option the node's plug is sent as ({@code plug}, {@code port}), or {@code null} */
    public String plugOption() {
        return plugOption;
    }

    /**
     * @throws StonithConfigException naming an unknown option, a missing required one, a value
     *                                with a line break, an empty hostlist or a bad hostmap entry
     */
    @Override
    public void configure(Map<String, String> params) throws StonithConfigException {
        Map<String, String> opts = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : params.entrySet()) {
            String key = e.getKey();
            String value = e.getValue() == null ? "" : e.getValue();
            if (!configNames.contains(key) && !optional.contains(key)) {
                throw new StonithConfigException(agent + ": unknown parameter '" + key + "'; valid names: "
                        + String.join(" ", configNames) + " " + String.join(" ", optional));
            }
            if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                throw new StonithConfigException(agent + ": parameter '" + key + "' must be one line");
            }
            if (!key.equals("hostlist") && !key.equals("hostmap")) {
                opts.put(key, value);
            }
        }
        for (String required : configNames) {
            if (!params.containsKey(required)) {
                throw new StonithConfigException(agent + ": required parameter '" + required + "' is missing");
            }
        }
        hosts = HostList.required(params, "hostlist", agent);
        hostmap.clear();
        for (String pair : params.getOrDefault("hostmap", "").split("[\\s,;]+")) {
            if (pair.isEmpty()) {
                continue;
            }
            int colon = pair.indexOf(':');
            if (colon <= 0 || colon == pair.length() - 1) {
                throw new StonithConfigException(agent + ": hostmap entry '" + pair + "' is not node:plug");
            }
            hostmap.put(HostList.normalize(pair.substring(0, colon)), pair.substring(colon + 1));
        }
        options = opts;
    }

    /** Runs {@code monitor} (or {@code status}): 0 or 2 OK, timeout TIMEOUT, else ACCESS. */
    @Override
    public StonithResult status() {
        boolean monitor = metadata == null || metadata.actions().contains("monitor");
        ProcessResult r = runAction(monitor ? "monitor" : "status", null, infoTimeout);
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            return StonithResult.TIMEOUT;
        }
        return r.exitCode() == 0 || r.exitCode() == 2 ? StonithResult.OK : StonithResult.ACCESS;
    }

    /**
     * Power state of one node's plug: {@code status} action, 0 OK (on), 2 ISOFF, timeout TIMEOUT,
     * else ACCESS; BADHOST for nodes not in the hostlist.
     */
    public StonithResult nodeStatus(String node) {
        String host = HostList.normalize(node);
        if (!hosts.contains(host)) {
            return StonithResult.BADHOST;
        }
        ProcessResult r = runAction("status", host, infoTimeout);
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            return StonithResult.TIMEOUT;
        }
        return r.exitCode() == 0 ? StonithResult.OK : r.exitCode() == 2 ? StonithResult.ISOFF : StonithResult.ACCESS;
    }

    @Override
    public List<String> hostList() {
        return hosts;
    }

    /** reboot/on/off as described in the class comment. */
    @Override
    public StonithResult reset(ResetRequest request, String node) {
        Optional<String> listed = HostList.listed(node, hosts, agent, "hostlist", LOG);
        if (listed.isEmpty()) {
            return StonithResult.BADHOST;
        }
        String host = listed.get();
        String action = switch (request) {
            case GENERIC_RESET -> metadata == null || metadata.actions().contains("reboot") ? "reboot" : "off";
            case POWER_ON -> "on";
            case POWER_OFF -> "off";
        };
        ProcessResult r = runAction(action, host, powerTimeout);
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            LOG.error("{}: action={} for {} timed out after {} s", agent, action, host, powerTimeout.toSeconds());
            return StonithResult.TIMEOUT;
        }
        if (r.exitCode() != 0) {
            LOG.error("{}: action={} for {} failed (exit {}): {}", agent, action, host, r.exitCode(),
                    (r.stdout() + " " + r.stderr()).strip());
            return StonithResult.RESETFAIL;
        }
        LOG.info("{}: action={} for {} done: {}", agent, action, host, r.stdout().strip());
        return StonithResult.OK;
    }

    /** The stdin lines for one run (package-private for tests). */
    String stdinFor(String action, String host) {
        StringBuilder sb = new StringBuilder("action=").append(action).append('\n');
        if (host != null) {
            sb.append("nodename=").append(host).append('\n');
            if (plugOption != null) {
                sb.append(plugOption).append('=').append(hostmap.getOrDefault(host, host)).append('\n');
            }
        }
        options.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        return sb.toString();
    }

    private ProcessResult runAction(String action, String host, Duration timeout) {
        ProcessSpec spec = new ProcessSpec(List.of("/bin/sh", "-c", WRAPPER, program.toString()),
                Map.of(STDIN_VAR, stdinFor(action, host)), timeout);
        try {
            return runner.run(spec);
        } catch (IOException e) {
            LOG.error("{}: cannot run action={}: {}", agent, action, e.getMessage());
            return null;
        }
    }
}
