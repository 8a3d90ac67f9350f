package org.jheartbeat.cli.config;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.Suggestions;
import org.jheartbeat.stonith.fencing.FencingPolicy;
import org.jheartbeat.sync.config.YamlNodes;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * {@code /etc/ha.d/jheartbeat.yaml}: settings that only jheartbeat reads. They live in their own file,
 * not in ha.cf, because a real Heartbeat 3.0.6 reading the same ha.cf (the "Coming from Heartbeat"
 * path, a mixed cluster, {@code hb config push}) refuses directives it does not know. The file is
 * optional; it holds the Prometheus endpoint, off unless this node is listed, and the node's
 * defaults for watching running resources (docs/design/resources.md, "Monitoring"; each resource's
 * own {@code op_monitor_interval=}, {@code op_restart_limit=}, {@code op_restart_window=} in
 * haresources win over them):
 * <pre>
 * metrics:
 *   listen:                    # per ha.cf node: the address:port its endpoint binds (IP literal)
 *     node1: 192.168.1.1:9810
 *     node2: 192.168.1.2:9810
 * monitor:
 *   interval: 10s              # 0 or off: resources are watched only where haresources asks
 *   restart_limit: 3           # in-place restarts within the window, then the group moves
 *   restart_window: 10min      # how long a failure counts
 * stonith:                     # how this node fences its peer before a takeover (docs/design/stonith.md)
 *   action: auto               # auto: off where the device confirms it (apcsmart), else reset; off; reset
 *   power_on: 10s              # after a confirmed off, switch the peer on again this much later; never
 *   fence_delay: 5s            # all links cut: the node holding fewer groups waits this long to fence; 0: none
 * </pre>
 * Every user error is one {@link UserException} (exit 2) reading {@code FILE:LINE: what is wrong;
 * what to do}, as for sync.yaml; unknown keys are errors, with "did you mean".
 *
 * @param source          the file as read (messages name it)
 * @param metricsListen   per node name: where its metrics endpoint listens
 * @param monitorDefaults the {@code monitor:} settings as haresources options ({@code op_monitor_interval},
 *                        {@code op_restart_limit}, {@code op_restart_window}); {@link OperationTimeouts#NONE}
 *                        when absent (built-in defaults: every 10 s, 3 restarts within 10 min)
 * @param fencing         the {@code stonith:} settings; {@link FencingPolicy#DEFAULT} for what is absent
 */
public record JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen,
                             OperationTimeouts monitorDefaults, FencingPolicy fencing) {
    /** File name inside the config dir. */
    public static final String NAME = "jheartbeat.yaml";
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[0-9.]+):([0-9]{1,5})");

    /** The {@code monitor:} keys and the haresources options they stand for. */
    private static final Map<String, String> MONITOR_KEYS = Map.of("interval", "op_monitor_interval",
            "restart_limit", "op_restart_limit", "restart_window", "op_restart_window");

    public JheartbeatYaml {
        metricsListen = Map.copyOf(metricsListen);
        java.util.Objects.requireNonNull(monitorDefaults, "monitorDefaults");
        java.util.Objects.requireNonNull(fencing, "fencing");
    }

    /** Settings with the default fencing policy. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen, OperationTimeouts monitorDefaults) {
        this(source, metricsListen, monitorDefaults, FencingPolicy.DEFAULT);
    }

    /** Settings without monitor defaults. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen) {
        this(source, metricsListen, OperationTimeouts.NONE);
    }

    /** No file: no metrics endpoint, built-in monitor defaults. */
    public static JheartbeatYaml none() {
        return new JheartbeatYaml(null, Map.of());
    }

    /** Where {@code node}'s metrics endpoint listens; empty when metrics are off on that node. */
    public Optional<InetSocketAddress> metricsListen(NodeName node) {
        return Optional.ofNullable(metricsListen.get(node.value()));
    }

    /**
     * Reads {@code <configDir>/jheartbeat.yaml}.
     *
     * @param configDir the config dir ({@code /etc/ha.d})
     * @param cluster   when present, node names are checked against its ha.cf nodes
     * @return the settings; {@link #none()} when the file does not exist
     * @throws UserException exit 2 with {@code FILE:LINE: ...} when the file is invalid or unreadable
     */
    public static JheartbeatYaml load(Path configDir, Optional<ClusterConfig> cluster) throws UserException {
        Path file = configDir.resolve(NAME);
        if (!Files.exists(file)) {
            return none();
        }
        String problem = YamlNodes.notAConfigFile(file);
        if (problem != null) {
            throw new UserException(ExitCodes.CONFIG, file + ": " + problem);
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new UserException(ExitCodes.CONFIG, file + ": is not UTF-8 text; write it as plain UTF-8 YAML");
        } catch (IOException e) {
            throw new UserException(ExitCodes.CONFIG, file + ": cannot read: " + e.getMessage()
                    + "; check the file's permissions");
        }
        return parse(text, file, cluster);
    }

    /**
     * Parses the text of jheartbeat.yaml (empty, or only comments: no settings).
     *
     * @throws UserException exit 2, {@code FILE:LINE: what; what to do}, on the first error
     */
    public static JheartbeatYaml parse(String text, Path source, Optional<ClusterConfig> cluster) throws UserException {
        Node root;
        try {
            root = YamlNodes.compose(text);
        } catch (YamlNodes.SyntaxError e) {
            throw error(source, e.line(), e.getMessage());
        }
        Map<String, InetSocketAddress> listen = new LinkedHashMap<>();
        if (root == null || root instanceof ScalarNode s && s.getValue().isEmpty()) {
            return new JheartbeatYaml(source, listen);
        }
        Map<String, NodeTuple> top = mapping(source, root, "the file", List.of("metrics", "monitor", "stonith"));
        OperationTimeouts monitor = monitor(source, top.get("monitor"));
        FencingPolicy fencing = fencing(source, top.get("stonith"));
        NodeTuple metrics = top.get("metrics");
        if (metrics != null && !isNull(metrics.getValueNode())) {
            Map<String, NodeTuple> m = mapping(source, metrics.getValueNode(), "metrics:", List.of("listen"));
            NodeTuple l = m.get("listen");
            if (l != null && !isNull(l.getValueNode())) {
                List<String> nodes = cluster.map(c -> c.nodes().stream().map(NodeName::value).toList()).orElse(null);
                for (NodeTuple e : mapping(source, l.getValueNode(), "metrics: listen:", null).values()) {
                    String node = ((ScalarNode) e.getKeyNode()).getValue();
                    if (nodes != null && !nodes.contains(node.toLowerCase(Locale.ROOT))) {
                        throw error(source, line(e.getKeyNode()), "metrics: listen: [" + node + "] is not a node of"
                                + " ha.cf; " + Suggestions.closest(node, nodes).map(c -> "did you mean '" + c + "'? ")
                                .orElse("") + "use one of " + String.join(", ", nodes));
                    }
                    listen.put(node.toLowerCase(Locale.ROOT), address(source, e.getValueNode(), node));
                }
            }
        }
        return new JheartbeatYaml(source, listen, monitor, fencing);
    }

    /**
     * The {@code stonith:} section: {@code action}, {@code power_on} and {@code fence_delay}, each defaulting
     * as {@link FencingPolicy#DEFAULT}.
     */
    private static FencingPolicy fencing(Path source, NodeTuple section) throws UserException {
        FencingPolicy p = FencingPolicy.DEFAULT;
        if (section == null || isNull(section.getValueNode())) {
            return p;
        }
        for (NodeTuple e : mapping(source, section.getValueNode(), "stonith:", List.of("action", "power_on",
                "fence_delay")).values()) {
            String key = ((ScalarNode) e.getKeyNode()).getValue();
            if (!(e.getValueNode() instanceof ScalarNode v) || v.getValue().isBlank()) {
                throw error(source, line(e.getValueNode()), "stonith: " + key + ": no value; write e.g. "
                        + switch (key) {
                            case "action" -> "auto";
                            case "fence_delay" -> "5s or 0";
                            default -> "10s or never";
                        });
            }
            try {
                p = switch (key) {
                    case "action" -> new FencingPolicy(FencingPolicy.parseAction(v.getValue()), p.powerOnAfter(),
                            p.fenceDelay());
                    case "power_on" -> new FencingPolicy(p.action(), FencingPolicy.parsePowerOn(v.getValue()),
                            p.fenceDelay());
                    default -> new FencingPolicy(p.action(), p.powerOnAfter(), FencingPolicy.parseFenceDelay(v.getValue()));
                };
            } catch (IllegalArgumentException ex) {
                throw error(source, line(v), "stonith: " + key + ": " + ex.getMessage());
            }
        }
        return p;
    }

    /** The {@code monitor:} section as haresources options, each checked with their rules. */
    private static OperationTimeouts monitor(Path source, NodeTuple section) throws UserException {
        OperationTimeouts o = OperationTimeouts.NONE;
        if (section == null || isNull(section.getValueNode())) {
            return o;
        }
        for (NodeTuple e : mapping(source, section.getValueNode(), "monitor:",
                List.of("interval", "restart_limit", "restart_window")).values()) {
            String key = ((ScalarNode) e.getKeyNode()).getValue();
            if (!(e.getValueNode() instanceof ScalarNode v) || v.getValue().isBlank()) {
                throw error(source, line(e.getValueNode()), "monitor: " + key + ": no value; write e.g. "
                        + (key.equals("restart_limit") ? "3" : key.equals("interval") ? "10s" : "10min"));
            }
            try {
                o = o.with(MONITOR_KEYS.get(key), v.getValue().trim());
            } catch (IllegalArgumentException ex) {
                throw error(source, line(v), "monitor: " + key + ": " + ex.getMessage());
            }
        }
        return o;
    }

    private static InetSocketAddress address(Path source, Node value, String node) throws UserException {
        String what = "metrics: listen: " + node;
        String fix = "; write \"" + node + ": ADDRESS:PORT\" with one of " + node + "'s IP addresses, e.g. "
                + "192.168.1.1:9810 ([::1]:9810 for IPv6)";
        if (!(value instanceof ScalarNode s) || s.getValue().isBlank()) {
            throw error(source, line(value), what + ": no address" + fix);
        }
        String text = s.getValue().trim();
        Matcher m = HOST_PORT.matcher(text);
        if (!m.matches()) {
            throw error(source, line(value), what + ": [" + text + "] is not ADDRESS:PORT (an IP address, not a"
                    + " host name: nothing is looked up at start)" + fix);
        }
        int port = Integer.parseInt(m.group(2));
        if (port < 1 || port > 65535) {
            throw error(source, line(value), what + ": port " + port + " is out of range; use 1..65535" + fix);
        }
        String host = m.group(1).startsWith("[") ? m.group(1).substring(1, m.group(1).length() - 1) : m.group(1);
        try {
            if (!host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}") && !host.contains(":")) {
                throw new UnknownHostException(host);
            }
            return new InetSocketAddress(InetAddress.getByName(host), port); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw error(source, line(value), what + ": [" + host + "] is not an IP address" + fix);
        }
    }

    /** A mapping node's entries by key; {@code known} (null: anything) lists the allowed keys. */
    private static Map<String, NodeTuple> mapping(Path source, Node n, String where, List<String> known)
            throws UserException {
        if (!(n instanceof MappingNode map)) {
            throw error(source, line(n), where + " must be a mapping of keys to values" + (known == null ? ""
                    : " (" + String.join(", ", known) + ")") + "; indent the entries under it");
        }
        // a section's messages start with its path ("metrics: listen: "); the top level's with nothing
        String at = where.endsWith(":") ? where + " " : "";
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : map.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw error(source, line(t.getKeyNode()), where + " has a key that is not a plain word; write KEY: VALUE");
            }
            String key = k.getValue();
            if (known != null && !known.contains(key)) {
                List<String> candidates = new ArrayList<>(known);
                String hint = Suggestions.closest(key, candidates).map(c -> "did you mean '" + c + "'? ").orElse("");
                throw error(source, line(k), at + "unknown key [" + key + "]; " + hint + "known: "
                        + String.join(", ", known));
            }
            if (out.containsKey(key)) {
                throw error(source, line(k), at + key + " appears twice (first on line "
                        + line(out.get(key).getKeyNode()) + "); keep one");
            }
            out.put(key, t);
        }
        return out;
    }

    private static boolean isNull(Node n) {
        return n instanceof ScalarNode s && (s.getValue().isEmpty() || "null".equals(s.getValue())
                || "~".equals(s.getValue())) && s.getTag().getValue().endsWith(":null");
    }

    private static int line(Node n) {
        return n == null ? 0 : n.getStartMark().getLine() + 1;
    }

    private static UserException error(Path source, int line, String what) {
        String name = source == null ? NAME : source.toString();
        return new UserException(ExitCodes.CONFIG, (line > 0 ? name + ":" + line + ": " : name + ": ") + what);
    }
}
