package org.jheartbeat.sync.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
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
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;

/**
 * Reads {@code /etc/ha.d/sync.yaml} (format: see {@link SyncConfig}) into a {@link SyncConfig}.
 *
 * <p>The file is composed with snakeyaml into a node tree (not bound to objects) so that every
 * error names the line of the offending key or value. The user errors of a file are one
 * {@link SyncConfigException} that holds every one of them, each {@code FILE:LINE: what is wrong; what
 * to do} (the parse goes on after a problem: {@link SyncConfigReader}). Unknown keys are errors, with
 * "did you mean" when a known key is within two edits. Durations are an integer and a unit: {@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 1h}, {@code 1d}.
 *
 * <p>{@link #resolve} then checks the file against the cluster configuration (ha.cf nodes,
 * haresources groups) and replaces each job's {@code group} by the canonical group key.
 */
public final class SyncConfigParser {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

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
     * @throws SyncConfigException if the file cannot be read or has any error; it holds every error
     */
    public static SyncConfig parse(Path file) throws SyncConfigException {
        return parse(readText(file), file);
    }

    /**
     * Reads, parses and resolves a file in one step, so that one run reports every problem: those of
     * the file alone and those against the cluster configuration (an unknown group, a node not in
     * ha.cf), the latter for every job and node that parsed.
     *
     * @param file    the sync.yaml path; messages name it as given
     * @param cluster the loaded ha.cf/haresources
     * @return the config, its jobs naming canonical group keys (as {@link #resolve})
     * @throws SyncConfigException if the file cannot be read or has any error; it holds every error
     */
    public static SyncConfig load(Path file, ClusterConfig cluster) throws SyncConfigException {
        SyncConfigReader reader = new SyncConfigReader(file);
        SyncConfig cfg = read(reader, readText(file));
        List<ConfigDiagnostic> problems = new ArrayList<>(reader.problems);
        SyncConfig out = resolve(cfg, cluster, problems);
        if (!problems.isEmpty()) {
            throw new SyncConfigException(file, problems);
        }
        return out;
    }

    private static String readText(Path file) throws SyncConfigException {
        String problem = YamlNodes.notAConfigFile(file);
        if (problem != null) {
            throw new SyncConfigException(file, 0, problem);
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SyncConfigException(file, 0, "no such file; create it or remove the sync configuration");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new SyncConfigException(file, 0, "is not UTF-8 text (a binary or differently encoded file?);"
                    + " write it as plain UTF-8 YAML");
        } catch (IOException e) {
            throw new SyncConfigException(file, 0, "cannot read: " + e.getMessage() + "; check the file's permissions");
        }
    }

    /**
     * Parses sync.yaml text. An empty text (or only comments) is a config with defaults and no jobs.
     *
     * @param text   the YAML text
     * @param source the file name used in messages and stored as {@link SyncConfig#source()}
     * @return the config (jobs' {@code group} as written: call {@link #resolve} next)
     * @throws SyncConfigException with every error of the text, each with its line (a text that is not
     *                             YAML: its first syntax error only)
     */
    public static SyncConfig parse(String text, Path source) throws SyncConfigException {
        SyncConfigReader reader = new SyncConfigReader(source);
        SyncConfig cfg = read(reader, text);
        if (!reader.problems.isEmpty()) {
            throw new SyncConfigException(source, reader.problems);
        }
        return cfg;
    }

    private static SyncConfig read(SyncConfigReader reader, String text) throws SyncConfigException {
        SyncConfig cfg = reader.read(text);
        NODE_LINES.put(cfg, Map.copyOf(reader.nodeLines));
        return cfg;
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
     * @throws SyncConfigException for every unknown or ambiguous group and node mismatch, each with the
     *                             line of the job or of the {@code nodes:} entry
     */
    public static SyncConfig resolve(SyncConfig cfg, ClusterConfig cluster) throws SyncConfigException {
        List<ConfigDiagnostic> problems = new ArrayList<>();
        SyncConfig out = resolve(cfg, cluster, problems);
        if (!problems.isEmpty()) {
            throw new SyncConfigException(cfg.source(), problems);
        }
        return out;
    }

    /** {@link #resolve(SyncConfig, ClusterConfig)}, adding its problems to {@code problems}. */
    private static SyncConfig resolve(SyncConfig cfg, ClusterConfig cluster, List<ConfigDiagnostic> problems) {
        Path src = cfg.source() == null ? Path.of("sync.yaml") : cfg.source();
        Map<String, Integer> nodeLines = NODE_LINES.getOrDefault(cfg, Map.of());
        List<String> keys = cluster.resourceGroups().stream().map(ResourceGroupDecl::key).toList();
        String groupList = keys.isEmpty() ? "haresources has no groups" : "groups: " + String.join(", ", keys);
        List<ReplicationJobSpec> jobs = new ArrayList<>();
        for (ReplicationJobSpec j : cfg.jobs()) {
            String key = j.group();
            if (!keys.contains(j.group())) {
                List<String> owners = cluster.resourceGroups().stream()
                        .filter(g -> g.resources().stream().map(ResourceSpec::token).anyMatch(j.group()::equals))
                        .map(ResourceGroupDecl::key).toList();
                if (owners.isEmpty()) {
                    problems.add(ConfigDiagnostic.error(src, j.line(), "job " + j.name() + ": group [" + j.group()
                            + "] is not a resource group of haresources; write a group key (" + groupList + ")"));
                } else if (owners.size() > 1) {
                    problems.add(ConfigDiagnostic.error(src, j.line(), "job " + j.name() + ": [" + j.group()
                            + "] is a resource of " + owners.size() + " groups (" + String.join(", ", owners)
                            + "); write the group key instead"));
                } else {
                    key = owners.get(0);
                }
            }
            jobs.add(j.withGroup(key));
        }
        Set<String> haNodes = new TreeSet<>();
        cluster.nodes().forEach(n -> haNodes.add(n.value()));
        for (String n : new TreeSet<>(cfg.nodes().keySet())) {
            if (!haNodes.contains(n.toLowerCase(Locale.ROOT))) {
                problems.add(ConfigDiagnostic.error(src, nodeLines.getOrDefault(n, nodeLines.getOrDefault("", 0)),
                        "nodes: [" + n + "] is not a node of ha.cf; use one of " + String.join(", ", haNodes)));
            }
        }
        Optional<ReplicationJobSpec> peerJob = jobs.stream().filter(ReplicationJobSpec::toPeer).findFirst();
        if (peerJob.isPresent()) {
            Set<String> have = new TreeSet<>();
            cfg.nodes().keySet().forEach(n -> have.add(n.toLowerCase(Locale.ROOT)));
            for (String n : haNodes) {
                if (!have.contains(n)) {
                    int line = nodeLines.getOrDefault("", peerJob.get().line());
                    problems.add(ConfigDiagnostic.error(src, line, "nodes: ha.cf node " + n + " has no address, but"
                            + " job " + peerJob.get().name() + " replicates to the peer; add \"" + n
                            + ": ADDRESS\" under nodes:"));
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

}
