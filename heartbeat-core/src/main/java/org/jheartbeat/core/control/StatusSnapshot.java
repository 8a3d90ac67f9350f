package org.jheartbeat.core.control;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

import java.util.List;
import java.util.Map;

/**
 * A point-in-time view of one daemon, answered on the control socket and printed by {@code hb status}.
 *
 * @param node           this node's name
 * @param generation     this daemon's generation ({@code hg})
 * @param takeoverState  the takeover machine's phase, lowercase (e.g. {@code stable})
 * @param rscStatus      what this node holds, as {@code cl_status rscstatus}: {@code none}, {@code local},
 *                       {@code foreign}, {@code all}, or {@code transition} while groups move
 * @param nodes          every node, this one first
 * @param groups         every resource group in haresources order
 * @param badPackets     bad packets dropped since start (auth or parse failures, unknown senders)
 * @param badBySource    bad-packet counts per source address and link
 * @param media          per medium (its description): counters such as serial garbage bytes
 * @param fencing        STONITH state: {@code none}, an attempt in progress or failing, or the last fence
 * @param config         how the peer's configuration compares with ours (its {@code jhb-config} digest):
 *                       {@code same as node2}, {@code DIFFERS from node2 in haresources, ...} or {@code unknown (...)}
 * @param recentEvents   the last operator-facing events, oldest first, each prefixed with its time
 * @param loop           dropped frames and internal errors of the cluster loop
 */
