package org.jheartbeat.core.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a whole config directory ({@code /etc/ha.d}): {@code ha.cf}, {@code authkeys} (contents and
 * owner/mode) and {@code haresources}, then runs {@link ConfigValidator}. Every problem of every file
 * is collected; loading does not stop at the first. Used by daemon start and by {@code hb config check}.
 */
public final class ConfigLoader {
    private ConfigLoader() {
    }

    /**
     * Loads and validates a config directory.
     * <ul>
     *   <li>missing ha.cf or authkeys: ERROR on line 0 of that file (cross-field rules are skipped
     *       without an ha.cf, as they would only repeat its absence);</li>
     *   <li>missing haresources: a WARNING and no resource groups (a cluster that only heartbeats);</li>
     *   <li>authkeys is parsed and also checked with {@link AuthKeysParser#checkSecurity(Path)};</li>
     *   <li>the files whose contents run as root must be writable by root only ({@link RootFiles});</li>
     *   <li>I/O errors become diagnostics; this method never throws on bad input.</li>
     * </ul>
     *
     * @param configDir the directory holding the three files
     * @param localNode this machine's node name if known; it must then be an ha.cf {@code node}
     * @return the config (only when there is no ERROR), every diagnostic, and the applied defaults
     */
    public static ConfigLoadResult load(Path configDir, Optional<NodeName> localNode) {
        List<ConfigDiagnostic> diagnostics = new ArrayList<>();
        if (!Files.isDirectory(configDir)) {
            diagnostics.add(ConfigDiagnostic.error(configDir, 0,
                    "config directory does not exist or is not a directory; pass --config-dir DIR"));
            return new ConfigLoadResult(Optional.empty(), diagnostics);
        }
        Path haCfFile = configDir.resolve(HaCfParser.FILE_NAME);
        Path authFile = configDir.resolve(AuthKeysParser.FILE_NAME);
        Path resourcesFile = configDir.resolve(HaresourcesParser.FILE_NAME);

        Optional<HaCf> haCf = ConfigText.read(haCfFile, StandardCharsets.UTF_8, diagnostics).map(text -> {
            HaCfParser.Result parsed = HaCfParser.parse(haCfFile, text);
            diagnostics.addAll(parsed.diagnostics());
            return parsed.haCf();
        });

        List<ConfigDiagnostic> authReadProblems = new ArrayList<>();
        AuthKeysParser.Result auth = ConfigText.read(authFile, StandardCharsets.ISO_8859_1, authReadProblems)
                .map(text -> AuthKeysParser.parse(authFile, text))
                .orElse(new AuthKeysParser.Result(Optional.empty(), authReadProblems));
        diagnostics.addAll(auth.diagnostics());
        if (Files.isRegularFile(authFile)) {
            // a directory (or device) in its place was reported by the read: its mode is no second problem
            diagnostics.addAll(AuthKeysParser.checkSecurity(authFile));
        }

        diagnostics.addAll(RootFiles.checkConfigDir(configDir));

        List<ResourceGroupDecl> groups = List.of();
        if (Files.exists(resourcesFile) || Files.isSymbolicLink(resourcesFile)) {
            List<NodeName> nodes = haCf.map(HaCf::nodeNames).orElse(List.of());
            Optional<HaresourcesParser.Result> parsed = ConfigText.read(resourcesFile, StandardCharsets.UTF_8,
                    diagnostics).map(text -> HaresourcesParser.parse(resourcesFile, text, nodes));
            parsed.ifPresent(r -> diagnostics.addAll(r.diagnostics()));
            groups = parsed.map(HaresourcesParser.Result::groups).orElse(List.of());
        } else {
            diagnostics.add(ConfigDiagnostic.warning(resourcesFile, 0,
                    "haresources not found: no resource groups are configured"));
        }

        if (haCf.isEmpty()) {
            return new ConfigLoadResult(Optional.empty(), diagnostics);
        }
        ConfigValidator.Result checked = ConfigValidator.validate(haCf.get(), auth, authFile, localNode);
        diagnostics.addAll(checked.diagnostics());
        boolean errors = diagnostics.stream().anyMatch(ConfigDiagnostic::isError);
        Optional<ClusterConfig> config = errors ? Optional.empty() : Optional.of(new ClusterConfig(configDir,
                checked.timing(), haCf.get().udpPort(), haCf.get().nodeNames(), haCf.get().media(),
                checked.failback(), haCf.get().logging(), auth.authKeys().orElseThrow(), groups, haCf.get().stonith(),
                new PingSettings(haCf.get().pingNodes(), haCf.get().deadpingMs()
                        .map(d -> java.time.Duration.ofMillis(d.value())).orElse(checked.timing().deadtime()),
                        haCf.get().ipfailLine().isPresent(), nodeTable(haCf.get())),
                haCf.get().watchdog().map(HaCf.Setting::value)));
        return new ConfigLoadResult(config, diagnostics, checked.defaults());
    }

    /** Cluster and ping node names in ha.cf line order (stable within a line); empty without ping nodes. */
    private static List<String> nodeTable(HaCf haCf) {
        if (haCf.pingNodes().isEmpty()) {
            return List.of();
        }
        record Entry(int line, String name) { }
        List<Entry> all = new ArrayList<>();
        haCf.nodes().forEach(n -> all.add(new Entry(n.line(), n.name().value())));
        haCf.pingNodes().forEach(p -> all.add(new Entry(p.line(), p.name())));
        all.sort(java.util.Comparator.comparingInt(Entry::line));
        return all.stream().map(Entry::name).toList();
    }
}
