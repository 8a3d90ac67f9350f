package org.jheartbeat.cli.config;

import static org.jheartbeat.cli.config.JheartbeatYaml.isNull;
import static org.jheartbeat.cli.config.JheartbeatYaml.line;
import static org.jheartbeat.cli.config.JheartbeatYaml.mapping;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.cli.config.JheartbeatYaml.Problem;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.Suggestions;
import org.jheartbeat.sync.config.YamlNodes;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * jheartbeat.yaml's {@code director:} section, read by {@code hb lvs daemon}: {@code metrics: listen: {NODE:
 * ADDRESS:PORT}} gives the director on that node its own Prometheus endpoint. It is beside {@code metrics:}
 * rather than in the director's unit because a director that fails over with its VIP is started by haresources
 * ({@code ldirectord::ldirectord.cf}), not by a unit; its token and TLS files are {@code metrics:}'s
 * ({@code token_file:}, {@code tls_cert_file:}, {@code tls_key_file:}): one scrape configuration per host.
 * Every address is checked as {@code metrics: listen:}'s ({@link MetricsValues#address}); the same address as the
 * node's daemon endpoint is refused (one of the two could not bind).
 */
public final class DirectorSection {
    private DirectorSection() {
    }

    /**
     * Parses the section into node → address.
     *
     * @param daemonListen the nodes' {@code metrics: listen:} addresses, already parsed
     * @throws Problem when the section is not a mapping
     */
    static Map<String, InetSocketAddress> parse(List<Problem> problems, NodeTuple section,
                                                Optional<ClusterConfig> cluster,
                                                Map<String, InetSocketAddress> daemonListen) throws Problem {
        Map<String, InetSocketAddress> out = new LinkedHashMap<>();
        if (section == null || isNull(section.getValueNode())) {
            return out;
        }
        NodeTuple metrics = mapping(problems, section.getValueNode(), "director:", List.of("metrics")).get("metrics");
        if (metrics == null || isNull(metrics.getValueNode())) {
            return out;
        }
        NodeTuple l = mapping(problems, metrics.getValueNode(), "director: metrics:", List.of("listen")).get("listen");
        if (l == null || isNull(l.getValueNode())) {
            return out;
        }
        List<String> nodes = cluster.map(c -> c.nodes().stream().map(NodeName::value).toList()).orElse(null);
        for (NodeTuple e : mapping(problems, l.getValueNode(), "director: metrics: listen:", null).values()) {
            String node = ((ScalarNode) e.getKeyNode()).getValue();
            String key = node.toLowerCase(Locale.ROOT);
            if (nodes != null && !nodes.contains(key)) {
                problems.add(new Problem(line(e.getKeyNode()), "director: metrics: listen: [" + node + "] is not a"
                        + " node of ha.cf; " + Suggestions.closest(node, nodes).map(c -> "did you mean '" + c + "'? ")
                        .orElse("") + "use one of " + String.join(", ", nodes)));
                continue;
            }
            InetSocketAddress a;
            try {
                a = MetricsValues.address(e.getValueNode(), node);
            } catch (Problem p) {
                // the value's checks are metrics: listen:'s; the message names this section
                problems.add(new Problem(line(e.getValueNode()), "director: " + p.getMessage()));
                continue;
            }
            if (a.equals(daemonListen.get(key))) {
                problems.add(new Problem(line(e.getValueNode()), "director: metrics: listen: " + node + ": "
                        + ((ScalarNode) e.getValueNode()).getValue() + " is also " + node + "'s metrics: listen:"
                        + " address, and only one can listen there; give the director its own port, e.g. "
                        + a.getAddress().getHostAddress() + ":9811"));
                continue;
            }
            out.put(key, a);
        }
        return out;
    }

    /**
     * What {@code hb lvs daemon} on {@code node} reads: the whole of {@code configDir/jheartbeat.yaml} is checked
     * ({@link JheartbeatYaml#load}), then its {@code director: metrics: listen:} entry for the node.
     *
     * @return the address, the token file and the TLS files; empty when the file or the node's entry is absent
     * @throws UserException exit 2, one {@code FILE:LINE: what; what to do} line per problem of the file
     */
    public static Optional<Endpoint> load(Path configDir, String node) throws UserException {
        JheartbeatYaml all = JheartbeatYaml.load(configDir, Optional.empty());
        if (all.source() == null) {
            return Optional.empty();
        }
        Path file = all.source();
        Map<String, InetSocketAddress> listen;
        try {
            var root = YamlNodes.compose(Files.readString(file, StandardCharsets.UTF_8));
            List<Problem> problems = new ArrayList<>();
            Map<String, NodeTuple> top = root == null || root instanceof ScalarNode ? Map.of()
                    : mapping(problems, root, "the file", null);
            listen = parse(problems, top.get("director"), Optional.empty(), all.metricsListen());
        } catch (IOException | YamlNodes.SyntaxError | Problem e) {
            // load above read and checked this very file a moment ago: it changed in between
            throw new UserException(ExitCodes.CONFIG, file + ": changed while it was read (" + e.getMessage()
                    + "); start again");
        }
        InetSocketAddress at = listen.get(node.toLowerCase(Locale.ROOT));
        return at == null ? Optional.empty()
                : Optional.of(new Endpoint(at, all.metricsTokenFile(), all.metricsTls()));
    }

    /**
     * The director's endpoint on this node.
     *
     * @param listen    its address
     * @param tokenFile {@code metrics: token_file:}, if given
     * @param tls       {@code metrics: tls_cert_file:} and {@code tls_key_file:}, if given
     */
    public record Endpoint(InetSocketAddress listen, Optional<Path> tokenFile, Optional<MetricsTlsFiles> tls) {
    }
}
