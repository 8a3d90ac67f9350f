package org.jheartbeat.core.takeover;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jheartbeat.core.config.NodeName;

/**
 * The cluster's maintenance setting ({@code hb maintenance on|off [--node NODE | --group GROUP]};
 * docs/design/takeover.md, "Maintenance"): cluster-wide, and/or per node, and/or per
 * resource group. While a group is in maintenance nothing of jheartbeat starts, stops, monitors,
 * takes over, fails back or hands it over; beats and membership go on. As Pacemaker's
 * {@code maintenance-mode} cluster property and per-node/per-resource {@code maintenance} attribute.
 *
 * <p>The setting is one value known to both nodes: every change bumps {@link #version()}, and the
 * higher version wins when two nodes compare ({@code jhb-maint}); on equal versions the setting that
 * covers more wins (a node never leaves maintenance because of a tie). It is kept in the state
 * directory ({@link #encode()}, file {@code maintenance}) so that a restarted daemon is still in it.
 *
 * @param version bumped at every change, 0 for "never set"
 * @param cluster cluster-wide maintenance
 * @param nodes   nodes in maintenance (every group is left alone on them, and the peer takes nothing of theirs)
 * @param groups  keys of resource groups in maintenance
 */
public record Maintenance(long version, boolean cluster, SortedSet<String> nodes, SortedSet<String> groups) {
    /** No maintenance, never set. */
    public static final Maintenance NONE = new Maintenance(0, false, new TreeSet<>(), new TreeSet<>());
    /** Longest encoded form accepted (state file and wire), in bytes: 8 KiB. */
    public static final int MAX_ENCODED = 8192;

    /** What one {@code hb maintenance} command is about. */
    public enum Kind { CLUSTER, NODE, GROUP }

    /**
     * The scope of one command.
     *
     * @param kind what the name names
     * @param name the node or group key; empty for {@link Kind#CLUSTER}
     */
    public record Scope(Kind kind, String name) {
        /** Cluster-wide. */
        public static final Scope CLUSTER = new Scope(Kind.CLUSTER, "");

        /** As the operator reads it: {@code cluster-wide}, {@code node node1}, {@code group 198.18.0.10}. */
        public String describe() {
            return kind == Kind.CLUSTER ? "cluster-wide" : kind.name().toLowerCase(Locale.ROOT) + " " + name;
        }
    }

