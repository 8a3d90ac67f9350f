package org.jheartbeat.export;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesDocument;
import org.jheartbeat.core.config.IpAddrArgument;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.PingNodeDecl;
import org.jheartbeat.core.config.ResourceClass;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.StonithDecl;
import org.jheartbeat.resources.fs.BuiltinFilesystem;
import org.jheartbeat.resources.monitor.MonitorSettings;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.ReplicationJobSpec;

/**
 * Converts a jheartbeat (Heartbeat 3.0.6 R1) configuration into a Corosync 3 {@code corosync.conf}
 * and a Pacemaker 2.1 CIB, and says for every source line what it became. Pure: reads only its
 * {@link ExportInput}. The mapping and its sources (agents-pacemaker facts F.1–F.9, Heartbeat 3.0.6
 * ha.cf(5), Pacemaker Explained 2.1, corosync.conf(5), votequorum(5)) are in docs/design/export.md.
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

    /**
     * Heartbeat 3.0.6's stock resource.d wrappers around OCF agents and the OCF parameter each
     * positional argument sets, in order (the last one takes the rest, blank-joined), as the wrappers
     * in Debian's heartbeat package assign them.
     */
    static final Map<String, List<String>> STOCK_WRAPPERS = Map.of(
            "MailTo", List.of("email", "subject"),
            "IPsrcaddr", List.of("ipaddress"),
            "Delay", List.of("startdelay", "stopdelay"),
            "apache", List.of("configfile"),
            "LVM", List.of("volgrpname"),
            "portblock", List.of("protocol", "portno", "action"),
            "Xinetd", List.of("service"),
            "AudibleAlarm", List.of("nodelist"),
            "Raid1", List.of("raidconf", "raiddev"));

    private final ExportInput in;
    private final ClusterConfig config;
    private final Ids ids = new Ids();
    private final List<String> warnings = new ArrayList<>();
    private final Map<Integer, List<String>> haresourcesNotes = new LinkedHashMap<>();
    private final Map<String, Clone> drbdClones = new LinkedHashMap<>();
    private final List<Constraint> constraints = new ArrayList<>();
    private final Map<Integer, String> haCfNotes = new LinkedHashMap<>();
    private boolean wrapperUsed;

    private PacemakerExporter(ExportInput in) {
        this.in = in;
        this.config = in.config();
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
        String corosync = corosync(nodes);
        List<Primitive> fencing = fencing();
        List<Group> groups = new ArrayList<>();
        for (ResourceGroupDecl g : config.resourceGroups()) {
            group(g).ifPresent(groups::add);
        }
        List<Clone> clones = new ArrayList<>();
        ping(groups).ifPresent(clones::add);
        clones.addAll(drbdClones.values());
        List<Nv> options = new ArrayList<>();
        options.add(new Nv("stonith-enabled", fencing.isEmpty() ? "false" : "true"));
        options.add(new Nv("dc-deadtime", seconds(config.timing().initdead())));
        if (!fencing.isEmpty() && !in.fenceDelay().isZero()) {
            priorityFencing(options, groups);
        }
        List<Nv> rscDefaults = List.of(new Nv("resource-stickiness", "" + stickiness()));
        Cib cib = new Cib(in.clusterName(), options, nodes, fencing, clones, groups, constraints, rscDefaults);
        List<ReportLine> report = new ArrayList<>();
        reportHaCf(report, fencing);
        reportHaresources(report);
        reportAuthkeys(report);
        reportSync(report);
        reportJheartbeatYaml(report);
        Map<String, String> extra = new LinkedHashMap<>();
        if (wrapperUsed) {
            extra.put(WRAPPER_PATH, HbScriptWrapper.text());
        }
        return new ExportResult(cib, corosync, report, warnings, extra);
    }

    // ------------------------------------------------------------------ corosync.conf

    /** One knet link: an interface named by UDP media, and the addresses those media name. */
    private record Link(String iface, List<MediumDecl> media, List<String> ucastAddresses) {
    }

    private String corosync(List<Cib.Node> nodes) throws ExportException {
        Map<String, Link> links = new LinkedHashMap<>();
        for (MediumDecl m : config.media()) {
            if (m instanceof MediumDecl.Serial s) {
                warnings.add("ha.cf:" + s.line() + ": serial medium " + s.device() + " has no Corosync equivalent"
                        + " (knet links are IP only); the exported cluster has one link fewer than Heartbeat had."
                        + " Use a second network (a crossover cable with IP) as another link instead.");
                haCfNotes.put(s.line(), "not carried over: Corosync knet has no serial transport (warning in the report)");
                continue;
            }
            String iface = m.linkName();
            Link l = links.computeIfAbsent(iface, k -> new Link(k, new ArrayList<>(), new ArrayList<>()));
            l.media().add(m);
            if (m instanceof MediumDecl.Ucast u && !l.ucastAddresses().contains(u.peer())) {
                l.ucastAddresses().add(u.peer());
            }
        }
        if (links.isEmpty()) {
            throw new ExportException("ha.cf has no UDP medium (ucast, bcast or mcast): Corosync needs at least one"
                    + " IP link and has no serial transport; add a ucast line for an IP network both nodes share");
        }
        if (links.size() > 8) {
            throw new ExportException("ha.cf names " + links.size() + " interfaces for UDP media; Corosync knet takes at"
                    + " most 8 links");
        }
        List<Link> linkList = new ArrayList<>(links.values());
        Map<String, List<String>> addresses = addresses(nodes, linkList);
        long deadMs = config.timing().deadtime().toMillis();
        long token = Math.max(200, Math.round(deadMs / 2.2));
        long consensus = Math.max(Math.round(token * 1.2), deadMs - token);
        long keepMs = config.timing().keepalive().toMillis();
        long pingTimeout = Math.max(1, token / 2);
        long pingInterval = Math.max(1, Math.min(keepMs, pingTimeout / 2));
        long warnPct = Math.max(1, Math.min(99,
                Math.round(100.0 * config.timing().warntime().toMillis() / Math.max(1, deadMs))));
        StringBuilder b = new StringBuilder();
        b.append("# corosync.conf (Corosync 3, knet) exported by 'hb export pacemaker' from ")
                .append(config.configDir().resolve("ha.cf")).append('\n');
        b.append("# token + consensus ~ ha.cf deadtime (").append(deadMs).append(" ms): token = deadtime / 2.2,"
                + " consensus = the rest, at least 1.2 x token (the Corosync default ratio)\n");
        b.append("totem {\n    version: 2\n    cluster_name: ").append(in.clusterName()).append('\n');
        b.append("    transport: knet\n");
        b.append("    token: ").append(token).append('\n');
        b.append("    consensus: ").append(consensus).append('\n');
        b.append("    token_warning: ").append(warnPct).append('\n');
        b.append("    crypto_cipher: aes256\n    crypto_hash: sha256\n    keyfile: /etc/corosync/authkey\n");
        b.append("    link_mode: passive\n");
        for (int i = 0; i < linkList.size(); i++) {
            b.append("    interface {\n        linknumber: ").append(i).append('\n')
                    .append("        knet_link_priority: ").append(linkList.size() - i).append('\n')
                    .append("        knet_ping_interval: ").append(pingInterval).append('\n')
                    .append("        knet_ping_timeout: ").append(pingTimeout).append('\n')
                    .append("    }\n");
        }
        b.append("}\n\nnodelist {\n");
        for (Cib.Node n : nodes) {
            b.append("    node {\n        name: ").append(n.name()).append("\n        nodeid: ").append(n.id()).append('\n');
            List<String> a = addresses.get(n.name());
            for (int i = 0; i < a.size(); i++) {
                b.append("        ring").append(i).append("_addr: ").append(a.get(i)).append('\n');
            }
            b.append("    }\n");
        }
        b.append("}\n\nquorum {\n    provider: corosync_votequorum\n");
        if (nodes.size() == 2) {
            b.append("    # two_node: the survivor keeps quorum; it implies wait_for_all (both nodes must be seen once"
                    + " after a cold start)\n    two_node: 1\n");
        }
        b.append("}\n\nlogging {\n    to_syslog: yes\n    to_logfile: yes\n"
                + "    logfile: /var/log/corosync/corosync.log\n    timestamp: on\n}\n");
        // report notes for the timing lines and media
        for (int i = 0; i < linkList.size(); i++) {
            Link l = linkList.get(i);
            StringBuilder who = new StringBuilder();
            for (Cib.Node n : nodes) {
                who.append(who.length() == 0 ? "" : ", ").append(n.name()).append(" ring").append(i).append("_addr ")
                        .append(addresses.get(n.name()).get(i));
            }
            for (MediumDecl m : l.media()) {
                String extra = m instanceof MediumDecl.Mcast ? "; knet is unicast: the multicast group, port, ttl and"
                        + " loop are not used" : m instanceof MediumDecl.Bcast ? "; knet is unicast: no broadcast" : "";
                haCfNotes.put(m.line(), "corosync.conf knet link " + i + " (" + l.iface() + "): " + who + extra);
            }
        }
        haCfNotes.put(-1, "token " + token + " ms, consensus " + consensus + " ms (token + consensus ~ deadtime "
                + deadMs + " ms: Corosync declares a node lost after the token timeout and forms the new membership"
                + " after consensus)");
        haCfNotes.put(-2, "knet_ping_interval " + pingInterval + " ms (keepalive " + keepMs + " ms, at most half the"
                + " link timeout), knet_ping_timeout " + pingTimeout + " ms (token / 2: a link is dropped before the"
                + " token is lost)");
        haCfNotes.put(-3, "token_warning " + warnPct + " (% of token; warntime / deadtime)");
        return b.toString();
    }

    private Map<String, List<String>> addresses(List<Cib.Node> nodes, List<Link> links) throws ExportException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        Optional<String> local = in.localNode().filter(n -> config.nodes().contains(NodeName.of(n)));
        for (Cib.Node n : nodes) {
            List<String> explicit = in.nodeAddresses().get(n.name());
            if (explicit != null) {
                if (explicit.size() != links.size()) {
                    throw new ExportException("--node-address " + n.name() + " gives " + explicit.size()
                            + " address(es) but there are " + links.size() + " UDP links (" + ifaces(links)
                            + "); give one per link, in that order, comma-separated");
                }
                out.put(n.name(), List.copyOf(explicit));
                continue;
            }
            List<String> mine = new ArrayList<>();
            for (int i = 0; i < links.size(); i++) {
                Link l = links.get(i);
                String a = null;
                boolean isLocal = local.isPresent() && local.get().equals(n.name());
                String localAddr = local.isPresent() ? in.localAddresses().get(l.iface()) : null;
                if (isLocal) {
                    a = localAddr;
                } else if (local.isPresent()) {
                    List<String> cand = new ArrayList<>(l.ucastAddresses());
                    cand.remove(localAddr);
                    if (cand.size() == 1) {
                        a = cand.get(0);
                    }
                }
                if (a == null) {
                    missing.add(n.name() + " on link " + i + " (" + l.iface() + ")");
                    mine.add("?");
                } else {
                    mine.add(a);
                }
            }
            out.put(n.name(), mine);
        }
        if (!missing.isEmpty()) {
            throw new ExportException("corosync.conf needs every node's address on every link, and these are not in"
                    + " ha.cf" + (local.isEmpty() ? " (and this machine is not one of the nodes, so its own addresses"
                    + " do not help)" : "") + ": " + String.join(", ", missing) + ". Give them with --node-address"
                    + " NODE=IP[,IP...] (one address per link, in the order " + ifaces(links) + "), once per node");
        }
        return out;
    }

    private static String ifaces(List<Link> links) {
        return String.join(", ", links.stream().map(Link::iface).toList());
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
            Mapped m = map(r, g);
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

    /** What one haresources token became: a group member, or a clone the group depends on. */
    private record Mapped(Optional<Primitive> primitive, Optional<Clone> dependency, String note) {
    }

    private Mapped map(ResourceSpec r, ResourceGroupDecl g) {
        AgentRef ref = r.agentRef();
        OperationTimeouts t = ref.timeouts();
        if (ref instanceof AgentRef.Lsb l) {
            return member(r, ids.unique(l.script()), "lsb", Optional.empty(), l.script(), List.of(), t,
                    "lsb:" + l.script() + " (/etc/init.d/" + l.script() + ", read by its LSB exit codes as before)",
                    Duration.ofSeconds(60));
        }
        if (ref instanceof AgentRef.Systemd s) {
            String unit = s.unit().endsWith(".service") ? s.unit().substring(0, s.unit().length() - 8) : s.unit();
            return member(r, ids.unique(unit), "systemd", Optional.empty(), s.unit(), List.of(), t,
                    "systemd:" + s.unit() + " (do not 'systemctl enable' it: the cluster starts it)",
                    Duration.ofSeconds(100));
        }
        if (ref instanceof AgentRef.Ocf o) {
            List<Nv> params = o.params().entrySet().stream().map(e -> new Nv(e.getKey(), e.getValue())).toList();
            return member(r, ids.unique(ocfIdHint(o.type(), o.params())), "ocf", Optional.of(o.provider()), o.type(),
                    params, t, o.qualifiedName() + " with every parameter as written", null);
        }
        AgentRef.Heartbeat h = (AgentRef.Heartbeat) ref;
        String name = h.name();
        List<String> args = h.args();
        if (name.equals("IPaddr") || name.equals("IPaddr2")) {
            IpAddrArgument ip = IpAddrArgument.parse(name, args);
            List<Nv> p = new ArrayList<>();
            p.add(new Nv("ip", ip.address()));
            ip.prefix().ifPresent(x -> p.add(new Nv("cidr_netmask", "" + x)));
            ip.iface().ifPresent(x -> p.add(new Nv("nic", x)));
            ip.label().ifPresent(x -> p.add(new Nv("iflabel", x.substring(x.indexOf(':') + 1))));
            ip.broadcast().ifPresent(x -> p.add(new Nv("broadcast", x)));
            String missing = ip.needsRouteLookup() ? "; " + (ip.prefix().isEmpty() ? "netmask" : "")
                    + (ip.prefix().isEmpty() && ip.iface().isEmpty() ? " and " : "")
                    + (ip.iface().isEmpty() ? "interface" : "") + " found by IPaddr2 from the routing table, as jheartbeat did"
                    : "";
            return heartbeatMember(r, ids.unique("ip-" + ip.address()), "heartbeat", "IPaddr2", p,
                    "ocf:heartbeat:IPaddr2 " + describe(p) + missing + (name.equals("IPaddr")
                            ? " (IPaddr2, not the older IPaddr: same parameters, works in network namespaces)" : ""),
                    null);
        }
        if (name.equals(BuiltinFilesystem.NAME)) {
            Optional<AgentRef.Ocf> fs = BuiltinFilesystem.asOcf(args);
            if (fs.isPresent()) {
                List<Nv> p = fs.get().params().entrySet().stream().map(e -> new Nv(e.getKey(), e.getValue())).toList();
                String note = "ocf:heartbeat:Filesystem " + describe(p);
                if (!fs.get().params().containsKey("fstype")) {
                    warnings.add("haresources:" + g.line() + ": " + r.token() + " gives no file system type; the OCF"
                            + " Filesystem agent requires fstype: add it to the exported primitive (pcs.sh stops there"
                            + " until then: pcs 0.11 refuses the resource without --force)");
                    note += " (no fstype: add one, the agent requires it)";
                }
                return heartbeatMember(r, ids.unique(ocfIdHint("Filesystem", fs.get().params())), "heartbeat",
                        "Filesystem", p, note, Duration.ofSeconds(60));
            }
        }
        if (name.equals("drbddisk") && !args.isEmpty() && !args.get(0).isEmpty() && !args.get(0).equals("all")) {
            String res = args.get(0);
            Clone c = drbdClones.get(res);
            if (c == null) {
                String pid = ids.unique("drbd-" + res);
                Primitive p = new Primitive(pid, "ocf", Optional.of("linbit"), "drbd",
                        List.of(new Nv("drbd_resource", res)), List.of(),
                        List.of(new Op("monitor", "10s", "20s", Optional.of("Promoted")),
                                new Op("monitor", "20s", "20s", Optional.of("Unpromoted")),
                                new Op("start", "0s", "240s"), new Op("stop", "0s", "100s"),
                                new Op("promote", "0s", "90s"), new Op("demote", "0s", "90s")));
                c = new Clone(ids.unique(pid + "-clone"), p, List.of(new Nv("promotable", "true"),
                        new Nv("promoted-max", "1"), new Nv("promoted-node-max", "1"), new Nv("clone-max", "2"),
                        new Nv("clone-node-max", "1"), new Nv("notify", "true")));
                drbdClones.put(res, c);
            }
            return new Mapped(Optional.empty(), Optional.of(c), "promotable clone " + c.id() + " of ocf:linbit:drbd"
                    + " drbd_resource=" + res + " (drbd-utils; the DRBD resource runs on both nodes, promoted where"
                    + " the group runs, instead of drbddisk's drbdadm primary/secondary); the group is ordered after"
                    + " the promotion");
        }
        List<String> stock = STOCK_WRAPPERS.get(name);
        if (stock != null && !args.isEmpty()) {
            List<Nv> p = new ArrayList<>();
            for (int i = 0; i < args.size() && i < stock.size(); i++) {
                boolean last = i == stock.size() - 1;
                p.add(new Nv(stock.get(i), last ? String.join(" ", args.subList(i, args.size())) : args.get(i)));
            }
            return heartbeatMember(r, ids.unique(name.toLowerCase(Locale.ROOT) + "-" + args.get(0)), "heartbeat", name,
                    p, "ocf:heartbeat:" + name + " " + describe(p) + " (what Heartbeat's stock resource.d/" + name
                            + " wrapper runs" + (in.resourceDScripts().contains(name) ? "; if your resource.d/" + name
                            + " is your own script, use the hb-script wrapper instead" : "") + ")", null);
        }
        boolean inResourceD = in.resourceDScripts().contains(name);
        if (!inResourceD && args.isEmpty() && !name.equals("drbddisk") && !name.equals(BuiltinFilesystem.NAME)) {
            return member(r, ids.unique(name), "lsb", Optional.empty(), name, List.of(), OperationTimeouts.NONE,
                    "lsb:" + name + " (no resource.d/" + name + ": Heartbeat ran /etc/init.d/" + name + "; Pacemaker's"
                            + " lsb class runs the same script but reads 'status' by its exit code (0 running, 3"
                            + " stopped), not by its text: check the script answers that way)", Duration.ofSeconds(60));
        }
        wrapperUsed = true;
        String script = inResourceD ? config.configDir().resolve("resource.d").resolve(name).toString()
                : "/etc/init.d/" + name;
        List<Nv> p = new ArrayList<>();
        p.add(new Nv("script", script));
        if (!args.isEmpty()) {
            p.add(new Nv("args", String.join(" ", args)));
        }
        warnings.add("haresources:" + g.line() + ": " + r.token() + " is a Heartbeat " + (inResourceD ? "resource.d" : "")
                + " script; Pacemaker 2 has no heartbeat class, so it runs through the OCF wrapper "
                + WRAPPER_PROVIDER + ":" + WRAPPER_TYPE + " (written to " + WRAPPER_PATH + "): install it on both nodes"
                + " as /usr/lib/ocf/" + WRAPPER_PATH + ", and " + script + " must exist on both nodes");
        return member(r, ids.unique(name + (args.isEmpty() ? "" : "-" + args.get(0))), "ocf",
                Optional.of(WRAPPER_PROVIDER), WRAPPER_TYPE, p, OperationTimeouts.NONE,
                "ocf:" + WRAPPER_PROVIDER + ":" + WRAPPER_TYPE + " " + describe(p) + " (the wrapper calls '" + script
                        + (args.isEmpty() ? "" : " " + String.join(" ", args)) + " start|stop|status' and reads status"
                        + " by Heartbeat's text rule, as before)", Duration.ofSeconds(60));
    }

    private static String ocfIdHint(String type, Map<String, String> params) {
        if (params.containsKey("ip")) {
            return "ip-" + params.get("ip");
        }
        if (params.containsKey("directory")) {
            return "fs-" + params.get("directory");
        }
        return type.toLowerCase(Locale.ROOT);
    }

    private static String describe(List<Nv> p) {
        return String.join(" ", p.stream().map(nv -> nv.name() + "=" + (nv.value().contains(" ")
                ? "'" + nv.value() + "'" : nv.value())).toList());
    }

    /**
     * The monitor timeouts resource-agents 4.12's metadata advises above the 20 s default, for the
     * agents Heartbeat-class tokens become (crm_resource --show-metadata; crmsh warns below them).
     */
    private static final Map<String, Duration> ADVISED_MONITOR_TIMEOUT = Map.of("Filesystem",
            Duration.ofSeconds(40), "Delay", Duration.ofSeconds(30), "LVM", Duration.ofSeconds(30));

    /**
     * A Heartbeat-class resource now run by an OCF agent: watched with the node's monitor defaults,
     * the timeout at least what the agent advises ({@link #ADVISED_MONITOR_TIMEOUT}).
     */
    private Mapped heartbeatMember(ResourceSpec r, String id, String provider, String type, List<Nv> params,
                                  String note, Duration startStop) {
        return member(r, id, "ocf", Optional.of(provider), type, params, OperationTimeouts.NONE, note, startStop);
    }

    private Mapped member(ResourceSpec r, String id, String cls, Optional<String> provider, String type, List<Nv> params,
                          OperationTimeouts t, String note, Duration defaultStartStop) {
        List<Op> ops = new ArrayList<>();
        List<Nv> meta = new ArrayList<>();
        Optional<MonitorSettings> mon = r.agentRef().resourceClass() == ResourceClass.HEARTBEAT
                ? monitorForHeartbeatClass() : MonitorSettings.forResource(r, in.monitorDefaults());
        StringBuilder n = new StringBuilder(id + " = " + note);
        if (mon.isPresent()) {
            MonitorSettings m = mon.get();
            if (r.agentRef().resourceClass() == ResourceClass.HEARTBEAT) {
                n.append(" (a Heartbeat-class token, which Heartbeat never watched: Pacemaker monitors it with the"
                        + " node's monitor defaults)");
            }
            Duration advised = r.agentRef().resourceClass() == ResourceClass.HEARTBEAT && provider.isPresent()
                    && provider.get().equals("heartbeat") ? ADVISED_MONITOR_TIMEOUT.get(type) : null;
            if (advised != null && advised.compareTo(m.timeout()) > 0) {
                m = new MonitorSettings(m.interval(), advised, m.maxRestarts(), m.window());
                n.append(" (monitor timeout raised to the ").append(seconds(advised))
                        .append(" the agent's metadata advises)");
            }
            ops.add(new Op("monitor", seconds(m.interval()), seconds(m.timeout())));
            meta.add(new Nv("migration-threshold", "" + (m.maxRestarts() + 1)));
            meta.add(new Nv("failure-timeout", seconds(m.window())));
            n.append("; monitor every ").append(seconds(m.interval())).append(" (timeout ").append(seconds(m.timeout()))
                    .append("), migration-threshold ").append(m.maxRestarts() + 1).append(" (restart limit ")
                    .append(m.maxRestarts()).append(" + 1), failure-timeout ").append(seconds(m.window()));
        } else {
            n.append("; not monitored (interval 0/off, as configured)");
        }
        Optional<Duration> start = t.start().or(t::all).or(() -> Optional.ofNullable(defaultStartStop));
        Optional<Duration> stop = t.stop().or(t::all).or(() -> Optional.ofNullable(defaultStartStop));
        start.ifPresent(d -> ops.add(new Op("start", "0s", seconds(d))));
        stop.ifPresent(d -> ops.add(new Op("stop", "0s", seconds(d))));
        if (start.isPresent() || stop.isPresent()) {
            n.append("; start/stop timeouts ").append(start.map(PacemakerExporter::seconds).orElse("20s")).append('/')
                    .append(stop.map(PacemakerExporter::seconds).orElse("20s"));
        }
        return new Mapped(Optional.of(new Primitive(id, cls, provider, type, params, meta, ops)), Optional.empty(),
                n.toString());
    }

    private Optional<MonitorSettings> monitorForHeartbeatClass() {
        OperationTimeouts d = in.monitorDefaults();
        Duration interval = d.monitorInterval().orElse(MonitorSettings.DEFAULT.interval());
        if (interval.isZero()) {
            return Optional.empty();
        }
        return Optional.of(new MonitorSettings(interval,
                d.forOperation(OperationTimeouts.Operation.MONITOR, MonitorSettings.DEFAULT.timeout()),
                d.restartLimit().orElse(MonitorSettings.DEFAULT.maxRestarts()),
                d.restartWindow().orElse(MonitorSettings.DEFAULT.window())));
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

    // ------------------------------------------------------------------ the report

    private void reportHaCf(List<ReportLine> report, List<Primitive> fencing) {
        String[] lines = in.haCfText().split("\n", -1);
        int comments = 0;
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i].replace("\r", "");
            int hash = raw.indexOf('#');
            String text = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (text.isEmpty()) {
                comments += raw.isBlank() && i == lines.length - 1 ? 0 : 1;
                continue;
            }
            int line = i + 1;
            String key = text.split("\\s+")[0].toLowerCase(Locale.ROOT);
            String became = haCfNotes.get(line);
            if (became == null) {
                became = haCfKeyword(key, text);
            }
            report.add(new ReportLine("ha.cf", line, text, became));
        }
        if (comments > 0) {
            report.add(new ReportLine("ha.cf", 0, "(" + comments + " comment or blank lines)",
                    "comments are not configuration; not carried over"));
        }
    }

    private String haCfKeyword(String key, String text) {
        return switch (key) {
            case "keepalive" -> haCfNotes.get(-2);
            case "deadtime" -> haCfNotes.get(-1);
            case "warntime" -> haCfNotes.get(-3);
            case "initdead" -> "Pacemaker cluster option dc-deadtime=" + seconds(config.timing().initdead())
                    + " (how long to wait for the peer at start-up); votequorum two_node implies wait_for_all";
            case "udpport" -> "not carried over: knet uses its own UDP port (5405 by default); open it between the"
                    + " nodes instead of " + config.udpPort();
            case "node" -> {
                StringBuilder b = new StringBuilder();
                for (String w : text.split("\\s+")) {
                    int idx = config.nodes().indexOf(NodeName.of(w.toLowerCase(Locale.ROOT)));
                    if (!w.equalsIgnoreCase("node") && idx >= 0) {
                        b.append(b.length() == 0 ? "" : "; ").append("corosync nodelist name ").append(config.nodes()
                                .get(idx)).append(" nodeid ").append(idx + 1).append(", CIB <node id=\"").append(idx + 1)
                                .append("\">");
                    }
                }
                yield b.toString();
            }
            case "auto_failback" -> "rsc_defaults resource-stickiness=" + stickiness() + " against location score "
                    + PREFERENCE + (stickiness() == 0 ? ": groups go back to their preferred node when it returns"
                    + (config.autoFailback() == FailbackPolicy.LEGACY ? " (legacy also failed back)" : "")
                    : ": groups stay where they run (each active member adds " + STICKY + ")");
            case "baud" -> "not carried over: serial media have no Corosync equivalent";
            case "logfile", "debugfile", "logfacility", "use_logd" -> "not carried over: Corosync logs to syslog and"
                    + " /var/log/corosync/corosync.log, Pacemaker to /var/log/pacemaker/pacemaker.log (corosync.conf"
                    + " logging {})";
            case "crm" -> "Heartbeat's R1 resource manager is replaced by Pacemaker (the CRM 'crm no' turned off)";
            case "deadping" -> "ping agent dampen=" + seconds(config.ping().deadping()) + " (ping clone)";
            case "respawn" -> text.contains("ipfail") ? "location rules on the pingd attribute (see the ping lines)"
                    : "not carried over: Pacemaker does not respawn programs; run it as a systemd service";
            case "watchdog" -> "not carried over: Pacemaker's watchdog is sbd (package sbd, stonith-watchdog-timeout)";
            default -> "not carried over: no Corosync/Pacemaker equivalent for '" + key + "'";
        };
    }

    private void reportHaresources(List<ReportLine> report) {
        HaresourcesDocument doc = HaresourcesDocument.parse(in.haresourcesText());
        List<HaresourcesDocument.Group> dg = doc.groups().stream().filter(x -> !x.resources().isEmpty()).toList();
        Set<Integer> covered = new java.util.HashSet<>();
        for (HaresourcesDocument.Group d : dg) {
            List<String> notes = haresourcesNotes.getOrDefault(d.firstLine(), List.of());
            for (int l = d.firstLine(); l <= d.lastLine(); l++) {
                covered.add(l);
                String raw = doc.lines().get(l - 1).strip();
                String became = l == d.firstLine() ? String.join("\n           ", notes)
                        : "continues line " + d.firstLine() + " (see there)";
                report.add(new ReportLine("haresources", l, raw, became.isEmpty()
                        ? "not carried over (not a resource group)" : became));
            }
        }
        int comments = 0;
        for (int l = 1; l <= doc.lines().size(); l++) {
            if (!covered.contains(l)) {
                String raw = doc.lines().get(l - 1).strip();
                if (raw.isEmpty() || raw.startsWith("#")) {
                    comments++;
                } else {
                    report.add(new ReportLine("haresources", l, raw, "not carried over: not part of a resource group"));
                }
            }
        }
        if (comments > 0) {
            report.add(new ReportLine("haresources", 0, "(" + comments + " comment or blank lines)",
                    "comments are not configuration; not carried over"));
        }
    }

    private void reportAuthkeys(List<ReportLine> report) {
        String[] lines = in.authkeysText().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] w = t.split("\\s+");
            String became;
            if (w[0].equals("auth")) {
                became = "corosync crypto_cipher aes256 + crypto_hash sha256 with /etc/corosync/authkey: make a new key"
                        + " with 'corosync-keygen' and copy it to both nodes (Heartbeat's key is not reused)";
            } else {
                String masked = w.length > 2 ? w[0] + " " + w[1] + " ****" : t;
                report.add(new ReportLine("authkeys", i + 1, masked, "not carried over: key " + w[0]
                        + (w.length > 1 && w[1].equals("crc") ? " (crc: no authentication at all; Corosync's crypto is"
                        + " real)" : "") + " is replaced by the new corosync authkey"));
                continue;
            }
            report.add(new ReportLine("authkeys", i + 1, t, became));
        }
    }

    private void reportSync(List<ReportLine> report) {
        if (in.sync().isEmpty()) {
            return;
        }
        List<ReportLine> mine = new ArrayList<>();
        Map<Integer, String> items = new LinkedHashMap<>();
        in.sync().get().jobs().forEach(j -> items.put(j.line(), "job " + j.name()));
        in.sync().get().backups().forEach(b -> items.put(b.line(), "backup " + b.name()));
        String[] lines = in.syncYaml().orElse("").split("\n", -1);
        String section = "";
        String item = null;
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i];
            String t = raw.strip();
            if (t.isEmpty() || t.startsWith("#") || items.containsKey(i + 1)) {
                if (items.containsKey(i + 1)) {
                    item = items.get(i + 1);
                }
                continue;
            }
            if (!Character.isWhitespace(raw.charAt(0))) {
                section = t.split(":")[0];
                item = null;
            }
            String became = (section.equals("jobs") || section.equals("backups")) && item != null
                    ? "part of " + item + " (see its line): not carried over"
                    : "not carried over: a setting of jheartbeat's replication and backups, which Pacemaker does not"
                    + " run";
            mine.add(new ReportLine("sync.yaml", i + 1, t, became));
        }
        for (ReplicationJobSpec j : in.sync().get().jobs()) {
            String msg = "not carried over: Pacemaker has no file replication. Either put the data on DRBD"
                    + " (ocf:linbit:drbd promotable clone + ocf:heartbeat:Filesystem in the group, the block device"
                    + " replicated continuously), or keep rsync: a systemd timer on both nodes running 'hb sync run "
                    + j.name() + " --force' (schedule " + j.schedule() + ") with ExecCondition='crm_resource --locate"
                    + " -r <group>' matching this node, so only the node running the group pushes";
            mine.add(new ReportLine("sync.yaml", j.line(), "job " + j.name() + " (group " + j.group() + ", paths "
                    + j.paths() + ")", msg));
            warnings.add("sync.yaml:" + j.line() + ": replication job " + j.name() + " is not carried over (see the"
                    + " report for DRBD or a systemd timer running 'hb sync run')");
        }
        for (BackupSpec bk : in.sync().get().backups()) {
            mine.add(new ReportLine("sync.yaml", bk.line(), "backup " + bk.name() + " (" + bk.diskToken() + ", paths "
                    + bk.paths() + ")", "not carried over: Pacemaker has no backups; run 'hb backup run " + bk.name()
                    + "' from a systemd timer (or a udev rule for the disk) on the node running the data's group"));
            warnings.add("sync.yaml:" + bk.line() + ": backup " + bk.name() + " is not carried over (systemd timer"
                    + " running 'hb backup run')");
        }
        mine.sort(java.util.Comparator.comparingInt(ReportLine::line));
        report.addAll(mine);
    }

    private void reportJheartbeatYaml(List<ReportLine> report) {
        if (in.jheartbeatYaml().isEmpty()) {
            return;
        }
        String[] lines = in.jheartbeatYaml().get().split("\n", -1);
        String section = "";
        for (int i = 0; i < lines.length; i++) {
            String raw = lines[i];
            String t = raw.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            if (!Character.isWhitespace(raw.charAt(0))) {
                section = t.split(":")[0];
            }
            if (section.equals("stonith") && t.startsWith("fence_delay")) {
                report.add(new ReportLine("jheartbeat.yaml", i + 1, t, in.fenceDelay().isZero()
                        ? "no priority-fencing-delay (0: both nodes fence at once)"
                        : "cluster property priority-fencing-delay, with priority=1 on each group's first resource"
                        + " (a node's priority = the groups it runs); with equal priorities Pacemaker delays neither"
                        + " fence: for jheartbeat's tie-break (the node first in ha.cf wins) add pcmk_delay_base on the"
                        + " fencing of that node"));
                continue;
            }
            String became = switch (section) {
                case "monitor" -> "monitor op interval/timeout, migration-threshold (restart_limit + 1) and"
                        + " failure-timeout (restart_window) of every exported primitive without its own op_ options";
                case "metrics" -> "not carried over: Pacemaker has no metrics endpoint; use crm_mon (--output-as=xml)"
                        + " or a Prometheus exporter for Pacemaker";
                case "stonith" -> "not carried over: Pacemaker fences with its reboot action (off, then on); for"
                        + " jheartbeat's off-then-take-over set pcmk_reboot_action=off on the fencing primitive"
                        + " (the node then stays off: power_on has no Pacemaker equivalent)";
                default -> "not carried over: unknown to the export";
            };
            report.add(new ReportLine("jheartbeat.yaml", i + 1, t, became));
        }
    }
}