public record StatusSnapshot(String node, long generation, String takeoverState, String rscStatus, List<NodeView> nodes,
                             List<GroupView> groups, long badPackets, Map<String, Long> badBySource,
                             Map<String, Map<String, Long>> media, String fencing, String config,
                             List<String> recentEvents, LoopHealth loop) {

    public StatusSnapshot {
        nodes = List.copyOf(nodes);
        groups = List.copyOf(groups);
        badBySource = Map.copyOf(badBySource);
        media = Map.copyOf(new java.util.TreeMap<>(media));
        recentEvents = List.copyOf(recentEvents);
        java.util.Objects.requireNonNull(loop, "loop");
    }

    /** A snapshot of a loop that dropped nothing and met no internal error. */
    public StatusSnapshot(String node, long generation, String takeoverState, String rscStatus, List<NodeView> nodes,
                          List<GroupView> groups, long badPackets, Map<String, Long> badBySource,
                          Map<String, Map<String, Long>> media, String fencing, String config,
                          List<String> recentEvents) {
        this(node, generation, takeoverState, rscStatus, nodes, groups, badPackets, badBySource, media, fencing, config,
                recentEvents, LoopHealth.NONE);
    }

    /**
     * How the cluster loop itself fares (core/loop {@code InboundFrameLimit} and {@code LoopGuard}).
     *
     * @param framesDropped        received frames dropped because too many already waited for the loop
     * @param internalErrors       exceptions the loop caught since start (the loop went on)
     * @param internalErrorsByKind per kind ({@code ExceptionClass what-the-loop-was-doing}): how many
     * @param framesFromBefore     authenticated frames dropped as from before (an older generation, a
     *                             sequence behind the window, our own name, a frame its link already
     *                             carried: replays), which refreshed nothing
     */
    public record LoopHealth(long framesDropped, long internalErrors, Map<String, Long> internalErrorsByKind,
                             long framesFromBefore) {
        /** Nothing dropped, no error. */
        public static final LoopHealth NONE = new LoopHealth(0, 0, Map.of());

        public LoopHealth {
            internalErrorsByKind = java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(internalErrorsByKind));
        }

        /** No frame from before counted. */
        public LoopHealth(long framesDropped, long internalErrors, Map<String, Long> internalErrorsByKind) {
            this(framesDropped, internalErrors, internalErrorsByKind, 0);
        }
    }

    /**
     * One node as seen from here.
     *
     * @param name   node name
     * @param status {@code init}, {@code up}, {@code active} or {@code dead}; for a ping node {@code init},
     *               {@code ping} or {@code dead}, as Heartbeat 3.0.6's {@code cl_status nodestatus}
     * @param local  whether this is the node answering
     * @param links  link name → {@code init}/{@code up}/{@code dead} (empty for the local node and ping nodes)
     * @param type   {@code normal} for a cluster node, {@code ping} for a ping pseudo-node
     *               ({@code cl_status nodetype})
     */
    public record NodeView(String name, String status, boolean local, Map<String, String> links, String type) {
        public NodeView {
            links = Map.copyOf(links);
            java.util.Objects.requireNonNull(type, "type");
        }

        /** A cluster node ({@code normal}). */
        public NodeView(String name, String status, boolean local, Map<String, String> links) {
            this(name, status, local, links, "normal");
        }

        /** Whether this is a ping pseudo-node. */
        public boolean ping() {
            return type.equals("ping");
        }

        /** Whether the node is a member: {@code up} or {@code active} (not {@code init}, {@code dead}, {@code ping}). */
        public boolean member() {
            return status.equals("up") || status.equals("active");
        }
    }

    /**
     * One resource group.
     *
     * @param key           the group key (first resource token)
     * @param preferredNode the node named first on its haresources line
     * @param localState    run state here: {@code stopped}, {@code starting}, {@code running}, {@code stopping},
     *                      {@code failed} (start failed), {@code blocked} (stop failed: may still run here)
     * @param runningOn     the node that holds it by its own account (this node: its run state here; the peer:
     *                      its {@code jhb-groups} report), or {@code -} for none
     *                      ({@link org.jheartbeat.core.takeover.GroupPlacement})
     * @param resources     the whole haresources line after the node name
     * @param problem       what failed for it here or on the peer and what to do, or empty
     * @param disputed      why the peer's haresources defines this group differently, so that neither node
     *                      starts it, or null when it does not
     * @param unconfirmedOn a node that may hold it by a coarse report only (the peer's {@code rsc_hold}, all a
     *                      Heartbeat 3.0.6 peer says), or null; only when {@code runningOn} is {@code -}
     * @param placement     what {@code runningOn} alone does not say (a transition such as {@code starting on
     *                      node2}, why it runs nowhere, why it is not confirmed), or null
     */
    public record GroupView(String key, String preferredNode, String localState, String runningOn, String resources,
                            String problem, String disputed, String unconfirmedOn, String placement) {
        /** A group with nothing wrong. */
        public GroupView(String key, String preferredNode, String localState, String runningOn, String resources) {
            this(key, preferredNode, localState, runningOn, resources, "", null);
        }

        /** A group whose place needs no comment. */
        public GroupView(String key, String preferredNode, String localState, String runningOn, String resources,
                         String problem, String disputed) {
            this(key, preferredNode, localState, runningOn, resources, problem, disputed, null, null);
        }

        /**
         * {@link #localState} as the takeover machine's type.
         *
         * @throws IllegalArgumentException when it is not one of {@link org.jheartbeat.core.takeover.GroupState}'s words
         */
        public org.jheartbeat.core.takeover.GroupState state() {
            return org.jheartbeat.core.takeover.GroupState.ofDisplayName(localState);
        }
    }

    /**
     * The machine-readable form printed by {@code hb status --json}, schema {@code jheartbeat.status/1}:
     * <pre>
     * {"schema":"jheartbeat.status/1","node":S,"generation":N,"takeover_state":S,"rsc_status":S,
     *  "nodes":[{"name":S,"status":"init|up|active|dead|ping","local":B,"type":"normal|ping",
     *           "links":{LINK:"init|up|dead"}}],
     *  "groups":[{"key":S,"preferred_node":S,"state_here":S,"running_on":S|null,"running_on_unconfirmed":S|null,
     *             "placement":S|null,"resources":S,"problem":S|null,"disputed":S|null}],
     *  "fencing":S,"config":S,"bad_packets":N,"bad_packets_by_source":{SRC:N},"frames_dropped":N,"frames_from_before":N,
     *  "internal_errors":N,"internal_errors_by_kind":{KIND:N},"media":{MEDIUM:{COUNTER:N}},
     *  "recent_events":[S]}
     * </pre>
     * {@code running_on} names a node only while that node holds the group by its own account; a node
     * that may hold it by a coarse report only is {@code running_on_unconfirmed} (see {@link GroupView}).
     */
    public String toJson() {
        return JsonText.write(g -> {
            g.writeStartObject();
            writeFields(g);
            g.writeEndObject();
        });
    }

    /**
     * Writes the fields of {@link #toJson()} into the object {@code g} is writing (the daemon's status
     * object adds its own after them).
     *
     * @throws IOException only from the generator
     */
    public void writeFields(JsonGenerator g) throws IOException {
        g.writeStringField("schema", "jheartbeat.status/1");
        g.writeStringField("node", node);
        g.writeNumberField("generation", generation);
        g.writeStringField("takeover_state", takeoverState);
        g.writeStringField("rsc_status", rscStatus);
        g.writeArrayFieldStart("nodes");
        for (NodeView n : nodes) {
            g.writeStartObject();
            g.writeStringField("name", n.name());
            g.writeStringField("status", n.status());
            g.writeBooleanField("local", n.local());
            g.writeStringField("type", n.type());
            g.writeObjectFieldStart("links");
            for (Map.Entry<String, String> l : new java.util.TreeMap<>(n.links()).entrySet()) {
                g.writeStringField(l.getKey(), l.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("groups");
        for (GroupView gv : groups) {
            g.writeStartObject();
            g.writeStringField("key", gv.key());
            g.writeStringField("preferred_node", gv.preferredNode());
            g.writeStringField("state_here", gv.localState());
            g.writeStringField("running_on", "-".equals(gv.runningOn()) ? null : gv.runningOn());
            g.writeStringField("running_on_unconfirmed", gv.unconfirmedOn());
            g.writeStringField("placement", gv.placement());
            g.writeStringField("resources", gv.resources());
            g.writeStringField("problem", gv.problem().isEmpty() ? null : gv.problem());
            g.writeStringField("disputed", gv.disputed());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("fencing", fencing);
        g.writeStringField("config", config);
        g.writeNumberField("bad_packets", badPackets);
        counts(g, "bad_packets_by_source", badBySource);
        g.writeNumberField("frames_dropped", loop.framesDropped());
        g.writeNumberField("frames_from_before", loop.framesFromBefore());
        g.writeNumberField("internal_errors", loop.internalErrors());
        counts(g, "internal_errors_by_kind", loop.internalErrorsByKind());
        g.writeObjectFieldStart("media");
        for (Map.Entry<String, Map<String, Long>> e : new java.util.TreeMap<>(media).entrySet()) {
            counts(g, e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeArrayFieldStart("recent_events");
        for (String e : recentEvents) {
            g.writeString(e);
        }
        g.writeEndArray();
    }

    /** {@code "name":{KEY:N,...}}, keys sorted. */
    private static void counts(JsonGenerator g, String name, Map<String, ? extends Number> map) throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, ? extends Number> e : new java.util.TreeMap<>(map).entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue().longValue());
        }
        g.writeEndObject();
    }

    /**
     * The human-readable form printed by {@code hb status}: one block of nodes and links, one of groups.
     * A group line says {@code on NODE} for {@code runningOn}, {@code on NODE?} for a node named by a coarse
     * report only ({@code unconfirmedOn}), {@code on -} for none; a {@code placement:} line follows when
     * the place needs words.
     */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("Node ").append(node).append(" (generation ").append(generation).append("), resources: ")
                .append(takeoverState).append('\n');
        sb.append("Nodes:\n");
        for (NodeView n : nodes) {
            sb.append(String.format("  %-12s %-7s%s%n", n.name(), n.status(), n.local() ? " (this node)"
                    : n.ping() ? " (ping node)" : ""));
            n.links().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(l ->
                    sb.append(String.format("    link %-10s %s%n", l.getKey(), l.getValue())));
        }
        sb.append("Resource groups:\n");
        for (GroupView g : groups) {
            String on = g.unconfirmedOn() != null && g.runningOn().equals("-") ? g.unconfirmedOn() + "?" : g.runningOn();
            sb.append(String.format("  %-28s on %-10s (preferred %s, here %s%s)%n", g.resources(), on,
                    g.preferredNode(), g.localState(), g.disputed() == null ? "" : ", disputed"));
            if (g.placement() != null) {
                sb.append("    placement: ").append(g.placement()).append('\n');
            }
            if (!g.problem().isEmpty()) {
                sb.append("    CRIT: ").append(g.problem()).append('\n');
            }
            if (g.disputed() != null) {
                sb.append("    disputed: ").append(g.disputed()).append('\n');
            }
        }
        sb.append("Config: ").append(config).append('\n');
        sb.append("Fencing: ").append(fencing).append('\n');
        sb.append("Bad packets: ").append(badPackets).append('\n');
        badBySource.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
                sb.append("  ").append(e.getKey()).append(": ").append(e.getValue()).append('\n'));
        sb.append("Frames dropped (loop queue full): ").append(loop.framesDropped()).append('\n');
        sb.append("Frames from before (replayed, stale or our own; ignored): ").append(loop.framesFromBefore())
                .append('\n');
        sb.append("Internal errors: ").append(loop.internalErrors()).append('\n');
        loop.internalErrorsByKind().forEach((k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
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
