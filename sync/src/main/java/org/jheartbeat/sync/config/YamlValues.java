package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.Suggestions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The value readers of one parse of a YAML config file on snakeyaml's node tree: scalars, absolute paths,
 * booleans, whole numbers, durations, lists, mappings with known keys; each error as
 * {@code FILE:LINE: what is wrong; what to do} at the line of the offending node. A problem is either
 * thrown (the caller's value cannot be read) or recorded in {@link #problems} by {@link #attempt}, so
 * that a parse goes on and reports every problem of the file at once.
 */
abstract class YamlValues {
    /** The file as given, {@code null} for a text parsed in code. */
    final Path source;
    private final Path named;
    /** Every problem recorded so far, in the order found. */
    final List<ConfigDiagnostic> problems = new ArrayList<>();

    YamlValues(Path source) {
        this.source = source;
        this.named = source == null ? Path.of("sync.yaml") : source;
    }

    /** A step that may find a problem. */
    interface Step<T> {
        T get() throws SyncConfigException;
    }

    /** The step's value; or, when it finds a problem, the problem recorded and {@code fallback}. */
    <T> T attempt(Step<T> step, T fallback) {
        try {
            return step.get();
        } catch (SyncConfigException e) {
            problems.addAll(e.diagnostics());
            return fallback;
        }
    }

    void problem(Node at, String what) {
        problems.add(ConfigDiagnostic.error(named, line(at), what));
    }

    SyncConfigException err(Node at, String what) {
        return new SyncConfigException(source, line(at), what);
    }

    static int line(Node n) {
        return n == null ? 0 : n.getStartMark().getLine() + 1;
    }


    /**
     * The entries of a mapping by key. A key given twice, or (when {@code known} is given) a key not in
     * {@code known}, is recorded as a problem and left out.
     *
     * @throws SyncConfigException if {@code n} is not a mapping
     */
    Map<String, NodeTuple> mapping(Node n, String what, List<String> known) throws SyncConfigException {
        if (!(n instanceof MappingNode mn)) {
            throw err(n, what + " must be a mapping of \"key: value\" lines; indent its entries under it");
        }
        Map<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : mn.getValue()) {
            String k = attempt(() -> keyOf(t), null);
            if (k == null) {
                continue;
            }
            if (out.containsKey(k)) {
                problem(t.getKeyNode(), (what.equals("the file") ? "" : what.endsWith(":") ? what + " " : what + ": ")
                        + k + " is given twice (also line " + line(out.get(k).getKeyNode()) + "); keep one");
            } else if (known != null && !known.contains(k)) {
                String near = Suggestions.closest(k, known).orElse(null);
                String where = what.equals("the file") ? "at the top level" : "in " + what;
                problem(t.getKeyNode(), "unknown key [" + k + "] " + where
                        + (near != null ? "; did you mean " + near + "?" : "; known keys: " + String.join(", ", known)));
            } else {
                out.put(k, t);
            }
        }
        return out;
    }

    String keyOf(NodeTuple t) throws SyncConfigException {
        if (!(t.getKeyNode() instanceof ScalarNode s)) {
            throw err(t.getKeyNode(), "a key must be a plain word; write \"name: value\"");
        }
        return s.getValue();
    }

    static boolean isNull(Node n) {
        return n instanceof ScalarNode s && s.getTag().getValue().endsWith(":null");
    }

    String scalar(Node n, String what) throws SyncConfigException {
        if (!(n instanceof ScalarNode s) || isNull(n)) {
            throw err(n, what + " must be a single value; write it on the same line after the colon");
        }
        return s.getValue();
    }

    Optional<String> optScalar(Map<String, NodeTuple> m, String key, String what) throws SyncConfigException {
        if (!m.containsKey(key)) {
            return Optional.empty();
        }
        String v = scalar(m.get(key).getValueNode(), what + ": " + key).trim();
        if (v.isEmpty()) {
            throw err(m.get(key).getValueNode(), what + ": " + key + " is empty; give a value or remove the line");
        }
        return Optional.of(v);
    }

    Path absPath(Node n, String what) throws SyncConfigException {
        String s = scalar(n, what).trim();
        if (!s.startsWith("/")) {
            throw err(n, what + " [" + s + "] is not an absolute path; write it starting with /");
        }
        if (!Path.of(s).normalize().toString().equals(s.length() > 1 && s.endsWith("/")
                ? s.substring(0, s.length() - 1) : s)) {
            throw err(n, what + " [" + s + "] is not a plain path (., .. or //); write it as "
                    + Path.of(s).normalize());
        }
        return Path.of(s).normalize();
    }

    List<Path> paths(Node n, String what) throws SyncConfigException {
        List<Node> items = n instanceof SequenceNode sn ? sn.getValue() : List.of(n);
        if (items.isEmpty()) {
            throw err(n, what + ": paths is empty; list at least one directory");
        }
        List<Path> out = new ArrayList<>();
        for (Node item : items) {
            Path p = absPath(item, what + ": path");
            if (p.getNameCount() == 0) {
                throw err(item, what.startsWith("backup ")
                        ? what + ": path / is a whole system; list the data directories, or add \"profile: system\""
                        + " to back up the whole system"
                        : what + ": path / cannot be replicated; list the data directories instead");
            }
            for (Path q : out) {
                if (p.startsWith(q) || q.startsWith(p)) {
                    throw err(item, what + ": path " + p + " overlaps " + q + " of the same list; keep one");
                }
            }
            out.add(p);
        }
        return out;
    }

    List<String> strings(Map<String, NodeTuple> m, String key, String what) throws SyncConfigException {
        if (!m.containsKey(key) || isNull(m.get(key).getValueNode())) {
            return List.of();
        }
        Node n = m.get(key).getValueNode();
        List<String> out = new ArrayList<>();
        if (n instanceof SequenceNode sn) {
            for (Node item : sn.getValue()) {
                out.add(scalar(item, what + ": " + key + " entry"));
            }
        } else {
            try {
                out.addAll(SyncConfigParser.shellSplit(scalar(n, what + ": " + key)));
            } catch (IllegalArgumentException e) {
                throw err(n, what + ": " + key + ": " + e.getMessage() + "; write a list like [--bwlimit=10m]");
            }
        }
        return out;
    }

    boolean bool(Map<String, NodeTuple> m, String key, boolean def, String what) throws SyncConfigException {
        if (!m.containsKey(key)) {
            return def;
        }
        Node n = m.get(key).getValueNode();
        String s = scalar(n, what + ": " + key).trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw err(n, what + ": " + key + " [" + s + "] is not a boolean; write true or false");
        };
    }

    int intValue(Map<String, NodeTuple> m, String key, int def, int min, String what) throws SyncConfigException {
        if (!m.containsKey(key)) {
            return def;
        }
        Node n = m.get(key).getValueNode();
        String s = scalar(n, what + ": " + key).trim();
        int v;
        try {
            v = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw err(n, what + ": " + key + " [" + s + "] is not a whole number; write e.g. " + def);
        }
        if (v < min) {
            throw err(n, what + ": " + key + " is " + v + "; it must be at least " + min);
        }
        return v;
    }

    Duration duration(Map<String, NodeTuple> m, String key, Duration def, boolean zeroOk, String what)
            throws SyncConfigException {
        if (!m.containsKey(key)) {
            return def;
        }
        Node n = m.get(key).getValueNode();
        String s = scalar(n, what + ": " + key).trim();
        Duration d;
        try {
            d = SyncConfigParser.parseDuration(s);
        } catch (IllegalArgumentException e) {
            throw err(n, what + ": " + key + " [" + s + "] is not a duration; write a number and a unit: "
                    + "500ms, 30s, 5m, 1h");
        }
        if (d.isZero() && !zeroOk) {
            throw err(n, what + ": " + key + " is zero; give a positive duration such as 30s");
        }
        return d;
    }
}
