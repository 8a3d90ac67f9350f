package org.jheartbeat.core.control;

import java.util.List;
import java.util.Map;

/**
 * A point-in-time view of one daemon, answered on the control socket and printed by {@code hb status}.
 *
 * @param node           this node's name
 * @param generation     this daemon's generation ({@code hg})
 * @param takeoverState  the takeover machine's phase, lowercase (e.g. {@code stable})
 * @param nodes          every node, this one first
 * @param groups         every resource group in haresources order
 * @param badPackets     bad packets dropped since start (auth or parse failures, unknown senders)
 * @param badBySource    bad-packet counts per source address and link
 * @param media          per medium (its description): counters such as serial garbage bytes
 * @param fencing        STONITH state: {@code none}, an attempt in progress or failing, or the last fence
 * @param config         how the peer's configuration compares with ours (its {@code jhb-config} digest):
 *                       {@code same as node2}, {@code DIFFERS from node2 in haresources, ...} or {@code unknown (...)}
 * @param recentEvents   the last operator-facing events, oldest first, each prefixed with its time
 */
public record StatusSnapshot(String node, long generation, String takeoverState, List<NodeView> nodes,
                             List<GroupView> groups, long badPackets, Map<String, Long> badBySource,
                             Map<String, Map<String, Long>> media, String fencing, String config,
                             List<String> recentEvents) {

    public StatusSnapshot {
        nodes = List.copyOf(nodes);
        groups = List.copyOf(groups);
        badBySource = Map.copyOf(badBySource);
        media = Map.copyOf(new java.util.TreeMap<>(media));
        recentEvents = List.copyOf(recentEvents);
    }

    /**
     * One node as seen from here.
     *
     * @param name   node name
     * @param status {@code init}, {@code up}, {@code active} or {@code dead}
     * @param local  whether this is the node answering
     * @param links  link name → {@code init}/{@code up}/{@code dead} (empty for the local node)
     */
    public record NodeView(String name, String status, boolean local, Map<String, String> links) {
        public NodeView {
            links = Map.copyOf(links);
        }
    }

    /**
     * One resource group.
     *
     * @param key           the group key (first resource token)
     * @param preferredNode the node named first on its haresources line
     * @param localState    run state here: {@code stopped}, {@code starting}, {@code running}, {@code stopping}, {@code failed}
     * @param runningOn     the node running it as far as this node knows, or {@code -} for nowhere
     * @param resources     the whole haresources line after the node name
     */
    public record GroupView(String key, String preferredNode, String localState, String runningOn, String resources) { }

    /** The human-readable form printed by {@code hb status}: one block of nodes and links, one of groups. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("Node ").append(node).append(" (generation ").append(generation).append("), resources: ")
                .append(takeoverState).append('\n');
        sb.append("Nodes:\n");
        for (NodeView n : nodes) {
            sb.append(String.format("  %-12s %-7s%s%n", n.name(), n.status(), n.local() ? " (this node)" : ""));
            n.links().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(l ->
                    sb.append(String.format("    link %-10s %s%n", l.getKey(), l.getValue())));
        }
        sb.append("Resource groups:\n");
        for (GroupView g : groups) {
            sb.append(String.format("  %-28s on %-10s (preferred %s, here %s)%n", g.resources(), g.runningOn(),
                    g.preferredNode(), g.localState()));
        }
        sb.append("Config: ").append(config).append('\n');
        sb.append("Fencing: ").append(fencing).append('\n');
        sb.append("Bad packets: ").append(badPackets).append('\n');
        badBySource.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                sb.append("  ").append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
        media.forEach((m, c) -> {
            if (!c.isEmpty()) {
                sb.append("Medium ").append(m).append(':');
                new java.util.TreeMap<>(c).forEach((k, v) -> sb.append(' ').append(k).append(' ').append(v).append(','));
                sb.setLength(sb.length() - 1);
                sb.append('\n');
            }
        });
        if (!recentEvents.isEmpty()) {
            sb.append("Recent events:\n");
            recentEvents.forEach(e -> sb.append("  ").append(e).append('\n'));
        }
        return sb.toString();
    }
}
