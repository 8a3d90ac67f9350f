package org.jheartbeat.export;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.export.Cib.Clone;
import org.jheartbeat.export.Cib.Colocation;
import org.jheartbeat.export.Cib.Constraint;
import org.jheartbeat.export.Cib.Group;
import org.jheartbeat.export.Cib.Location;
import org.jheartbeat.export.Cib.LocationRule;
import org.jheartbeat.export.Cib.Nv;
import org.jheartbeat.export.Cib.Op;
import org.jheartbeat.export.Cib.Order;
import org.jheartbeat.export.Cib.Primitive;
import org.jheartbeat.export.ExportResult.ReportLine;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.PingNodeDecl;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.StonithDecl;

/**
 * Converts a jheartbeat (Heartbeat 3.0.6 R1) configuration into a Corosync 3 {@code corosync.conf}
 * and a Pacemaker 2.1 CIB, and says for every source line what it became. Pure: reads only its
 * {@link ExportInput}. The mapping and its sources (agents-pacemaker facts F.1–F.9, Heartbeat 3.0.6
 * ha.cf(5), Pacemaker Explained 2.1, corosync.conf(5), votequorum(5)) are in docs/design/export.md.
 * This class owns the order of the export and the CIB's cluster-wide parts (fencing, groups and their
 * constraints, the ping clone, cluster options); {@link CorosyncConf} writes corosync.conf,
 * {@link ResourceMapper} maps each haresources token, {@link ExportReport} writes the per-line report.
 */
public final class PacemakerExporter {
    /** Score of the location preference for a group's haresources node. */
    public static final int PREFERENCE = 100;
    /** Per-resource stickiness written for {@code auto_failback off}: above {@link #PREFERENCE}. */
    public static final int STICKY = 200;
    /** The wrapper agent for Heartbeat resource.d scripts: provider and type. */
    public static final String WRAPPER_PROVIDER = "jheartbeat";
    public static final String WRAPPER_TYPE = "hb-script";
    /** Where the wrapper is written in the output directory (and installed under /usr/lib/ocf). */
    public static final String WRAPPER_PATH = "resource.d/" + WRAPPER_PROVIDER + "/" + WRAPPER_TYPE;

    private final ExportInput in;
    private final ClusterConfig config;
    private final Ids ids = new Ids();
    private final List<String> warnings = new ArrayList<>();
    private final Map<Integer, List<String>> haresourcesNotes = new LinkedHashMap<>();
    private final List<Constraint> constraints = new ArrayList<>();
    private final Map<Integer, String> haCfNotes = new LinkedHashMap<>();
    private final ResourceMapper mapper;

    private PacemakerExporter(ExportInput in) {
        this.in = in;
        this.config = in.config();
        this.mapper = new ResourceMapper(in, ids, warnings);
    }

    /**
     * @param input the configuration and what the command found on this machine
     * @return the CIB, corosync.conf, report, warnings and extra files
     * @throws ExportException when a node's address on a UDP link cannot be found, or there is no UDP
     *                         medium at all (Corosync has no serial transport)
     */
    public static ExportResult export(ExportInput input) throws ExportException {
        return new PacemakerExporter(input).run();
    }

    private ExportResult run() throws ExportException {
        List<Cib.Node> nodes = new ArrayList<>();
        for (int i = 0; i < config.nodes().size(); i++) {
            nodes.add(new Cib.Node(i + 1, config.nodes().get(i).value()));
        }
        String corosync = new CorosyncConf(in, warnings, haCfNotes).render(nodes);
        List<Primitive> fencing = fencing();
        List<Group> groups = new ArrayList<>();
        for (ResourceGroupDecl g : config.resourceGroups()) {
            group(g).ifPresent(groups::add);
        }
        List<Clone> clones = new ArrayList<>();
        ping(groups).ifPresent(clones::add);
        clones.addAll(mapper.drbdClones());
        List<Nv> options = new ArrayList<>();
        options.add(new Nv("stonith-enabled", fencing.isEmpty() ? "false" : "true"));
        options.add(new Nv("dc-deadtime", seconds(config.timing().initdead())));
        if (!fencing.isEmpty() && !in.fenceDelay().isZero()) {
            priorityFencing(options, groups);
        }
        List<Nv> rscDefaults = List.of(new Nv("resource-stickiness", "" + stickiness()));
        Cib cib = new Cib(in.clusterName(), options, nodes, fencing, clones, groups, constraints, rscDefaults);
        List<ReportLine> report = new ExportReport(in, haCfNotes, haresourcesNotes, warnings, stickiness()).lines();
        Map<String, String> extra = new LinkedHashMap<>();
        if (mapper.wrapperUsed()) {
            extra.put(WRAPPER_PATH, HbScriptWrapper.text());
        }
        return new ExportResult(cib, corosync, report, warnings, extra);
    }