    public Maintenance {
        nodes = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(nodes));
        groups = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(groups));
        if (version < 0) {
            throw new IllegalArgumentException("maintenance version must be >= 0, got " + version);
        }
    }

    /** Whether any maintenance is on. */
    public boolean any() {
        return cluster || !nodes.isEmpty() || !groups.isEmpty();
    }

    /**
     * Whether group {@code key} is in maintenance as node {@code node} sees it: cluster-wide, that node
     * in maintenance, or the group.
     */
    public boolean covers(NodeName node, String key) {
        return cluster || nodes.contains(node.value()) || groups.contains(key);
    }

    /** Whether {@code scope} is on. */
    public boolean has(Scope scope) {
        return switch (scope.kind()) {
            case CLUSTER -> cluster;
            case NODE -> nodes.contains(scope.name());
            case GROUP -> groups.contains(scope.name());
        };
    }

    /**
     * This setting with {@code scope} turned on or off, at {@code newVersion}.
     *
     * @throws IllegalArgumentException when {@code newVersion} is not above {@link #version()}
     */
    public Maintenance with(Scope scope, boolean on, long newVersion) {
        if (newVersion <= version) {
            throw new IllegalArgumentException("version " + newVersion + " is not above " + version);
        }
        TreeSet<String> n = new TreeSet<>(nodes);
        TreeSet<String> g = new TreeSet<>(groups);
        boolean c = cluster;
        switch (scope.kind()) {
            case CLUSTER -> c = on;
            case NODE -> {
                if (on) {
                    n.add(scope.name());
                } else {
                    n.remove(scope.name());
                }
            }
            case GROUP -> {
                if (on) {
                    g.add(scope.name());
                } else {
                    g.remove(scope.name());
                }
            }
        }
        return new Maintenance(newVersion, c, n, g);
    }

    /**
     * Which of two settings both nodes keep: the higher version; on a tie the one that covers more
     * (cluster-wide, then more nodes, then more groups), then the smaller encoding, so both nodes pick
     * the same whatever order they compare in.
     */
    public static Maintenance newer(Maintenance a, Maintenance b) {
        if (a.version != b.version) {
            return a.version > b.version ? a : b;
        }
        if (a.cluster != b.cluster) {
            return a.cluster ? a : b;
        }
        int size = Integer.compare(a.nodes.size() + a.groups.size(), b.nodes.size() + b.groups.size());
        if (size != 0) {
            return size > 0 ? a : b;
        }
        return a.encode().compareTo(b.encode()) <= 0 ? a : b;
    }

    /** One line for logs and {@code hb status}: {@code off}, or e.g. {@code cluster-wide; nodes node1; groups g1}. */
    public String describe() {
        if (!any()) {
            return "off";
        }
        List<String> parts = new ArrayList<>();
        if (cluster) {
            parts.add("cluster-wide");
        }
        if (!nodes.isEmpty()) {
            parts.add((nodes.size() == 1 ? "node " : "nodes ") + String.join(", ", nodes));
        }
        if (!groups.isEmpty()) {
            parts.add((groups.size() == 1 ? "group " : "groups ") + String.join(", ", groups));
        }
        return String.join("; ", parts);
    }

    /**
     * Why group {@code key} is in maintenance as node {@code node} sees it (the first of cluster, node,
     * group), or empty when it is not.
     */
    public String reason(NodeName node, String key) {
        if (cluster) {
            return "cluster-wide";
        }
        if (nodes.contains(node.value())) {
            return "node " + node;
        }
        return groups.contains(key) ? "group " + key : "";
    }

    /**
     * The state-file form: four lines {@code version=N}, {@code cluster=on|off}, {@code nodes=A,B},
     * {@code groups=K1,K2}; names %-escaped ({@code %}, {@code ,}, controls and non-ASCII as {@code %XX} of
     * their UTF-8 bytes).
     */
    public String encode() {
        return "version=" + version + "\ncluster=" + (cluster ? "on" : "off") + "\nnodes=" + list(nodes)
                + "\ngroups=" + list(groups) + "\n";
    }

    /** The comma-separated, %-escaped list of {@code names} (the wire and file form). */
    public static String list(Collection<String> names) {
        List<String> out = new ArrayList<>();
        for (String s : names) {
            out.add(escape(s));
        }
        return String.join(",", out);
    }

    /**
     * Reads {@link #encode()}'s form. Any input: never throws anything but IllegalArgumentException.
     *
     * @throws IllegalArgumentException naming the line (1-based) and what is wrong: longer than
     *                                  {@value #MAX_ENCODED} bytes, an unknown or repeated key, a bad
     *                                  number, value or escape, a missing key
     */
    public static Maintenance parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("line 0: no text");
        }
        if (text.getBytes(StandardCharsets.UTF_8).length > MAX_ENCODED) {
            throw new IllegalArgumentException("line 0: longer than " + MAX_ENCODED + " bytes");
        }
        Long version = null;
        Boolean cluster = null;
        SortedSet<String> nodes = null;
        SortedSet<String> groups = null;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.isEmpty() && i == lines.length - 1) {
                continue;
            }
            int eq = l.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("line " + (i + 1) + ": expected KEY=VALUE");
            }
            String k = l.substring(0, eq);
            String v = l.substring(eq + 1);
            switch (k) {
                case "version" -> {
                    if (version != null || !v.matches("[0-9]{1,18}")) {
                        throw new IllegalArgumentException("line " + (i + 1) + ": version must appear once, 0.."
                                + "999999999999999999");
                    }
                    version = Long.parseLong(v);
                }
                case "cluster" -> {
                    if (cluster != null || !(v.equals("on") || v.equals("off"))) {
                        throw new IllegalArgumentException("line " + (i + 1) + ": cluster must appear once, on or off");
                    }
                    cluster = v.equals("on");
                }
                case "nodes", "groups" -> {
                    if (k.equals("nodes") ? nodes != null : groups != null) {
                        throw new IllegalArgumentException("line " + (i + 1) + ": " + k + " appears twice");
                    }
                    SortedSet<String> names = parseList(v, i + 1);
                    if (k.equals("nodes")) {
                        nodes = names;
                    } else {
                        groups = names;
                    }
                }
                default -> throw new IllegalArgumentException("line " + (i + 1) + ": unknown key '"
                        + (k.length() > 20 ? k.substring(0, 20) + "..." : k) + "'");
            }
        }
        if (version == null || cluster == null || nodes == null || groups == null) {
            throw new IllegalArgumentException("line " + lines.length + ": version, cluster, nodes and groups are"
                    + " all needed");
        }
        return new Maintenance(version, cluster, nodes, groups);
    }

    /**
     * Reads a comma-separated, %-escaped list ({@link #list}).
     *
     * @throws IllegalArgumentException for an empty name or a bad escape, naming {@code line}
     */
    public static SortedSet<String> parseList(String v, int line) {
        SortedSet<String> out = new TreeSet<>();
        if (v.isEmpty()) {
            return out;
        }
        for (String s : v.split(",", -1)) {
            String name = unescape(s);
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("line " + line + ": empty name or bad %-escape in '"
                        + (s.length() > 20 ? s.substring(0, 20) + "..." : s) + "'");
            }
            out.add(name);
        }
        return out;
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c <= 0x20 || c >= 0x7f || c == '%' || c == ',' || c == '=') {
                sb.append(String.format(Locale.ROOT, "%%%02X", c));
            } else {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    private static String unescape(String s) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    return null;
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi * 16 + lo);
                i += 2;
            } else if (c <= 0x20 || c >= 0x7f) {
                return null;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
