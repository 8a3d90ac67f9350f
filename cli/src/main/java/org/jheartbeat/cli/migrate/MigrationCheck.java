package org.jheartbeat.cli.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.cli.migrate.MigrationFinding.Severity;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.config.AuthKeysParser;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.HaCf;
import org.jheartbeat.core.config.HaCfParser;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.director.config.LdirectordParser;

/**
 * {@code hb migrate check}: reads a Heartbeat 3.0.6 config directory with the loader the daemon uses ({@link
 * ConfigLoader}), and an ldirectord.cf with the director's parser, and lists what jheartbeat does differently.
 * An error that is a refusal of jheartbeat's (a crm pair, a third node, crc on a network) is a {@code refused}
 * finding; any other error means a file does not parse, and is returned as such (the command exits 2).
 */
public final class MigrationCheck {
    /**
     * @param findings    what behaves differently, ha.cf first, then haresources, then ldirectord.cf
     * @param parseErrors errors that are not findings: a file that does not parse, is missing or is unsafe to read
     * @param ldirectord  the ldirectord.cf that was read, if one was found
     */
    public record Report(List<MigrationFinding> findings, List<ConfigDiagnostic> parseErrors,
                         Optional<Path> ldirectord) {
        public Report {
            findings = List.copyOf(findings);
            parseErrors = List.copyOf(parseErrors);
        }

        /** Whether a finding is unsafe or refused. */
        public boolean fails() {
            return findings.stream().anyMatch(f -> f.severity().fails());
        }
    }

    private MigrationCheck() {
    }

    /**
     * @param configDir   the Heartbeat config directory ({@code /etc/ha.d})
     * @param ldirectords where ldirectord.cf may be, in order; the first that exists is read
     * @param initDir     the init script directory
     * @param probe       a runner for {@code SCRIPT status}, or empty to read the scripts only
     * @return the report; never throws on bad input
     */
    public static Report run(Path configDir, List<Path> ldirectords, Path initDir, Optional<ProcessRunner> probe) {
        ConfigLoadResult loaded = ConfigLoader.load(configDir, Optional.empty());
        List<MigrationFinding> findings = new ArrayList<>();
        Set<Integer> claimed = new HashSet<>();
        Path haCfFile = configDir.resolve(HaCfParser.FILE_NAME);
        Optional<String> haCfText = read(haCfFile);
        List<ResourceGroupDecl> groups = loaded.config().map(ClusterConfig::resourceGroups).orElse(List.of());
        if (haCfText.isPresent()) {
            HaCf haCf = HaCfParser.parse(haCfFile, haCfText.get()).haCf();
            Path authFile = configDir.resolve(AuthKeysParser.FILE_NAME);
            Optional<AuthKeys> keys = read(authFile).flatMap(t -> AuthKeysParser.parse(authFile, t).authKeys());
            List<ConfigDiagnostic> haCfDiagnostics = loaded.diagnostics().stream()
                    .filter(d -> d.file().equals(haCfFile)).toList();
            findings.addAll(HaCfFindings.check(haCfFile, haCfText.get().lines().toList(), haCf, haCfDiagnostics,
                    keys, authFile, claimed));
            if (loaded.config().isEmpty()) {
                // a refused ha.cf keeps the loader from building the config: read the groups on their own
                Path resources = configDir.resolve(HaresourcesParser.FILE_NAME);
                groups = read(resources).map(t -> HaresourcesParser.parse(resources, t, haCf.nodeNames()).groups())
                        .orElse(List.of());
            }
        }
        findings.addAll(new ResourceFindings(configDir, initDir, probe).check(
                configDir.resolve(HaresourcesParser.FILE_NAME), groups));
        List<ConfigDiagnostic> parseErrors = new ArrayList<>(loaded.errors().stream()
                .filter(d -> !(d.file().equals(haCfFile) && claimed.contains(d.line()))).toList());
        Optional<Path> ld = ldirectords.stream().filter(Files::isRegularFile).findFirst();
        ld.ifPresent(file -> {
            for (ConfigDiagnostic d : new LdirectordParser().parse(file).diagnostics()) {
                findings.add(d.isError()
                        ? new MigrationFinding(file, d.line(), Severity.REFUSED, "jheartbeat's director refuses this"
                                + " line: " + d.message(), "change the line as the message says")
                        : new MigrationFinding(file, d.line(), Severity.CHANGES, d.message(), ""));
            }
        });
        return new Report(findings, parseErrors, ld);
    }

    /**
     * Where ldirectord.cf is looked for, in order: {@code DIR/ldirectord.cf}, {@code DIR/conf/ldirectord.cf} (the
     * Debian heartbeat layout), and {@code /etc/ldirectord.cf} when DIR is {@code /etc/ha.d}.
     */
    public static List<Path> ldirectordCandidates(Path configDir) {
        List<Path> out = new ArrayList<>(List.of(configDir.resolve("ldirectord.cf"),
                configDir.resolve("conf/ldirectord.cf")));
        if (configDir.toAbsolutePath().normalize().equals(Path.of("/etc/ha.d"))) {
            out.add(Path.of("/etc/ldirectord.cf"));
        }
        return out;
    }

    private static Optional<String> read(Path file) {
        try {
            return Files.isRegularFile(file) ? Optional.of(Files.readString(file, StandardCharsets.ISO_8859_1))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty(); // the loader reports it
        }
    }
}
