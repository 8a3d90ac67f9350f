package org.jheartbeat.export;

import static org.jheartbeat.export.PacemakerExporter.WRAPPER_PATH;
import static org.jheartbeat.export.PacemakerExporter.WRAPPER_PROVIDER;
import static org.jheartbeat.export.PacemakerExporter.WRAPPER_TYPE;
import static org.jheartbeat.export.PacemakerExporter.seconds;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.IpAddrArgument;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.config.ResourceClass;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.export.Cib.Clone;
import org.jheartbeat.export.Cib.Nv;
import org.jheartbeat.export.Cib.Op;
import org.jheartbeat.export.Cib.Primitive;
import org.jheartbeat.resources.fs.BuiltinFilesystem;
import org.jheartbeat.resources.monitor.MonitorSettings;

/**
 * What each haresources token becomes in the CIB (agents-pacemaker facts F.1–F.9): an LSB, systemd or
 * OCF primitive with its monitor, start and stop operations and meta attributes, an IPaddr2 or
 * Filesystem primitive for Heartbeat's built-ins, the OCF agent behind a stock resource.d wrapper, the
 * {@code hb-script} wrapper for any other Heartbeat script, or a promotable DRBD clone the group depends
 * on. Owns the DRBD clones made so far (one per DRBD resource) and whether the wrapper agent is needed.
 */
final class ResourceMapper {
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
    private final Ids ids;
    private final List<String> warnings;
    private final Map<String, Clone> drbdClones = new LinkedHashMap<>();
    private boolean wrapperUsed;

    /**
     * @param ids      the export's CIB ids
     * @param warnings the export's warnings, added to
     */
    ResourceMapper(ExportInput in, Ids ids, List<String> warnings) {
        this.in = in;
        this.config = in.config();
        this.ids = ids;
        this.warnings = warnings;
    }

    /** The promotable DRBD clones the mapped groups depend on, in the order first needed. */
    Collection<Clone> drbdClones() {
        return drbdClones.values();
    }

    /** Whether some token runs through the {@code hb-script} wrapper agent (which must then be written). */
    boolean wrapperUsed() {
        return wrapperUsed;
    }

    /** What one haresources token became: a group member, or a clone the group depends on. */
    record Mapped(Optional<Primitive> primitive, Optional<Clone> dependency, String note) {
    }

    /**
     * What a haresources token of group {@code g} becomes; warnings for what needs the user (no fstype,
     * a resource.d script run through the wrapper) go to the export's warnings.
     */
    Mapped map(ResourceSpec r, ResourceGroupDecl g) {
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
}
