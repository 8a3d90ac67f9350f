package org.jheartbeat.cli.config;

import static org.jheartbeat.cli.config.JheartbeatYaml.line;

import java.net.InetSocketAddress;
import java.nio.file.Path;
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
import org.jheartbeat.sync.config.YamlNodes;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * jheartbeat.yaml's {@code web:} section, the console {@code hb web}:
 * <pre>
 * web:
 *   listen:                          # per node; default 127.0.0.1:8480 on every node
 *     node1: 192.168.1.1:8443
 *   tls_cert_file: /var/lib/jheartbeat/web.crt # with tls_key_file: https (PEM certificate; PKCS#8 PEM key,
 *   tls_key_file: /var/lib/jheartbeat/web.key  # 0600 root); the .deb's postinst makes this self-signed pair
 *   users_file: /etc/ha.d/web-users  # the console's PBKDF2 password file (hb web user add); default: web-users
 *                                    # in the configuration directory (--config-dir, /etc/ha.d)
 * </pre>
 * An address that is not loopback without the TLS files is refused: the login's password and the session cookie
 * would cross the network in clear text.
 *
 * @param listen    per node name (lower case): where its console listens, when not the default
 * @param tls       the TLS files, if given
 * @param usersFile the password file
 */
public record WebYaml(Map<String, InetSocketAddress> listen, Optional<MetricsTlsFiles> tls, Path usersFile) {
    /** Where a node's console listens unless {@code listen:} says otherwise. */
    public static final InetSocketAddress DEFAULT_LISTEN = new InetSocketAddress("127.0.0.1", 8480);
    /** The default {@code users_file:}'s name, in the configuration directory. */
    public static final String USERS_NAME = "web-users";
    /** The default {@code users_file:} with the default configuration directory. */
    public static final Path DEFAULT_USERS = Path.of("/etc/ha.d", USERS_NAME);
    /** Where the .deb's postinst makes the self-signed {@code web.crt} and {@code web.key} (packaging/src/deb). */
    public static final String SELF_SIGNED_DIR = "/var/lib/jheartbeat";
    /** No {@code web:} section. */
    public static final WebYaml NONE = new WebYaml(Map.of(), Optional.empty(), DEFAULT_USERS);

    public WebYaml {
        listen = Map.copyOf(listen);
    }

    /** Where {@code node}'s console listens. */
    public InetSocketAddress listen(NodeName node) {
        return listen.getOrDefault(node.value(), DEFAULT_LISTEN);
    }

    /**
     * The {@code web:} section of {@code configDir/jheartbeat.yaml}: the whole file is checked first (so every problem
     * of it is reported as {@code hb config check} would), then the section read. Without {@code users_file:} the
     * users file is {@code configDir/web-users}, so that {@code --config-dir} moves it with the rest.
     *
     * @throws UserException exit 2, {@code FILE:LINE: what; what to do} per problem
     */
    public static WebYaml load(Path configDir, Optional<ClusterConfig> cluster) throws UserException {
        JheartbeatYaml all = JheartbeatYaml.load(configDir, cluster);
        Path defaultUsers = configDir.resolve(USERS_NAME);
        WebYaml none = new WebYaml(Map.of(), Optional.empty(), defaultUsers);
        if (all.source() == null || !java.nio.file.Files.exists(all.source())) {
            return none;
        }
        try {
            Node root = YamlNodes.compose(java.nio.file.Files.readString(all.source()));
            if (root instanceof MappingNode m) {
                for (NodeTuple t : m.getValue()) {
                    if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals("web")) {
                        WebYaml w = section(new java.util.ArrayList<>(), t, cluster, defaultUsers);
                        return w == NONE ? none : w;
                    }
                }
            }
            return none;
        } catch (java.io.IOException | YamlNodes.SyntaxError | Problem e) {
            throw new UserException(ExitCodes.CONFIG, all.source() + ": " + e.getMessage());
        }
    }

    /** The section, its problems in {@code problems} (the parse of jheartbeat.yaml calls this). */
    static WebYaml section(List<Problem> problems, NodeTuple web, Optional<ClusterConfig> cluster) throws Problem {
        return section(problems, web, cluster, DEFAULT_USERS);
    }

    /** The section; {@code defaultUsers} when it has no {@code users_file:}. */
    private static WebYaml section(List<Problem> problems, NodeTuple web, Optional<ClusterConfig> cluster,
            Path defaultUsers) throws Problem {
        if (web == null || JheartbeatYaml.isNull(web.getValueNode())) {
            return NONE;
        }
        Map<String, NodeTuple> m = JheartbeatYaml.mapping(problems, web.getValueNode(), "web:", List.of("listen",
                "tls_cert_file", "tls_key_file", "users_file"));
        Optional<MetricsTlsFiles> tls = Optional.empty();
        try {
            tls = MetricsValues.tls(m.get("tls_cert_file"), m.get("tls_key_file"));
        } catch (Problem p) {
            problems.add(new Problem(p.line, p.getMessage().replaceFirst("^metrics:", "web:")));
        }
        Path users = defaultUsers;
        if (m.get("users_file") != null) {
            Node n = m.get("users_file").getValueNode();
            String v = n instanceof ScalarNode s ? s.getValue() : "";
            if (!v.startsWith("/")) {
                problems.add(new Problem(line(n), "web: users_file: must be an absolute path, e.g. " + DEFAULT_USERS));
            } else {
                users = Path.of(v);
            }
        }
        Map<String, InetSocketAddress> listen = new LinkedHashMap<>();
        NodeTuple l = m.get("listen");
        if (l != null && !JheartbeatYaml.isNull(l.getValueNode())) {
            List<String> nodes = cluster.map(c -> c.nodes().stream().map(NodeName::value).toList()).orElse(null);
            for (NodeTuple e : JheartbeatYaml.mapping(problems, l.getValueNode(), "web: listen:", null).values()) {
                String node = ((ScalarNode) e.getKeyNode()).getValue();
                if (nodes != null && !nodes.contains(node.toLowerCase(Locale.ROOT))) {
                    problems.add(new Problem(line(e.getKeyNode()), "web: listen: [" + node + "] is not a node of ha.cf;"
                            + " use one of " + String.join(", ", nodes)));
                    continue;
                }
                try {
                    InetSocketAddress a = MetricsValues.address(e.getValueNode(), node);
                    if (!a.getAddress().isLoopbackAddress() && tls.isEmpty()) {
                        problems.add(new Problem(line(e.getValueNode()), "web: listen: " + node + ": "
                                + a.getAddress().getHostAddress() + " is not a loopback address and the console has no"
                                + " TLS; give web: tls_cert_file: and tls_key_file: (the .deb makes a self-signed pair in"
                                + " " + SELF_SIGNED_DIR + "/web.crt and web.key), or listen on 127.0.0.1 and reach it through ssh -L"));
                        continue;
                    }
                    listen.put(node.toLowerCase(Locale.ROOT), a);
                } catch (Problem p) {
                    problems.add(new Problem(p.line, p.getMessage().replaceFirst("^metrics:", "web:")));
                }
            }
        }
        return new WebYaml(listen, tls, users);
    }
}
