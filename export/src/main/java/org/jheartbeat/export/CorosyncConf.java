package org.jheartbeat.export;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;

/**
 * The {@code corosync.conf} of an export: owns the mapping of ha.cf's media to knet links (one link per
 * interface of the UDP media, serial media dropped with a warning), of each node's address on each link
 * (from ucast lines, this machine's interfaces or {@code --node-address}), and of deadtime, keepalive and
 * warntime to the totem token, consensus and knet ping settings (corosync.conf(5), votequorum(5)).
 * Writes its notes on the ha.cf lines it consumed into the exporter's note map.
 */
final class CorosyncConf {
    private final ExportInput in;
    private final ClusterConfig config;
    private final List<String> warnings;
    private final Map<Integer, String> haCfNotes;

    /**
     * @param warnings  the export's warnings, added to
     * @param haCfNotes what each ha.cf line became, by line (negative keys: the timing notes), added to
     */
    CorosyncConf(ExportInput in, List<String> warnings, Map<Integer, String> haCfNotes) {
        this.in = in;
        this.config = in.config();
        this.warnings = warnings;
        this.haCfNotes = haCfNotes;
    }

    /** One knet link: an interface named by UDP media, and the addresses those media name. */
    private record Link(String iface, List<MediumDecl> media, List<String> ucastAddresses) {
    }

    /**
     * The corosync.conf text for these nodes; adds the notes of the media and timing lines of ha.cf
     * (keys -1 deadtime, -2 keepalive, -3 warntime) and the serial-medium warnings.
     *
     * @throws ExportException when a node's address on a UDP link cannot be found, there is no UDP
     *                         medium, or more than 8 interfaces
     */
    String render(List<Cib.Node> nodes) throws ExportException {
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
}
