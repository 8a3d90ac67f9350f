package org.jheartbeat.sync.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.Suggestions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads {@code /etc/ha.d/sync.yaml} (format: see {@link SyncConfig}) into a {@link SyncConfig}.
 *
 * <p>The file is composed with snakeyaml into a node tree (not bound to objects) so that every
 * error names the line of the offending key or value. Every user error is one
 * {@link SyncConfigException} with the message {@code FILE:LINE: what is wrong; what to do}; the
 * first error found is reported. Unknown keys are errors, with "did you mean" when a known key is
 * within two edits. Durations are an integer and a unit: {@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 1h}, {@code 1d}.
 *
 * <p>{@link #resolve} then checks the file against the cluster configuration (ha.cf nodes,
 * haresources groups) and replaces each job's {@code group} by the canonical group key.
 */
public final class SyncConfigParser {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");
    private static final List<String> TOP_KEYS = List.of("state_dir", "ssh", "nodes", "jobs", "backups");
    private static final List<String> JOB_KEYS = List.of("group", "paths", "target", "schedule", "delete",
            "rsync_options", "require_mount", "max_loss", "retries", "retry_delay", "timeout", "pre", "post",
            "hook_timeout");
    private static final List<String> BACKUP_KEYS = List.of("label", "uuid", "device", "mount_point", "paths",
            "keep", "poll", "fsck", "rsync_options");

    /** Lines of {@code nodes:} entries of parsed configs, for the errors of {@link #resolve}. */
    private static final Map<SyncConfig, Map<String, Integer>> NODE_LINES =
            Collections.synchronizedMap(new WeakHashMap<>());

    private SyncConfigParser() {
    }

    /**
     * Reads and parses a file.
     *
     * @param file the sync.yaml path; messages name it as given
     * @return the config (jobs' {@code group} as written: call {@link #resolve} next)
     * @throws SyncConfigException if the file cannot be read or has any error
     */
    public static SyncConfig parse(Path file) throws SyncConfigException {
        String problem = YamlNodes.notAConfigFile(file);
        if (problem != null) {
            throw new SyncConfigException(file, 0, problem);
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SyncConfigException(file, 0, "no such file; create it or remove the sync configuration");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new SyncConfigException(file, 0, "is not UTF-8 text (a binary or differently encoded file?);"
                    + " write it as plain UTF-8 YAML");
        } catch (IOException e) {
            throw new SyncConfigException(file, 0, "cannot read: " + e.getMessage() + "; check the file's permissions");
        }
        return parse(text, file);
    }

    /**
     * Parses sync.yaml text. An empty text (or only comments) is a config with defaults and no jobs.
     *
     * @param text   the YAML text
     * @param source the file name used in messages and stored as {@link SyncConfig#source()}
     * @return the config (jobs' {@code group} as written: call {@link #resolve} next)
     * @throws SyncConfigException on the first error, with its line
     */
    public static SyncConfig parse(String text, Path source) throws SyncConfigException {
        return new Reader(source).read(text);
    }