    // ------------------------------------------------------------------ STONITH

    private List<Primitive> fencing() {
        List<Primitive> out = new ArrayList<>();
        Set<String> fenceable = new LinkedHashSet<>();
        for (StonithDecl d : config.stonith()) {
            Map<String, String> params;
            try {
                params = in.stonithParams().of(d);
            } catch (IllegalArgumentException e) {
                warnings.add("ha.cf:" + d.line() + ": STONITH device " + d.type() + " not exported: " + e.getMessage());
                haCfNotes.put(d.line(), "not carried over: " + e.getMessage());
                continue;
            }
            String type = d.type().equalsIgnoreCase("nut") ? "external/nut" : d.type();
            List<Nv> nv = new ArrayList<>();
            String hosts = null;
            for (Map.Entry<String, String> e : params.entrySet()) {
                if (type.startsWith("fence_") && e.getKey().equals("hostlist")) {
                    hosts = e.getValue();
                    continue;
                }
                if (type.startsWith("fence_") && e.getKey().equals("hostmap")) {
                    nv.add(new Nv("pcmk_host_map", e.getValue().trim().replaceAll("[\\s,;]+", ";")));
                    continue;
                }
                nv.add(new Nv(e.getKey(), e.getValue()));
                if (e.getKey().equals("hostlist") || (type.equals("external/nut") && e.getKey().equals("hostname"))) {
                    hosts = e.getValue();
                }
            }
            if (hosts != null) {
                List<String> hl = List.of(hosts.trim().split("[\\s,]+"));
                nv.add(new Nv("pcmk_host_list", String.join(" ", hl)));
                fenceable.addAll(hl);
            }
            String id = ids.unique("fence-" + type.replace('/', '-') + d.fromNode().map(n -> "-from-" + n.value()).orElse(""));
            out.add(new Primitive(id, "stonith", Optional.empty(), type, nv, List.of(),
                    List.of(new Op("monitor", "3600s", "60s"))));
            StringBuilder note = new StringBuilder("STONITH primitive " + id + " (stonith:" + type + ", "
                    + (type.startsWith("fence_") ? "fence-agents" : "cluster-glue plugin run by fence_legacy") + ")"
                    + (hosts == null ? "" : ", pcmk_host_list " + hosts.trim()) + "; stonith-enabled=true");
            if (d.fromNode().isPresent()) {
                for (NodeName n : config.nodes()) {
                    if (!n.equals(d.fromNode().get())) {
                        String cid = ids.unique("loc-" + id + "-avoid-" + n.value());
                        constraints.add(new Location(cid, id, n.value(), "-INFINITY", Optional.empty()));
                        note.append("; runs only on ").append(d.fromNode().get()).append(" (its cable): ").append(cid);
                    }
                }
            }
            if (d.configFile().isPresent()) {
                note.append("; parameters read from ").append(d.configFile().get());
            }
            haCfNotes.put(d.line(), note.toString());
        }
        if (out.isEmpty()) {
            warnings.add("no STONITH device: stonith-enabled=false. Pacemaker then cannot recover from a failed stop"
                    + " (the resource stays blocked) and a split brain can start a group twice; add a fence device"
                    + " (pcs stonith create / stonith_host) before production.");
        } else {
            for (NodeName n : config.nodes()) {
                if (!fenceable.isEmpty() && !fenceable.contains(n.value())) {
                    warnings.add("no exported STONITH device lists " + n + " in its hosts: Pacemaker cannot fence " + n
                            + ", so a stop failure there blocks the resource and a lost " + n + " is only taken over"
                            + " once it is seen down cleanly (as with Heartbeat, whose device could not fence it either).");
                }
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ resources

    private int stickiness() {
        return config.autoFailback() == FailbackPolicy.OFF ? STICKY : 0;
    }

    private Optional<Group> group(ResourceGroupDecl g) {
        List<Primitive> members = new ArrayList<>();
        List<Clone> needs = new ArrayList<>();
        String base = null;
        for (ResourceSpec r : g.resources()) {
            ResourceMapper.Mapped m = mapper.map(r, g);
            m.primitive().ifPresent(members::add);
            m.dependency().ifPresent(needs::add);
            if (base == null && m.primitive().isPresent()) {
                base = m.primitive().get().id();
            }
            note(g.line(), r.token() + " -> " + m.note());
        }
        String node = g.preferredNode().value();
        if (members.isEmpty()) {
            // only DRBD: prefer the node for the promoted role
            for (Clone c : needs) {
                String lid = ids.unique("loc-" + c.id() + "-promoted-on-" + node);
                constraints.add(new Location(lid, c.id(), node, "" + PREFERENCE, Optional.of("Promoted")));
                note(g.line(), "group has no member besides DRBD: " + lid + " prefers " + node + " (score " + PREFERENCE
                        + ") for the promoted role");
            }
            return Optional.empty();
        }
        String gid = ids.unique("grp-" + base);
        String lid = ids.unique("loc-" + gid + "-prefers-" + node);
        constraints.add(new Location(lid, gid, node, "" + PREFERENCE, Optional.empty()));
        for (Clone c : needs) {
            String col = ids.unique("col-" + gid + "-with-" + c.id());
            String ord = ids.unique("ord-" + c.id() + "-before-" + gid);
            constraints.add(new Colocation(col, gid, c.id(), Optional.of("Promoted"), "INFINITY"));
            constraints.add(new Order(ord, c.id(), "promote", gid, "start"));
            note(g.line(), gid + " runs where " + c.id() + " is promoted (" + col + "), after the promotion (" + ord + ")");
        }
        note(g.line(), "group " + gid + " (members start left to right, stop right to left, run on one node);"
                + " location " + lid + ": prefers " + node + " with score " + PREFERENCE);
        return Optional.of(new Group(gid, members, node, g.line()));
    }

    /**
     * jheartbeat.yaml {@code fence_delay} as Pacemaker's {@code priority-fencing-delay}: the cluster property,
     * and {@code priority=1} on each group's first member, so that a node's priority (the sum over what
     * it runs) is the number of groups it runs, jheartbeat's weight in the fencing race. Pacemaker delays
     * the fence of the node with the higher priority; with equal priorities it delays neither (jheartbeat's
     * tie-break by ha.cf order has no equivalent there), which the report says.
     */
    private void priorityFencing(List<Nv> options, List<Group> groups) {
        long ms = in.fenceDelay().toMillis();
        options.add(new Nv("priority-fencing-delay", ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms"));
        for (int i = 0; i < groups.size(); i++) {
            Group g = groups.get(i);
            List<Primitive> members = new ArrayList<>(g.members());
            Primitive first = members.get(0);
            List<Nv> meta = new ArrayList<>(first.meta());
            meta.add(new Nv("priority", "1"));
            members.set(0, new Primitive(first.id(), first.cls(), first.provider(), first.type(), first.params(), meta,
                    first.ops()));
            groups.set(i, new Group(g.id(), members, g.preferredNode(), g.line()));
        }
    }

    private void note(int line, String text) {
        haresourcesNotes.computeIfAbsent(line, k -> new ArrayList<>()).add(text);
    }

    /** A duration as Pacemaker writes it: whole seconds as {@code Ns}, else {@code Nms}. */
    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }

    // ------------------------------------------------------------------ ping nodes

    private Optional<Clone> ping(List<Group> groups) {
        List<PingNodeDecl> pn = config.ping().nodes();
        if (pn.isEmpty()) {
            return Optional.empty();
        }
        List<String> hosts = new ArrayList<>();
        for (PingNodeDecl p : pn) {
            for (String h : p.hosts()) {
                if (!hosts.contains(h)) {
                    hosts.add(h);
                }
            }
        }
        int biggest = groups.stream().mapToInt(g -> g.members().size()).max().orElse(1);
        int multiplier = Math.max(1000, ((stickiness() * biggest + PREFERENCE) / 1000 + 1) * 1000);
        String pid = ids.unique("ping");
        Primitive p = new Primitive(pid, "ocf", Optional.of("pacemaker"), "ping",
                List.of(new Nv("host_list", String.join(" ", hosts)), new Nv("multiplier", "" + multiplier),
                        new Nv("dampen", seconds(config.ping().deadping()))),
                List.of(), List.of(new Op("monitor", "10s", "60s")));
        Clone c = new Clone(ids.unique(pid + "-clone"), p, List.of());
        String note = "clone " + c.id() + " of ocf:pacemaker:ping host_list='" + String.join(" ", hosts)
                + "' multiplier " + multiplier + " dampen " + seconds(config.ping().deadping())
                + " (node attribute pingd = multiplier x hosts answering)";
        if (config.ping().ipfail()) {
            for (Group g : groups) {
                String lid = ids.unique("loc-" + g.id() + "-connectivity");
                constraints.add(new LocationRule(lid, g.id(), "pingd"));
            }
            note += "; with ipfail: every group gets a location rule scored by pingd (the node seeing more ping"
                    + " hosts wins, as ipfail's count comparison; multiplier > stickiness x members + preference)";
        } else {
            note += "; without ipfail Heartbeat only reported ping nodes, so no location rule is written (add"
                    + " 'pcs constraint location GROUP rule score-attribute=pingd defined pingd' to move on"
                    + " connectivity)";
        }
        for (PingNodeDecl d : pn) {
            haCfNotes.put(d.line(), note + (d.group() ? "; ping_group " + d.name() + " was up while any host answered:"
                    + " the ping agent counts each host, so pingd grows with every answering host" : ""));
        }
        return Optional.of(c);
    }
}
