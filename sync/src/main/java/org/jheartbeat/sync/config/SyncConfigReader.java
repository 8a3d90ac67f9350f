package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jheartbeat.core.config.NodeName;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * One parse of {@code sync.yaml} text (for {@link SyncConfigParser}). A problem in one value is recorded
 * and the parse goes on with the next value, so that one run names every problem of the file; an entry
 * (job, backup, node) with a problem is left out of the result. Only a text that is not YAML, or whose top
 * level is not a mapping, stops the parse at its first problem.
 */
final class SyncConfigReader extends YamlValues {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    static final List<String> TOP_KEYS = List.of("state_dir", "ssh", "nodes", "jobs", "backups");
    static final List<String> JOB_KEYS = List.of("group", "paths", "target", "schedule", "delete",
            "rsync_options", "require_mount", "max_loss", "retries", "retry_delay", "timeout", "pre", "post",
            "hook_timeout");
    static final List<String> NFS_KEYS = List.of("nfs", "mount", "options", "timeout", "automount");
    private static final Pattern NFS_SOURCE = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+):(/\\S*)");
    private static final Pattern MOUNT_OPTION = Pattern.compile("[A-Za-z0-9_]+(=[^,\\s]+)?");
    static final List<String> BACKUP_KEYS = List.of("label", "uuid", "device", "mount_point", "paths",
            "keep", "poll", "fsck", "rsync_options", "schedule", "profile");

    /** The line of each {@code nodes:} entry by node name (lower case), and of {@code nodes:} itself by "". */
    final Map<String, Integer> nodeLines = new HashMap<>();

    SyncConfigReader(Path source) {
        super(source);
    }

    /** The file's config, every job and backup without a problem; and every problem in {@link #problems}. */
    SyncConfig read(String text) throws SyncConfigException {
        Node root;
        try {
            root = YamlNodes.compose(text);
        } catch (YamlNodes.SyntaxError e) {
            throw new SyncConfigException(source, e.line(), e.getMessage());
        }
        Path stateDir = SyncConfig.DEFAULT_STATE_DIR;
        List<String> ssh = SyncConfig.DEFAULT_SSH;
        Map<String, String> nodes = new LinkedHashMap<>();
        List<ReplicationJobSpec> jobs = new ArrayList<>();
        List<BackupSpec> backups = new ArrayList<>();
        if (root != null && !(root instanceof ScalarNode s && s.getValue().isEmpty())) {
            Map<String, NodeTuple> top = mapping(root, "the file", TOP_KEYS);
            if (top.containsKey("state_dir")) {
                stateDir = attempt(() -> absPath(top.get("state_dir").getValueNode(), "state_dir"), stateDir);
            }
            if (top.containsKey("ssh")) {
                ssh = attempt(() -> ssh(top.get("ssh").getValueNode()), ssh);
            }
            if (top.containsKey("nodes")) {
                NodeTuple t = top.get("nodes");
                nodeLines.put("", line(t.getKeyNode()));
                Node n = t.getValueNode();
                if (!isNull(n)) {
                    for (NodeTuple e : attempt(() -> mapping(n, "nodes:", null), Map.<String, NodeTuple>of())
                            .values()) {
                        String[] node = attempt(() -> node(e), null);
                        if (node != null) {
                            nodes.put(node[0], node[1]);
                            nodeLines.put(node[0], line(e.getKeyNode()));
                        }
                    }
                }
            }
            if (top.containsKey("jobs") && !isNull(top.get("jobs").getValueNode())) {
                for (NodeTuple e : attempt(() -> mapping(top.get("jobs").getValueNode(), "jobs:", null),
                        Map.<String, NodeTuple>of()).values()) {
                    ReplicationJobSpec j = attempt(() -> job(e, nodes.size(), jobs), null);
                    if (j != null) {
                        jobs.add(j);
                    }
                }
            }
            if (top.containsKey("backups") && !isNull(top.get("backups").getValueNode())) {
                for (NodeTuple e : attempt(() -> mapping(top.get("backups").getValueNode(), "backups:", null),
                        Map.<String, NodeTuple>of()).values()) {
                    BackupSpec b = attempt(() -> backup(e), null);
                    if (b != null) {
                        backups.add(b);
                    }
                }
            }
        }
        return new SyncConfig(source, stateDir, ssh, nodes, jobs, backups);
    }

    List<String> ssh(Node n) throws SyncConfigException {
        String s = scalar(n, "ssh");
        List<String> ssh;
        try {
            ssh = SyncConfigParser.shellSplit(s);
        } catch (IllegalArgumentException e) {
            throw err(n, "ssh: " + e.getMessage() + "; close the quote or quote the whole value");
        }
        if (ssh.isEmpty()) {
            throw err(n, "ssh: is empty; write the remote-shell command, e.g. "
                    + String.join(" ", SyncConfig.DEFAULT_SSH));
        }
        return ssh;
    }

    /** One {@code nodes:} entry: its name (lower case) and address. */
    String[] node(NodeTuple e) throws SyncConfigException {
        String name = keyOf(e);
        String addr = scalar(e.getValueNode(), "nodes: " + name);
        if (addr.isBlank()) {
            throw err(e.getKeyNode(), "nodes: " + name + " has no address; write \"" + name
                    + ": ADDRESS\" (its crossover-link address)");
        }
        if (!addr.trim().matches("[A-Za-z0-9._:-]+|\\[[0-9A-Fa-f:.]+\\]")) {
            throw err(e.getValueNode(), "nodes: " + name + ": [" + addr.trim() + "] is not an"
                    + " address or host name; write the node's crossover-link IP address");
        }
        try {
            NodeName.of(name);
        } catch (IllegalArgumentException ex) {
            throw err(e.getKeyNode(), "nodes: [" + name + "] is not a valid node name; "
                    + "use the node name of ha.cf");
        }
        return new String[] {name.toLowerCase(Locale.ROOT), addr.trim()};
    }

    /**
     * One job; each of its values checked even after a problem in another. Returns {@code null} (its
     * problems recorded) when any value has a problem.
     */
    ReplicationJobSpec job(NodeTuple entry, int nodeCount, List<ReplicationJobSpec> earlier)
            throws SyncConfigException {
        int before = problems.size();
        String name = keyOf(entry);
        Node keyNode = entry.getKeyNode();
        attempt(() -> checkName(keyNode, name, "job"), null);
        String what = "job " + name;
        Map<String, NodeTuple> m = mapping(entry.getValueNode(), what, JOB_KEYS);
        String group = attempt(() -> group(m, keyNode, what), null);
        List<Path> paths = m.containsKey("paths") ? attempt(() -> paths(m.get("paths").getValueNode(), what), null)
                : null;
        if (!m.containsKey("paths")) {
            problem(keyNode, what + " has no paths; add \"paths: [/srv/data]\"");
        }
        List<Path> known = paths == null ? List.of() : paths;
        Node tn = m.containsKey("target") ? m.get("target").getValueNode() : null;
        Optional<NfsTarget> nfs = Optional.empty();
        if (tn instanceof org.yaml.snakeyaml.nodes.MappingNode) {
            NfsTarget t = attempt(() -> nfs(tn, known, what), null);
            nfs = t == null ? null : Optional.of(t);
        }
        Optional<Path> target = nfs == null ? null
                : nfs.isPresent() ? Optional.of(nfs.get().mountPoint()) : attempt(() -> target(m, known, what), null);
        String schedule = attempt(() -> schedule(m, what), null);
        boolean delete = attempt(() -> bool(m, "delete", true, what), true);
        List<String> opts = attempt(() -> strings(m, "rsync_options", what), List.of());
        boolean requireMount = attempt(() -> bool(m, "require_mount", false, what), false);
        double maxLoss = attempt(() -> maxLoss(m, what), ReplicationJobSpec.DEFAULT_MAX_LOSS);
        int retries = attempt(() -> intValue(m, "retries", ReplicationJobSpec.DEFAULT_RETRIES, 0, what), 0);
        Duration retryDelay = attempt(() -> duration(m, "retry_delay", ReplicationJobSpec.DEFAULT_RETRY_DELAY,
                true, what), Duration.ZERO);
        Duration timeout = attempt(() -> duration(m, "timeout", ReplicationJobSpec.DEFAULT_TIMEOUT, false, what),
                Duration.ZERO);
        Optional<String> pre = attempt(() -> hook(m, "pre", what), Optional.empty());
        Optional<String> post = attempt(() -> hook(m, "post", what), Optional.empty());
        Duration hookTimeout = attempt(() -> duration(m, "hook_timeout", ReplicationJobSpec.DEFAULT_HOOK_TIMEOUT,
                false, what), Duration.ZERO);
        if (target != null && target.isEmpty() && nodeCount < 2) {
            problem(keyNode, what + " replicates to the peer but nodes: lists " + nodeCount
                    + " node(s); list both nodes' crossover addresses under nodes:");
        }
        for (ReplicationJobSpec e : earlier) {
            if (e.name().equals(name)) {
                problem(keyNode, "job " + name + " is defined twice (also line " + e.line() + "); rename one");
            }
            for (Path p : known) {
                Optional<Path> q = e.paths().stream().filter(o -> p.startsWith(o) || o.startsWith(p)).findFirst();
                if (q.isPresent()) {
                    problem(m.get("paths").getValueNode(), what + ": path " + p
                            + (p.equals(q.get()) ? " is" : " overlaps " + q.get() + ", which is")
                            + " already replicated by job " + e.name() + " (line " + e.line()
                            + "); replicate each directory in one job only");
                }
            }
        }
        if (problems.size() > before) {
            return null;
        }
        return new ReplicationJobSpec(name, group, paths, target, schedule, delete, opts, requireMount,
                maxLoss, retries, retryDelay, timeout, pre, post, hookTimeout, line(keyNode), nfs);
    }

    /**
     * A target declared as an NFS export: {@code {nfs: SERVER:/EXPORT, mount: /mnt/dir, options: [vers=4.2,
     * soft], timeout: 10s, automount: true}}; each value checked even after a problem in another.
     * Returns {@code null} (its problems recorded) when any value has a problem.
     */
    NfsTarget nfs(Node tn, List<Path> paths, String what) throws SyncConfigException {
        int before = problems.size();
        String w = what + ": target";
        Map<String, NodeTuple> m = mapping(tn, w, NFS_KEYS);
        String[] source = null;
        if (!m.containsKey("nfs")) {
            problem(tn, w + " has no nfs: server and export; write e.g. {nfs: 198.18.1.2:/export/web, mount: /mnt/web}"
                    + " (or target: peer, or target: /abs/path)");
        } else {
            source = attempt(() -> nfsSource(m.get("nfs").getValueNode(), w), null);
        }
        Path mount = null;
        if (!m.containsKey("mount")) {
            problem(tn, w + " has no mount: the local directory the export is mounted on; add e.g. mount: /mnt/web");
        } else {
            Node mn = m.get("mount").getValueNode();
            mount = attempt(() -> absPath(mn, w + ": mount"), null);
            for (Path p : mount == null ? List.<Path>of() : paths) {
                if (mount.startsWith(p) || p.startsWith(mount)) {
                    problem(mn, w + ": mount " + mount + " overlaps the source " + p
                            + "; mount the export outside every source path");
                    break;
                }
            }
        }
        List<String> options = attempt(() -> strings(m, "options", w), List.of());
        for (String o : options) {
            if (!MOUNT_OPTION.matcher(o).matches()) {
                problem(m.get("options").getValueNode(), w + ": options: [" + o + "] is not one mount option;"
                        + " write each as its own item, e.g. [vers=4.2, soft, timeo=50]");
            } else if (o.matches("(?i)(nfs)?vers=.*") && !o.matches("(?i)(nfs)?vers=(3|4|4\\.[0-2])")) {
                problem(m.get("options").getValueNode(), w + ": options: [" + o + "] is not an NFS version this"
                        + " job can check; write vers=3, vers=4, vers=4.1 or vers=4.2");
            }
        }
        Duration timeout = attempt(() -> duration(m, "timeout", NfsTarget.DEFAULT_TIMEOUT, false, w), null);
        boolean automount = attempt(() -> bool(m, "automount", true, w), true);
        if (problems.size() > before) {
            return null; // each problem is already recorded
        }
        return new NfsTarget(source[0], source[1], mount, options, timeout, automount);
    }

    /** {@code SERVER:/EXPORT} split in server and export (trailing slashes dropped). */
    String[] nfsSource(Node n, String what) throws SyncConfigException {
        String s = scalar(n, what + ": nfs").trim();
        java.util.regex.Matcher mt = NFS_SOURCE.matcher(s);
        if (!mt.matches()) {
            throw err(n, what + ": nfs [" + s + "] is not SERVER:/EXPORT; write e.g. nfs: 198.18.1.2:/export/web");
        }
        String export = mt.group(2).replaceAll("/+$", "");
        return new String[] {mt.group(1), export.isEmpty() ? "/" : export};
    }

    String group(Map<String, NodeTuple> m, Node keyNode, String what) throws SyncConfigException {
        if (!m.containsKey("group")) {
            throw err(keyNode, what + " has no group; add \"group: KEY\" (the haresources group it follows)");
        }
        String group = scalar(m.get("group").getValueNode(), what + ": group").trim();
        if (group.isEmpty()) {
            throw err(m.get("group").getValueNode(), what + ": group is empty; write a haresources group key");
        }
        return group;
    }

    /** The job's target: empty for the peer (the default), else an absolute path outside its sources. */
    Optional<Path> target(Map<String, NodeTuple> m, List<Path> paths, String what) throws SyncConfigException {
        if (!m.containsKey("target")) {
            return Optional.empty();
        }
        Node tn = m.get("target").getValueNode();
        String t = scalar(tn, what + ": target").trim();
        if (t.equals("peer")) {
            return Optional.empty();
        }
        if (!t.startsWith("/")) {
            throw err(tn, what + ": target [" + t + "] is neither peer nor an absolute path; "
                    + "write peer, /abs/path or {nfs: SERVER:/EXPORT, mount: /mnt/dir}");
        }
        Path tp = Path.of(t).normalize();
        for (Path p : paths) {
            if (tp.startsWith(p) || p.startsWith(tp)) {
                throw err(tn, what + ": target " + tp + " overlaps the source " + p
                        + "; put the target outside every source path");
            }
        }
        return Optional.of(tp);
    }

    String schedule(Map<String, NodeTuple> m, String what) throws SyncConfigException {
        if (!m.containsKey("schedule")) {
            return ReplicationJobSpec.DEFAULT_SCHEDULE;
        }
        return cron(m.get("schedule").getValueNode(), what);
    }

    /** A {@code schedule:} value (jobs and backups alike): a cron expression that fires at least once. */
    String cron(Node sn, String what) throws SyncConfigException {
        String schedule = scalar(sn, what + ": schedule").trim();
        if (schedule.startsWith("@")) {
            throw err(sn, what + ": schedule [" + schedule + "]: cron macros like @hourly are not supported;"
                    + " write the fields, e.g. \"0 * * * *\" for hourly");
        }
        try {
            CronSchedule cs = CronSchedule.parse(schedule);
            java.time.ZonedDateTime from = java.time.ZonedDateTime.of(2026, 1, 1, 0, 0, 0, 0,
                    java.time.ZoneOffset.UTC);
            if (cs.nextAfter(from).filter(t -> t.isBefore(from.plusYears(9))).isEmpty()) {
                throw err(sn, what + ": schedule [" + schedule + "] never fires (no such date);"
                        + " write a cron expression such as \"*/5 * * * *\"");
            }
            return cs.expression();
        } catch (IllegalArgumentException e) {
            throw err(sn, what + ": schedule [" + schedule + "] " + YamlNodes.oneLine(e.getMessage())
                    + "; write a cron expression such as \"*/5 * * * *\"");
        }
    }

    double maxLoss(Map<String, NodeTuple> m, String what) throws SyncConfigException {
        if (!m.containsKey("max_loss")) {
            return ReplicationJobSpec.DEFAULT_MAX_LOSS;
        }
        Node n = m.get("max_loss").getValueNode();
        String s = scalar(n, what + ": max_loss").trim();
        double maxLoss;
        try {
            maxLoss = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            maxLoss = Double.NaN;
        }
        if (!(maxLoss >= 0 && maxLoss <= 1)) {
            throw err(n, what + ": max_loss [" + s + "] is not a share between 0 and 1; write e.g. 0.5");
        }
        return maxLoss;
    }

    /** A {@code pre:}/{@code post:} hook: one line of shell, run by {@code /bin/sh -c}. */
    Optional<String> hook(Map<String, NodeTuple> m, String key, String what) throws SyncConfigException {
        if (!m.containsKey(key)) {
            return Optional.empty();
        }
        Node n = m.get(key).getValueNode();
        if (!(n instanceof ScalarNode) || isNull(n)) {
            throw err(n, what + ": " + key + " must be one shell command on the same line, e.g. \"" + key
                    + ": /usr/local/sbin/db-dump\"; join several with &&");
        }
        String cmd = ((ScalarNode) n).getValue().trim();
        if (cmd.isEmpty()) {
            throw err(n, what + ": " + key + " is empty; give a shell command or remove the line");
        }
        if (cmd.contains("\n")) {
            throw err(n, what + ": " + key + " spans several lines; write one command (join with &&) or"
                    + " put the commands in a script and name it");
        }
        return Optional.of(cmd);
    }

    /** One backup, like {@link #job}: {@code null} (its problems recorded) when any value has a problem. */
    BackupSpec backup(NodeTuple entry) throws SyncConfigException {
        int before = problems.size();
        String name = keyOf(entry);
        Node keyNode = entry.getKeyNode();
        attempt(() -> checkName(keyNode, name, "backup"), null);
        String what = "backup " + name;
        Map<String, NodeTuple> m = mapping(entry.getValueNode(), what, BACKUP_KEYS);
        Optional<String> label = attempt(() -> optScalar(m, "label", what), Optional.empty());
        Optional<String> uuid = attempt(() -> optScalar(m, "uuid", what), Optional.empty());
        if (problems.size() == before && label.isPresent() == uuid.isPresent()) {
            problem(label.isPresent() ? m.get("uuid").getKeyNode() : keyNode, what
                    + (label.isPresent() ? " has both label and uuid; keep one of them"
                    : " names no disk; add \"label: LABEL\" or \"uuid: UUID\""));
        }
        Optional<Path> device = attempt(() -> m.containsKey("device")
                ? Optional.of(absPath(m.get("device").getValueNode(), what + ": device")) : Optional.empty(),
                Optional.empty());
        Path mp = null;
        if (!m.containsKey("mount_point")) {
            problem(keyNode, what + " has no mount_point; add \"mount_point: /mnt/backup\"");
        } else {
            mp = attempt(() -> absPath(m.get("mount_point").getValueNode(), what + ": mount_point"), null);
        }
        BackupProfile profile = attempt(() -> profile(m, what), null);
        // an unreadable profile is reported once; the paths are then read leniently, not refused for it
        boolean system = profile != BackupProfile.DATA;
        List<Path> paths = null;
        if (!m.containsKey("paths")) {
            problem(keyNode, what + " has no paths; add \"paths: [/srv/data]\"");
        } else {
            paths = attempt(() -> system ? systemPaths(m.get("paths").getValueNode(), what)
                    : paths(m.get("paths").getValueNode(), what), null);
        }
        if (mp != null && paths != null) {
            for (Path p : paths) {
                // a whole-system backup copies one file system per path and excludes the mount point,
                // so the disk may be mounted below a source (e.g. /mnt/backup under /)
                if (p.startsWith(mp) || mp.startsWith(p) && !system) {
                    problem(m.get("mount_point").getValueNode(), what + ": mount_point " + mp
                            + " overlaps the source " + p + "; mount the disk outside every source path"
                            + (p.startsWith(mp) ? "" : " (or back up a whole system with profile: system)"));
                    break;
                }
            }
        }
        Optional<String> schedule = m.containsKey("schedule")
                ? attempt(() -> Optional.of(cron(m.get("schedule").getValueNode(), what)), Optional.empty())
                : Optional.empty();
        int keep = attempt(() -> intValue(m, "keep", BackupSpec.DEFAULT_KEEP, 1, what), 0);
        Duration poll = attempt(() -> duration(m, "poll", BackupSpec.DEFAULT_POLL, false, what), Duration.ZERO);
        boolean fsck = attempt(() -> bool(m, "fsck", true, what), true);
        List<String> opts = attempt(() -> strings(m, "rsync_options", what), List.of());
        if (problems.size() > before) {
            return null;
        }
        return new BackupSpec(name, label, uuid, device, mp, paths, keep, poll, fsck, opts, line(keyNode), schedule,
                profile);
    }

    BackupProfile profile(Map<String, NodeTuple> m, String what) throws SyncConfigException {
        if (!m.containsKey("profile")) {
            return BackupProfile.DATA;
        }
        Node n = m.get("profile").getValueNode();
        String word = scalar(n, what + ": profile");
        return BackupProfile.of(word).orElseThrow(() -> err(n, what + ": profile [" + word.trim()
                + "] is not data or system; write profile: system for a whole-system backup, or remove the line"));
    }

    /**
     * The paths of a whole-system backup: absolute, {@code /} allowed, each listed once; nested paths
     * are allowed (each is its own file system, e.g. {@code [/, /boot, /srv]}).
     */
    List<Path> systemPaths(Node n, String what) throws SyncConfigException {
        List<Node> items = n instanceof org.yaml.snakeyaml.nodes.SequenceNode sn ? sn.getValue() : List.of(n);
        if (items.isEmpty()) {
            throw err(n, what + ": paths is empty; list at least one file system, e.g. [/]");
        }
        List<Path> out = new ArrayList<>();
        for (Node item : items) {
            Path p = absPath(item, what + ": path");
            if (out.contains(p)) {
                throw err(item, what + ": path " + p + " is listed twice; keep one");
            }
            out.add(p);
        }
        return out;
    }

    String checkName(Node at, String name, String kind) throws SyncConfigException {
        if (!NAME.matcher(name).matches()) {
            throw err(at, kind + " name [" + name + "] has characters other than letters, digits, _ . -; "
                    + "rename it");
        }
        return name;
    }

}