    /**
     * Checks a parsed config against the cluster configuration and canonicalises groups.
     *
     * <p>Each job's {@code group} may be a group key (the first resource token of a haresources
     * line) or any resource token that appears in exactly one group; the result carries the key.
     * Every name under {@code nodes:} must be an ha.cf {@code node}; when some job has
     * {@code target: peer}, every ha.cf node must have an address under {@code nodes:}.
     *
     * @param cfg     a config from {@link #parse}
     * @param cluster the loaded ha.cf/haresources
     * @return a copy of {@code cfg} whose jobs name canonical group keys
     * @throws SyncConfigException for an unknown or ambiguous group, or a node mismatch, with the
     *                             line of the job or of the {@code nodes:} entry
     */
    public static SyncConfig resolve(SyncConfig cfg, ClusterConfig cluster) throws SyncConfigException {
        Path src = cfg.source();
        Map<String, Integer> nodeLines = NODE_LINES.getOrDefault(cfg, Map.of());
        List<String> keys = cluster.resourceGroups().stream().map(ResourceGroupDecl::key).toList();
        String groupList = keys.isEmpty() ? "haresources has no groups" : "groups: " + String.join(", ", keys);
        List<ReplicationJobSpec> jobs = new ArrayList<>();
        for (ReplicationJobSpec j : cfg.jobs()) {
            String key;
            if (keys.contains(j.group())) {
                key = j.group();
            } else {
                List<String> owners = cluster.resourceGroups().stream()
                        .filter(g -> g.resources().stream().map(ResourceSpec::token).anyMatch(j.group()::equals))
                        .map(ResourceGroupDecl::key).toList();
                if (owners.isEmpty()) {
                    throw new SyncConfigException(src, j.line(), "job " + j.name() + ": group [" + j.group()
                            + "] is not a resource group of haresources; write a group key (" + groupList + ")");
                }
                if (owners.size() > 1) {
                    throw new SyncConfigException(src, j.line(), "job " + j.name() + ": [" + j.group()
                            + "] is a resource of " + owners.size() + " groups (" + String.join(", ", owners)
                            + "); write the group key instead");
                }
                key = owners.get(0);
            }
            jobs.add(j.withGroup(key));
        }
        Set<String> haNodes = new TreeSet<>();
        cluster.nodes().forEach(n -> haNodes.add(n.value()));
        for (String n : new TreeSet<>(cfg.nodes().keySet())) {
            if (!haNodes.contains(n.toLowerCase(Locale.ROOT))) {
                throw new SyncConfigException(src, nodeLines.getOrDefault(n, nodeLines.getOrDefault("", 0)),
                        "nodes: [" + n + "] is not a node of ha.cf; use one of " + String.join(", ", haNodes));
            }
        }
        Optional<ReplicationJobSpec> peerJob = jobs.stream().filter(ReplicationJobSpec::toPeer).findFirst();
        if (peerJob.isPresent()) {
            Set<String> have = new TreeSet<>();
            cfg.nodes().keySet().forEach(n -> have.add(n.toLowerCase(Locale.ROOT)));
            for (String n : haNodes) {
                if (!have.contains(n)) {
                    int line = nodeLines.getOrDefault("", peerJob.get().line());
                    throw new SyncConfigException(src, line, "nodes: ha.cf node " + n + " has no address, but job "
                            + peerJob.get().name() + " replicates to the peer; add \"" + n
                            + ": ADDRESS\" under nodes:");
                }
            }
        }
        SyncConfig out = new SyncConfig(cfg.source(), cfg.stateDir(), cfg.ssh(), cfg.nodes(), jobs, cfg.backups());
        NODE_LINES.put(out, nodeLines);
        return out;
    }

