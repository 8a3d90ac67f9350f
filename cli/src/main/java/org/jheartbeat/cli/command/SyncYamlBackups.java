package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.sync.config.BackupSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Interim reader of the parts of {@code sync.yaml} that {@code hb backup} needs: {@code state_dir}
 * and {@code backups:} (format documented on {@link SyncConfig}). It exists only until the sync
 * module's full parser lands; {@link BackupCommand#loadSyncConfig(Path)} is the one call to switch.
 * Other top-level keys ({@code jobs}, {@code nodes}, {@code ssh}) are not checked here.
 */
final class SyncYamlBackups {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");
    private static final Set<String> KEYS = Set.of("label", "uuid", "device", "mount_point", "paths", "keep", "poll",
            "fsck", "rsync_options");

    private SyncYamlBackups() {
    }

    /**
     * @param file sync.yaml
     * @return the config (no jobs); {@link SyncConfig#empty()} when the file does not exist
     * @throws IOException           if the file cannot be read
     * @throws IllegalArgumentException with every problem, one {@code file: key: message} per line
     */
    static SyncConfig read(Path file) throws IOException {
        Object root;
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
        } catch (NoSuchFileException e) {
            return SyncConfig.empty();
        } catch (YAMLException e) {
            throw new IllegalArgumentException(file + ": not valid YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        List<String> errors = new ArrayList<>();
        Map<?, ?> top = root == null ? Map.of() : root instanceof Map<?, ?> m ? m : null;
        if (top == null) {
            throw new IllegalArgumentException(file + ": the top level must be a mapping");
        }
        Path stateDir = SyncConfig.DEFAULT_STATE_DIR;
        if (top.get("state_dir") != null) {
            stateDir = absolute(file, "state_dir", top.get("state_dir"), errors);
        }
        List<BackupSpec> backups = new ArrayList<>();
        Object b = top.get("backups");
        if (b != null && !(b instanceof Map)) {
            errors.add(file + ": backups: must be a mapping of backup names");
        } else if (b != null) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) b).entrySet()) {
                backup(file, String.valueOf(e.getKey()), e.getValue(), errors).ifPresent(backups::add);
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", errors));
        }
        return new SyncConfig(file, stateDir, SyncConfig.DEFAULT_SSH, Map.of(), List.of(), backups);
    }

    private static Optional<BackupSpec> backup(Path file, String name, Object value, List<String> errors) {
        String at = "backups." + name;
        int before = errors.size();
        if (!NAME.matcher(name).matches()) {
            errors.add(file + ": " + at + ": a backup name may contain only letters, digits, '_', '.' and '-'");
        }
        if (!(value instanceof Map<?, ?> raw)) {
            errors.add(file + ": " + at + ": must be a mapping");
            return Optional.empty();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        raw.forEach((k, v) -> m.put(String.valueOf(k), v));
        m.keySet().stream().filter(k -> !KEYS.contains(k)).sorted()
                .forEach(k -> errors.add(file + ": " + at + "." + k + ": unknown key (known: " + String.join(", ",
                        KEYS.stream().sorted().toList()) + ")"));
        Optional<String> label = Optional.ofNullable(m.get("label")).map(String::valueOf);
        Optional<String> uuid = Optional.ofNullable(m.get("uuid")).map(String::valueOf);
        if (label.isPresent() == uuid.isPresent()) {
            errors.add(file + ": " + at + ": set exactly one of label and uuid");
        }
        Optional<Path> device = m.get("device") == null ? Optional.empty()
                : Optional.ofNullable(absolute(file, at + ".device", m.get("device"), errors));
        Path mountPoint = m.get("mount_point") == null ? null : absolute(file, at + ".mount_point", m.get("mount_point"), errors);
        if (m.get("mount_point") == null) {
            errors.add(file + ": " + at + ".mount_point: required");
        }
        List<Path> paths = new ArrayList<>();
        if (!(m.get("paths") instanceof List<?> l) || l.isEmpty()) {
            errors.add(file + ": " + at + ".paths: required, a non-empty list of absolute directories");
        } else {
            l.forEach(p -> paths.add(absolute(file, at + ".paths", p, errors)));
        }
        int keep = BackupSpec.DEFAULT_KEEP;
        if (m.get("keep") != null) {
            if (m.get("keep") instanceof Integer k && k >= 1) {
                keep = k;
            } else {
                errors.add(file + ": " + at + ".keep: must be a whole number of at least 1, not " + m.get("keep"));
            }
        }
        Duration poll = BackupSpec.DEFAULT_POLL;
        if (m.get("poll") != null) {
            Matcher d = DURATION.matcher(String.valueOf(m.get("poll")));
            if (d.matches() && Long.parseLong(d.group(1)) > 0) {
                long n = Long.parseLong(d.group(1));
                poll = switch (d.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    default -> Duration.ofDays(n);
                };
            } else {
                errors.add(file + ": " + at + ".poll: must be a positive duration like 10s, 2m, 500ms, not " + m.get("poll"));
            }
        }
        boolean fsck = true;
        if (m.get("fsck") != null) {
            if (m.get("fsck") instanceof Boolean f) {
                fsck = f;
            } else {
                errors.add(file + ": " + at + ".fsck: must be true or false");
            }
        }
        List<String> opts = new ArrayList<>();
        if (m.get("rsync_options") != null) {
            if (m.get("rsync_options") instanceof List<?> l) {
                l.forEach(o -> opts.add(String.valueOf(o)));
            } else {
                errors.add(file + ": " + at + ".rsync_options: must be a list");
            }
        }
        if (errors.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new BackupSpec(name, label, uuid, device, mountPoint, paths, keep, poll, fsck, opts, 0));
    }

    private static Path absolute(Path file, String at, Object value, List<String> errors) {
        String s = String.valueOf(value);
        if (!s.startsWith("/")) {
            errors.add(file + ": " + at + ": must be an absolute path, not " + s);
            return null;
        }
        return Path.of(s).normalize();
    }
}
