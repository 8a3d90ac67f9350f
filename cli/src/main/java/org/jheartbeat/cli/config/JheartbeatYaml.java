package org.jheartbeat.cli.config;

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
 *   token_file: /etc/ha.d/metrics.token   # optional: scrapes must send "Authorization: Bearer TOKEN"
 *   tls_cert_file: /etc/ha.d/metrics.crt  # optional, with tls_key_file: https (PEM certificate, then chain)
 *   tls_key_file: /etc/ha.d/metrics.key   # its PKCS#8 PEM key (openssl genpkey), mode 600, owned by root
 * monitor:
 *   interval: 10s              # 0 or off: resources are watched only where haresources asks
 *   restart_limit: 3           # in-place restarts within the window, then the group moves
 *   restart_window: 10min      # how long a failure counts
 *   heartbeat_class: no        # yes: watch resource.d/init.d scripts through their status too
 * control:
 *   admin_group: haadmin       # besides root, its members may change the cluster over the control socket
 * authkeys:                    # beyond authkeys' own 'auth' key ({@link AuthkeysSettings})
 *   rollover_until: 2026-12-06T18:00:00Z
 *   crc_links: [eth1]
 * stonith:                     # how this node fences its peer before a takeover (docs/design/stonith.md)
 *   action: auto               # auto: off where the device confirms it (apcsmart), else reset; off; reset
 *   power_on: 10s              # after a confirmed off, switch the peer on again this much later; never
 *   fence_delay: 5s            # all links cut: the node holding fewer groups waits this long to fence; 0: none
 * alerts:                      # scripts and mails told of events ({@link AlertSettings}, {@link AlertsSection})
 *   - mail: {to: [root], smtp: mail.example.com:25}
 *     kinds: [node-dead, fence-failed]
 * </pre>
 * User errors are one {@link UserException} (exit 2) with a line per problem, every problem of the
 * file at once, each {@code FILE:LINE: what is wrong; what to do}, as for sync.yaml; unknown keys are
 * errors, with "did you mean".
 *
 * @param source          the file as read (messages name it)
 * @param metricsListen   per node name: where its metrics endpoint listens
 * @param monitorDefaults the {@code monitor:} settings as haresources options ({@code op_monitor_interval},
 *                        {@code op_restart_limit}, {@code op_restart_window}); {@link OperationTimeouts#NONE}
 *                        when absent (built-in defaults: every 10 s, 3 restarts within 10 min)
 * @param fencing         the {@code stonith:} settings; {@link FencingPolicy#DEFAULT} for what is absent
 * @param metricsTokenFile {@code metrics: token_file:}, the file holding the bearer token scrapes must send
 *                        (absolute path; read by the daemon at start, {@code MetricsToken})
 * @param authkeys        the {@code authkeys:} section; {@link AuthkeysSettings#NONE} when absent
 * @param adminGroup      {@code control: admin_group:}: the group whose members may send state-changing control
 *                        requests besides root ({@code haclient} members may only read)
 * @param metricsTls      {@code metrics: tls_cert_file:} and {@code tls_key_file:}: the endpoint serves https
 * @param watchScripts    {@code monitor: heartbeat_class: yes}: Heartbeat-class resources ({@code resource.d} and
 *                        {@code init.d} scripts, IPaddr, drbddisk) are watched through their {@code status} too,
 *                        with the node's defaults; without it only those with their own {@code op_monitor_interval=}
 * @param alerts          the {@code alerts:} section ({@link AlertSettings}); {@link AlertSettings#NONE} when absent
 */
public record JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen,
                             OperationTimeouts monitorDefaults, FencingPolicy fencing,
                             Optional<Path> metricsTokenFile, AuthkeysSettings authkeys, Optional<String> adminGroup,
                             Optional<MetricsTlsFiles> metricsTls, boolean watchScripts, AlertSettings alerts) {
    /** File name inside the config dir. */
    public static final String NAME = "jheartbeat.yaml";

    /** The {@code monitor:} keys and the haresources options they stand for. */
    private static final String HEARTBEAT_CLASS = "heartbeat_class";
    private static final Map<String, String> MONITOR_KEYS = Map.of("interval", "op_monitor_interval",
            "restart_limit", "op_restart_limit", "restart_window", "op_restart_window");

    public JheartbeatYaml {
        metricsListen = Map.copyOf(metricsListen);
        java.util.Objects.requireNonNull(monitorDefaults, "monitorDefaults");
        java.util.Objects.requireNonNull(fencing, "fencing");
        java.util.Objects.requireNonNull(metricsTokenFile, "metricsTokenFile");
        java.util.Objects.requireNonNull(authkeys, "authkeys");
        java.util.Objects.requireNonNull(adminGroup, "adminGroup");
        java.util.Objects.requireNonNull(metricsTls, "metricsTls");
        java.util.Objects.requireNonNull(alerts, "alerts");
    }

    /** Settings without alerts. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen, OperationTimeouts monitorDefaults,
                          FencingPolicy fencing, Optional<Path> metricsTokenFile, AuthkeysSettings authkeys,
                          Optional<String> adminGroup, Optional<MetricsTlsFiles> metricsTls, boolean watchScripts) {
        this(source, metricsListen, monitorDefaults, fencing, metricsTokenFile, authkeys, adminGroup, metricsTls,
                watchScripts, AlertSettings.NONE);
    }

    /** Settings without metrics TLS. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen, OperationTimeouts monitorDefaults,
                          FencingPolicy fencing, Optional<Path> metricsTokenFile, AuthkeysSettings authkeys,
                          Optional<String> adminGroup) {
        this(source, metricsListen, monitorDefaults, fencing, metricsTokenFile, authkeys, adminGroup, Optional.empty(),
                false);
    }

    /** Settings without a {@code control:} section. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen, OperationTimeouts monitorDefaults,
                          FencingPolicy fencing, Optional<Path> metricsTokenFile, AuthkeysSettings authkeys) {
        this(source, metricsListen, monitorDefaults, fencing, metricsTokenFile, authkeys, Optional.empty());
    }

    /** Settings without an {@code authkeys:} section. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen, OperationTimeouts monitorDefaults,
                          FencingPolicy fencing, Optional<Path> metricsTokenFile) {
        this(source, metricsListen, monitorDefaults, fencing, metricsTokenFile, AuthkeysSettings.NONE);
    }

    /** Settings without a metrics token. */
    public JheartbeatYaml(Path source, Map<String, InetSocketAddress> metricsListen, OperationTimeouts monitorDefaults,
                          FencingPolicy fencing) {
        this(source, metricsListen, monitorDefaults, fencing, Optional.empty());
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
     * Parses the text of jheartbeat.yaml (empty, or only comments: no settings). Every problem of the file
     * is reported at once, one line each, ordered by line (a YAML syntax error stops the parse: nothing
     * after it can be read).
     *
     * @throws UserException exit 2, one {@code FILE:LINE: what; what to do} line per problem
     */
    public static JheartbeatYaml parse(String text, Path source, Optional<ClusterConfig> cluster) throws UserException {
        Node root;
        try {
            root = YamlNodes.compose(text);
        } catch (YamlNodes.SyntaxError e) {
            throw failed(source, List.of(new Problem(e.line(), e.getMessage())));
        }
        Map<String, InetSocketAddress> listen = new LinkedHashMap<>();
        if (root == null || root instanceof ScalarNode s && s.getValue().isEmpty()) {
            return new JheartbeatYaml(source, listen);
        }
        List<Problem> problems = new ArrayList<>();
        Map<String, NodeTuple> top = attempt(problems, () -> mapping(problems, root, "the file",
                List.of("alerts", "authkeys", "control", "director", "metrics", "monitor", "stonith", "web")), Map.of());
        OperationTimeouts monitor = attempt(problems, () -> monitor(problems, top.get("monitor")), OperationTimeouts.NONE);
        boolean scripts = attempt(problems, () -> watchScripts(problems, top.get("monitor")), false);
        FencingPolicy fencing = attempt(problems, () -> fencing(problems, top.get("stonith")), FencingPolicy.DEFAULT);
        MetricsFiles files = attempt(problems, () -> metrics(problems, top.get("metrics"), cluster, listen),
                MetricsFiles.NONE);
        AuthkeysSettings keys = attempt(problems, () -> authkeys(problems, top.get("authkeys")), AuthkeysSettings.NONE);
        Optional<String> admins = attempt(problems, () -> control(problems, top.get("control")), Optional.empty());
        AlertSettings alerts = attempt(problems, () -> AlertsSection.parse(problems, top.get("alerts")), AlertSettings.NONE);
        attempt(problems, () -> DirectorSection.parse(problems, top.get("director"), cluster, listen), Map.of());
        attempt(problems, () -> WebYaml.section(problems, top.get("web"), cluster), WebYaml.NONE); // hb web reads it
        if (!problems.isEmpty()) {
            throw failed(source, problems);
        }
        return new JheartbeatYaml(source, listen, monitor, fencing, files.token, keys, admins, files.tls, scripts, alerts);
    }

    /** The same settings without the {@code authkeys:} section, which a reload applies (the rest needs a restart). */
    public JheartbeatYaml withoutAuthkeys() {
        return new JheartbeatYaml(source, metricsListen, monitorDefaults, fencing, metricsTokenFile,
                AuthkeysSettings.NONE, adminGroup, metricsTls, watchScripts, alerts);
    }

    /** The {@code control:} section: {@code admin_group}, a group name. */
    private static Optional<String> control(List<Problem> problems, NodeTuple section) throws Problem {
        if (section == null || isNull(section.getValueNode())) {
            return Optional.empty();
        }
        NodeTuple g = mapping(problems, section.getValueNode(), "control:", List.of("admin_group")).get("admin_group");
        if (g == null) {
            return Optional.empty();
        }
        String v = g.getValueNode() instanceof ScalarNode s ? s.getValue() : "";
        if (!v.matches("[a-z_][a-z0-9_-]{0,31}")) {
            throw new Problem(line(g.getValueNode()), "control: admin_group: [" + v + "] is not a group name; write"
                    + " the name of a group in /etc/group whose members may change the cluster, e.g. haadmin");
        }
        return Optional.of(v);
    }

    /** The {@code authkeys:} section: {@code rollover_until} (a time with its zone) and {@code crc_links} (a list). */
    private static AuthkeysSettings authkeys(List<Problem> problems, NodeTuple section) throws Problem {
        if (section == null || isNull(section.getValueNode())) {
            return AuthkeysSettings.NONE;
        }
        Map<String, NodeTuple> m = mapping(problems, section.getValueNode(), "authkeys:",
                List.of("rollover_until", "crc_links"));
        Optional<java.time.Instant> until = Optional.empty();
        NodeTuple u = m.get("rollover_until");
        if (u != null) {
            Node v = u.getValueNode();
            String text = v instanceof ScalarNode sv ? sv.getValue() : "";
            try {
                until = Optional.of(java.time.OffsetDateTime.parse(text).toInstant());
            } catch (java.time.format.DateTimeParseException e) {
                problems.add(new Problem(line(v), "authkeys: rollover_until: [" + text + "] is not a time with its"
                        + " zone; write e.g. 2026-12-06T18:00:00Z (UTC) or 2026-12-06T19:00:00+01:00"));
            }
        }
        java.util.Set<String> crc = new java.util.LinkedHashSet<>();
        NodeTuple c = m.get("crc_links");
        if (c != null) {
            if (!(c.getValueNode() instanceof org.yaml.snakeyaml.nodes.SequenceNode list)
                    || !list.getValue().stream().allMatch(n -> n instanceof ScalarNode sn && !sn.getValue().isBlank())) {
                problems.add(new Problem(line(c.getValueNode()), "authkeys: crc_links: must be a list of interface"
                        + " names, e.g. [eth1]"));
            } else {
                list.getValue().forEach(n -> crc.add(((ScalarNode) n).getValue()));
            }
        }
        return new AuthkeysSettings(until, crc);
    }

    /**
     * The {@code metrics:} section into {@code listen}: each node's entry checked on its own.
     *
     * @return {@code token_file:} and the TLS files, when given
     */
    private static MetricsFiles metrics(List<Problem> problems, NodeTuple metrics, Optional<ClusterConfig> cluster,
                                        Map<String, InetSocketAddress> listen) throws Problem {
        if (metrics == null || isNull(metrics.getValueNode())) {
            return MetricsFiles.NONE;
        }
        Map<String, NodeTuple> m = mapping(problems, metrics.getValueNode(), "metrics:", List.of("listen",
                "token_file", "tls_cert_file", "tls_key_file"));
        Optional<Path> token = Optional.empty();
        NodeTuple t = m.get("token_file");
        if (t != null) {
            token = Optional.ofNullable(attempt(problems, () -> MetricsValues.absolute(t, "/etc/ha.d/metrics.token (a file of mode"
                    + " 0600 holding one line, the token)"), null));
        }
        MetricsFiles files = new MetricsFiles(token, attempt(problems, () -> MetricsValues.tls(m.get("tls_cert_file"),
                m.get("tls_key_file")), Optional.empty()));
        NodeTuple l = m.get("listen");
        if (l == null || isNull(l.getValueNode())) {
            return files;
        }
        List<String> nodes = cluster.map(c -> c.nodes().stream().map(NodeName::value).toList()).orElse(null);
        for (NodeTuple e : mapping(problems, l.getValueNode(), "metrics: listen:", null).values()) {
            String node = ((ScalarNode) e.getKeyNode()).getValue();
            if (nodes != null && !nodes.contains(node.toLowerCase(Locale.ROOT))) {
                problems.add(new Problem(line(e.getKeyNode()), "metrics: listen: [" + node + "] is not a node of"
                        + " ha.cf; " + Suggestions.closest(node, nodes).map(c -> "did you mean '" + c + "'? ")
                        .orElse("") + "use one of " + String.join(", ", nodes)));
                continue;
            }
            InetSocketAddress a = attempt(problems, () -> MetricsValues.address(e.getValueNode(), node), null);
            if (a != null) {
                listen.put(node.toLowerCase(Locale.ROOT), a);
            }
        }
        return files;
    }

    /** The file keys of {@code metrics:}. */
    private record MetricsFiles(Optional<Path> token, Optional<MetricsTlsFiles> tls) {
        static final MetricsFiles NONE = new MetricsFiles(Optional.empty(), Optional.empty());
    }

    /**
     * The {@code stonith:} section: {@code action}, {@code power_on} and {@code fence_delay}, each defaulting
     * as {@link FencingPolicy#DEFAULT}.
     */
    private static FencingPolicy fencing(List<Problem> problems, NodeTuple section) throws Problem {
        FencingPolicy p = FencingPolicy.DEFAULT;
        if (section == null || isNull(section.getValueNode())) {
            return p;
        }
        for (NodeTuple e : mapping(problems, section.getValueNode(), "stonith:", List.of("action", "power_on",
                "fence_delay")).values()) {
            String key = ((ScalarNode) e.getKeyNode()).getValue();
            if (!(e.getValueNode() instanceof ScalarNode v) || v.getValue().isBlank()) {
                problems.add(new Problem(line(e.getValueNode()), "stonith: " + key + ": no value; write e.g. "
                        + switch (key) {
                            case "action" -> "auto";
                            case "fence_delay" -> "5s or 0";
                            default -> "10s or never";
                        }));
                continue;
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
                problems.add(new Problem(line(v), "stonith: " + key + ": " + ex.getMessage()));
            }
        }
        return p;
    }

    /** The {@code monitor:} section as haresources options, each checked with their rules. */
    private static OperationTimeouts monitor(List<Problem> problems, NodeTuple section) throws Problem {
        OperationTimeouts o = OperationTimeouts.NONE;
        if (section == null || isNull(section.getValueNode())) {
            return o;
        }
        for (NodeTuple e : mapping(problems, section.getValueNode(), "monitor:",
                List.of("interval", "restart_limit", "restart_window", HEARTBEAT_CLASS)).values()) {
            String key = ((ScalarNode) e.getKeyNode()).getValue();
            if (key.equals(HEARTBEAT_CLASS)) {
                continue;
            }
            if (!(e.getValueNode() instanceof ScalarNode v) || v.getValue().isBlank()) {
                problems.add(new Problem(line(e.getValueNode()), "monitor: " + key + ": no value; write e.g. "
                        + (key.equals("restart_limit") ? "3" : key.equals("interval") ? "10s" : "10min")));
                continue;
            }
            try {
                o = o.with(MONITOR_KEYS.get(key), v.getValue().trim());
            } catch (IllegalArgumentException ex) {
                problems.add(new Problem(line(v), "monitor: " + key + ": " + ex.getMessage()));
            }
        }
        return o;
    }

    /** {@code monitor: heartbeat_class:}, a YAML boolean; absent: no. */
    private static boolean watchScripts(List<Problem> problems, NodeTuple section) {
        if (section == null || !(section.getValueNode() instanceof MappingNode m)) {
            return false;
        }
        for (NodeTuple e : m.getValue()) {
            if (e.getKeyNode() instanceof ScalarNode k && k.getValue().equals(HEARTBEAT_CLASS)) {
                String v = e.getValueNode() instanceof ScalarNode sv ? sv.getValue().trim().toLowerCase(Locale.ROOT) : "";
                if (List.of("yes", "true", "on").contains(v)) {
                    return true;
                }
                if (!List.of("no", "false", "off").contains(v)) {
                    problems.add(new Problem(line(e.getValueNode()), "monitor: " + HEARTBEAT_CLASS + ": [" + v
                            + "] is not yes or no; write yes to watch resource.d and init.d scripts through their"
                            + " status, no (the default, as Heartbeat) to leave them unwatched"));
                }
            }
        }
        return false;
    }

    /**
     * A mapping node's entries by key; {@code known} (null: anything) lists the allowed keys. A key that is
     * not a plain word, unknown or given twice is recorded in {@code problems} and left out.
     *
     * @throws Problem when {@code n} is not a mapping
     */
    static Map<String, NodeTuple> mapping(List<Problem> problems, Node n, String where, List<String> known)
            throws Problem {
        if (!(n instanceof MappingNode map)) {
            throw new Problem(line(n), where + " must be a mapping of keys to values" + (known == null ? ""
                    : " (" + String.join(", ", known) + ")") + "; indent the entries under it");
        }
        // a section's messages start with its path ("metrics: listen: "); the top level's with nothing
        String at = where.endsWith(":") ? where + " " : "";
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : map.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) {
                problems.add(new Problem(line(t.getKeyNode()), where + " has a key that is not a plain word; write"
                        + " KEY: VALUE"));
                continue;
            }
            String key = k.getValue();
            if (known != null && !known.contains(key)) {
                List<String> candidates = new ArrayList<>(known);
                String hint = Suggestions.closest(key, candidates).map(c -> "did you mean '" + c + "'? ").orElse("");
                problems.add(new Problem(line(k), at + "unknown key [" + key + "]; " + hint + "known: "
                        + String.join(", ", known)));
                continue;
            }
            if (out.containsKey(key)) {
                problems.add(new Problem(line(k), at + key + " appears twice (first on line "
                        + line(out.get(key).getKeyNode()) + "); keep one"));
                continue;
            }
            out.put(key, t);
        }
        return out;
    }

    static boolean isNull(Node n) {
        return n instanceof ScalarNode s && (s.getValue().isEmpty() || "null".equals(s.getValue())
                || "~".equals(s.getValue())) && s.getTag().getValue().endsWith(":null");
    }

    static int line(Node n) {
        return n == null ? 0 : n.getStartMark().getLine() + 1;
    }

    /** One problem of the file: its 1-based line (0: none applies) and {@code what is wrong; what to do}. */
    static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;
        final int line;

        Problem(int line, String what) {
            super(what, null, false, false);
            this.line = line;
        }
    }

    /** A step of the parse that may find a problem that stops it (its value cannot be read). */
    private interface Step<T> {
        T get() throws Problem;
    }

    /** The step's value; or, when it stops on a problem, the problem recorded and {@code fallback}. */
    private static <T> T attempt(List<Problem> problems, Step<T> step, T fallback) {
        try {
            return step.get();
        } catch (Problem p) {
            problems.add(p);
            return fallback;
        }
    }

    /** Every problem as one user error, a {@code FILE:LINE: what} line each, ordered by line. */
    private static UserException failed(Path source, List<Problem> problems) {
        String name = source == null ? NAME : source.toString();
        return new UserException(ExitCodes.CONFIG, problems.stream()
                .sorted(java.util.Comparator.comparingInt(p -> p.line))
                // a value quoted in a message may hold line breaks or control characters: one printable line each
                .map(p -> (p.line > 0 ? name + ":" + p.line + ": " : name + ": ") + YamlNodes.oneLine(p.getMessage()))
                .collect(java.util.stream.Collectors.joining("\n")));
    }
}