    /**
     * Splits a command line the way a POSIX shell splits words: blanks separate, single quotes
     * keep everything literally, double quotes keep blanks and honour backslash escapes, a
     * backslash outside quotes escapes the next character. No expansion of any kind.
     *
     * @param s the command line
     * @return the words
     * @throws IllegalArgumentException on an unterminated quote or a trailing backslash
     */
    public static List<String> shellSplit(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                int end = s.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated single quote");
                }
                cur.append(s, i + 1, end);
                i = end;
                inWord = true;
            } else if (c == '"') {
                int j = i + 1;
                for (; j < s.length() && s.charAt(j) != '"'; j++) {
                    char d = s.charAt(j);
                    if (d == '\\' && j + 1 < s.length() && "\"\\$`".indexOf(s.charAt(j + 1)) >= 0) {
                        cur.append(s.charAt(++j));
                    } else {
                        cur.append(d);
                    }
                }
                if (j >= s.length()) {
                    throw new IllegalArgumentException("unterminated double quote");
                }
                i = j;
                inWord = true;
            } else if (c == '\\') {
                if (i + 1 >= s.length()) {
                    throw new IllegalArgumentException("trailing backslash");
                }
                cur.append(s.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    inWord = false;
                }
            } else {
                cur.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            out.add(cur.toString());
        }
        return out;
    }

    /**
     * Parses a duration: an integer and a unit ({@code ms}, {@code s}, {@code m}, {@code h},
     * {@code d}), e.g. {@code 500ms}, {@code 30s}.
     *
     * @param s the text
     * @return the duration
     * @throws IllegalArgumentException if the text is not of that form
     */
    public static Duration parseDuration(String s) {
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /** One parse: the source name and the error helpers. */
    private static final class Reader {
        private final Path source;

        Reader(Path source) {
            this.source = source;
        }

        SyncConfigException err(Node at, String what) {
            return new SyncConfigException(source, line(at), what);
        }

        static int line(Node n) {
            return n == null ? 0 : n.getStartMark().getLine() + 1;
        }

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
            Map<String, Integer> nodeLines = new HashMap<>();
            List<ReplicationJobSpec> jobs = new ArrayList<>();
            List<BackupSpec> backups = new ArrayList<>();
            if (root != null && !(root instanceof ScalarNode s && s.getValue().isEmpty())) {
                Map<String, NodeTuple> top = mapping(root, "the file", TOP_KEYS);
                if (top.containsKey("state_dir")) {
                    stateDir = absPath(top.get("state_dir").getValueNode(), "state_dir");
                }
                if (top.containsKey("ssh")) {
                    Node n = top.get("ssh").getValueNode();
                    String s = scalar(n, "ssh");
                    try {
                        ssh = shellSplit(s);
                    } catch (IllegalArgumentException e) {
                        throw err(n, "ssh: " + e.getMessage() + "; close the quote or quote the whole value");
                    }
                    if (ssh.isEmpty()) {
                        throw err(n, "ssh: is empty; write the remote-shell command, e.g. "
                                + String.join(" ", SyncConfig.DEFAULT_SSH));
                    }
                }
                if (top.containsKey("nodes")) {
                    NodeTuple t = top.get("nodes");
                    nodeLines.put("", line(t.getKeyNode()));
                    Node n = t.getValueNode();
                    if (!isNull(n)) {
                        for (NodeTuple e : mapping(n, "nodes:", null).values()) {
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
                            nodes.put(name.toLowerCase(Locale.ROOT), addr.trim());
                            nodeLines.put(name.toLowerCase(Locale.ROOT), line(e.getKeyNode()));
                        }
                    }
                }
                if (top.containsKey("jobs") && !isNull(top.get("jobs").getValueNode())) {
                    for (NodeTuple e : mapping(top.get("jobs").getValueNode(), "jobs:", null).values()) {
                        jobs.add(job(e, nodes.size(), jobs));
                    }
                }
                if (top.containsKey("backups") && !isNull(top.get("backups").getValueNode())) {
                    for (NodeTuple e : mapping(top.get("backups").getValueNode(), "backups:", null).values()) {
                        backups.add(backup(e));
                    }
                }
            }
            SyncConfig cfg = new SyncConfig(source, stateDir, ssh, nodes, jobs, backups);
            NODE_LINES.put(cfg, nodeLines);
            return cfg;
        }

        ReplicationJobSpec job(NodeTuple entry, int nodeCount, List<ReplicationJobSpec> earlier)
                throws SyncConfigException {
            String name = keyOf(entry);
            Node keyNode = entry.getKeyNode();
            checkName(keyNode, name, "job");
            String what = "job " + name;
            Map<String, NodeTuple> m = mapping(entry.getValueNode(), what, JOB_KEYS);
            if (!m.containsKey("group")) {
                throw err(keyNode, what + " has no group; add \"group: KEY\" (the haresources group it follows)");
            }
            String group = scalar(m.get("group").getValueNode(), what + ": group").trim();
            if (group.isEmpty()) {
                throw err(m.get("group").getValueNode(), what + ": group is empty; write a haresources group key");
            }
            if (!m.containsKey("paths")) {
                throw err(keyNode, what + " has no paths; add \"paths: [/srv/data]\"");
            }
            List<Path> paths = paths(m.get("paths").getValueNode(), what);
            Optional<Path> target = Optional.empty();
            if (m.containsKey("target")) {
                Node tn = m.get("target").getValueNode();
                String t = scalar(tn, what + ": target").trim();
                if (!t.equals("peer")) {
                    if (!t.startsWith("/")) {
                        throw err(tn, what + ": target [" + t + "] is neither peer nor an absolute path; "
                                + "write peer or /abs/path");
                    }
                    Path tp = Path.of(t).normalize();
                    for (Path p : paths) {
                        if (tp.startsWith(p) || p.startsWith(tp)) {
                            throw err(tn, what + ": target " + tp + " overlaps the source " + p
                                    + "; put the target outside every source path");
                        }
                    }
                    target = Optional.of(tp);
                }
            }
            String schedule = ReplicationJobSpec.DEFAULT_SCHEDULE;
            if (m.containsKey("schedule")) {
                Node sn = m.get("schedule").getValueNode();
                schedule = scalar(sn, what + ": schedule").trim();
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
                    schedule = cs.expression();
                } catch (IllegalArgumentException e) {
                    throw err(sn, what + ": schedule [" + schedule + "] " + YamlNodes.oneLine(e.getMessage())
                            + "; write a cron expression such as \"*/5 * * * *\"");
                }
            }
            boolean delete = bool(m, "delete", true, what);
            List<String> opts = strings(m, "rsync_options", what);
            boolean requireMount = bool(m, "require_mount", false, what);
            double maxLoss = ReplicationJobSpec.DEFAULT_MAX_LOSS;
            if (m.containsKey("max_loss")) {
                Node n = m.get("max_loss").getValueNode();
                String s = scalar(n, what + ": max_loss").trim();
                try {
                    maxLoss = Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    maxLoss = Double.NaN;
                }
                if (!(maxLoss >= 0 && maxLoss <= 1)) {
                    throw err(n, what + ": max_loss [" + s + "] is not a share between 0 and 1; write e.g. 0.5");
                }
            }
            int retries = intValue(m, "retries", ReplicationJobSpec.DEFAULT_RETRIES, 0, what);
            Duration retryDelay = duration(m, "retry_delay", ReplicationJobSpec.DEFAULT_RETRY_DELAY, true, what);
            Duration timeout = duration(m, "timeout", ReplicationJobSpec.DEFAULT_TIMEOUT, false, what);
            Optional<String> pre = hook(m, "pre", what);
            Optional<String> post = hook(m, "post", what);
            Duration hookTimeout = duration(m, "hook_timeout", ReplicationJobSpec.DEFAULT_HOOK_TIMEOUT, false, what);
            if (target.isEmpty() && nodeCount < 2) {
                throw err(keyNode, what + " replicates to the peer but nodes: lists " + nodeCount
                        + " node(s); list both nodes' crossover addresses under nodes:");
            }
            for (ReplicationJobSpec e : earlier) {
                if (e.name().equals(name)) {
                    throw err(keyNode, "job " + name + " is defined twice (also line " + e.line()
                            + "); rename one");
                }
                for (Path p : paths) {
                    for (Path q : e.paths()) {
                        if (p.startsWith(q) || q.startsWith(p)) {
                            throw err(m.get("paths").getValueNode(), what + ": path " + p
                                    + (p.equals(q) ? " is" : " overlaps " + q + ", which is")
                                    + " already replicated by job " + e.name() + " (line " + e.line()
                                    + "); replicate each directory in one job only");
                        }
                    }
                }
            }
            return new ReplicationJobSpec(name, group, paths, target, schedule, delete, opts, requireMount,
                    maxLoss, retries, retryDelay, timeout, pre, post, hookTimeout, line(keyNode));
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

        BackupSpec backup(NodeTuple entry) throws SyncConfigException {
            String name = keyOf(entry);
            Node keyNode = entry.getKeyNode();
            checkName(keyNode, name, "backup");
            String what = "backup " + name;
            Map<String, NodeTuple> m = mapping(entry.getValueNode(), what, BACKUP_KEYS);
            Optional<String> label = optScalar(m, "label", what);
            Optional<String> uuid = optScalar(m, "uuid", what);
            if (label.isPresent() == uuid.isPresent()) {
                throw err(label.isPresent() ? m.get("uuid").getKeyNode() : keyNode, what
                        + (label.isPresent() ? " has both label and uuid; keep one of them"
                        : " names no disk; add \"label: LABEL\" or \"uuid: UUID\""));
            }
            Optional<Path> device = m.containsKey("device")
                    ? Optional.of(absPath(m.get("device").getValueNode(), what + ": device")) : Optional.empty();
            if (!m.containsKey("mount_point")) {
                throw err(keyNode, what + " has no mount_point; add \"mount_point: /mnt/backup\"");
            }
            Path mp = absPath(m.get("mount_point").getValueNode(), what + ": mount_point");
            if (!m.containsKey("paths")) {
                throw err(keyNode, what + " has no paths; add \"paths: [/srv/data]\"");
            }
            List<Path> paths = paths(m.get("paths").getValueNode(), what);
            for (Path p : paths) {
                if (mp.startsWith(p) || p.startsWith(mp)) {
                    throw err(m.get("mount_point").getValueNode(), what + ": mount_point " + mp
                            + " overlaps the source " + p + "; mount the disk outside every source path");
                }
            }
            int keep = intValue(m, "keep", BackupSpec.DEFAULT_KEEP, 1, what);
            Duration poll = duration(m, "poll", BackupSpec.DEFAULT_POLL, false, what);
            boolean fsck = bool(m, "fsck", true, what);
            List<String> opts = strings(m, "rsync_options", what);
            return new BackupSpec(name, label, uuid, device, mp, paths, keep, poll, fsck, opts, line(keyNode));
        }

        void checkName(Node at, String name, String kind) throws SyncConfigException {
            if (!NAME.matcher(name).matches()) {
                throw err(at, kind + " name [" + name + "] has characters other than letters, digits, _ . -; "
                        + "rename it");
            }
        }

        /**
         * The entries of a mapping by key, checking duplicates and (when {@code known} is given)
         * unknown keys.
         */
        Map<String, NodeTuple> mapping(Node n, String what, List<String> known) throws SyncConfigException {
            if (!(n instanceof MappingNode mn)) {
                throw err(n, what + " must be a mapping of \"key: value\" lines; indent its entries under it");
            }
            Map<String, NodeTuple> out = new LinkedHashMap<>();
            for (NodeTuple t : mn.getValue()) {
                String k = keyOf(t);
                if (out.containsKey(k)) {
                    throw err(t.getKeyNode(), (what.equals("the file") ? "" : what.endsWith(":") ? what + " " : what + ": ") + k
                            + " is given twice (also line " + line(out.get(k).getKeyNode()) + "); keep one");
                }
                if (known != null && !known.contains(k)) {
                    String near = Suggestions.closest(k, known).orElse(null);
                    String where = what.equals("the file") ? "at the top level" : "in " + what;
                    throw err(t.getKeyNode(), "unknown key [" + k + "] " + where
                            + (near != null ? "; did you mean " + near + "?" : "; known keys: " + String.join(", ", known)));
                }
                out.put(k, t);
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
                    throw err(item, what + ": path / cannot be replicated; list the data directories instead");
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
                    out.addAll(shellSplit(scalar(n, what + ": " + key)));
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
                d = parseDuration(s);
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
}
