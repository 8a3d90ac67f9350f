package org.jheartbeat.export;

import static org.jheartbeat.export.PacemakerExporter.PREFERENCE;
import static org.jheartbeat.export.PacemakerExporter.STICKY;
import static org.jheartbeat.export.PacemakerExporter.seconds;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesDocument;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.export.ExportResult.ReportLine;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.ReplicationJobSpec;

/**
 * The per-line report of an export: for every line of ha.cf, haresources, authkeys, sync.yaml and
 * jheartbeat.yaml, what it became in corosync.conf or the CIB, or why it is not carried over. Owns the
 * wording for the lines the mapping did not annotate (ha.cf keywords, authkeys, sync.yaml and
 * jheartbeat.yaml sections); the notes the mapping made are passed in. Its sync.yaml part also adds a
 * warning for each replication job and backup, which Pacemaker does not run.
 */
final class ExportReport {
    private final ExportInput in;
    private final ClusterConfig config;
    private final Map<Integer, String> haCfNotes;
    private final Map<Integer, List<String>> haresourcesNotes;
    private final List<String> warnings;
    private final int stickiness;

    /**
     * @param haCfNotes        what the mapping made of ha.cf lines, by line (-1, -2, -3: deadtime,
     *                         keepalive, warntime)
     * @param haresourcesNotes what the mapping made of each group, by its first haresources line
     * @param warnings         the export's warnings, added to
     * @param stickiness       the resource-stickiness written to rsc_defaults
     */
    ExportReport(ExportInput in, Map<Integer, String> haCfNotes, Map<Integer, List<String>> haresourcesNotes,
            List<String> warnings, int stickiness) {
        this.in = in;
        this.config = in.config();
        this.haCfNotes = haCfNotes;
        this.haresourcesNotes = haresourcesNotes;
        this.warnings = warnings;
        this.stickiness = stickiness;
    }

    /** The report: ha.cf, haresources, authkeys, then sync.yaml and jheartbeat.yaml when present. */
    List<ReportLine> lines() {
        List<ReportLine> report = new ArrayList<>();
        reportHaCf(report);
        reportHaresources(report);
        reportAuthkeys(report);
        reportSync(report);
        reportJheartbeatYaml(report);
        return report;
    }

    private void reportHaCf(List<ReportLine> report) {
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
            report.add(new ReportLine("ha.cf", line, withoutStonithParameters(key, text), became));
        }
        if (comments > 0) {
            report.add(new ReportLine("ha.cf", 0, "(" + comments + " comment or blank lines)",
                    "comments are not configuration; not carried over"));
        }
    }

    /**
     * A STONITH line as the report shows it: {@code stonith_host FROM TYPE} or {@code stonith TYPE FILE}
     * and the number of parameters left out, because a device's parameters hold its login and password
     * (cluster-glue's ipmilan, apcmaster, nut ...) and the report is meant to be read and passed around.
     * The parameters are in the CIB files, which are written mode 600.
     */
    static String withoutStonithParameters(String key, String text) {
        int keep = key.equals("stonith_host") ? 3 : key.equals("stonith") ? 3 : -1;
        String[] w = text.split("\\s+");
        if (keep < 0 || w.length <= keep) {
            return text;
        }
        return String.join(" ", java.util.Arrays.copyOf(w, keep)) + " (" + (w.length - keep)
                + " parameter(s) not shown: they may hold a password; see cib.xml)";
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
            case "auto_failback" -> "rsc_defaults resource-stickiness=" + stickiness + " against location score "
                    + PREFERENCE + (stickiness == 0 ? ": groups go back to their preferred node when it returns"
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
