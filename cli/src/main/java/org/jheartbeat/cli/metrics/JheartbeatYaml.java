package org.jheartbeat.cli.metrics;

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
import org.jheartbeat.cli.ExitCodes;
import org.jheartbeat.cli.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.sync.config.YamlNodes;
import org.jheartbeat.core.config.Suggestions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * {@code /etc/ha.d/jheartbeat.yaml}: settings that only jheartbeat reads. They live in their own file,
 * not in ha.cf, because a real Heartbeat 3.0.6 reading the same ha.cf (the "Coming from Heartbeat"
 * path, a mixed cluster, {@code hb config push}) refuses directives it does not know. The file is
 * optional; today it holds the Prometheus endpoint, off unless this node is listed:
 * <pre>
 * metrics:
 *   listen:                    # per ha.cf node: the address:port its endpoint binds (IP literal)
 *     node1: 192.168.1.1:9810
 *     node2: 192.168.1.2:9810
 * </pre>
 * Every user error is one {@link UserException} (exit 2) reading {@code FILE:LINE: what is wrong;
 * what to do}, as for sync.yaml; unknown keys are errors, with "did you mean".
 *
 * @param source        the file as read (messages name it)
 * @param metricsListen per node name: where its metrics endpoint listens
 */
public record JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen) {
    /** File name inside the config dir. */
    public static final String NAME = "jheartbeat.yaml";
    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[0-9.]+):([0-9]{1,5})");

    public JheartbeatYaml {
        metricsListen = Map.copyOf(metricsListen);
    }

    /** No file: no metrics endpoint. */
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
        Map<String, NodeTuple> top = mapping(source, root, "the file", List.of("metrics"));
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
        return new JheartbeatYaml(source, listen);
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
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : map.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                throw error(source, line(t.getKeyNode()), where + " has a key that is not a plain word; write KEY: VALUE");
            }
            String key = k.getValue();
            if (known != null && !known.contains(key)) {
                List<String> candidates = new ArrayList<>(known);
                String hint = Suggestions.closest(key, candidates).map(c -> "did you mean '" + c + "'? ").orElse("");
                throw error(source, line(k), where + " unknown key [" + key + "]; " + hint + "known: "
                        + String.join(", ", known));
            }
            if (out.containsKey(key)) {
                throw error(source, line(k), where + " " + key + " appears twice (first on line "
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
