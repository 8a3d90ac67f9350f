package org.jheartbeat.cli.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.runtime.CheckFactory;
import picocli.CommandLine.Command;

/**
 * {@code hb lvs ...}: the load-balancing director (ldirectord.cf, health checks, the IPVS table).
 * The commands are thin: the work is in the {@code director} module. This group owns what its commands
 * share: where a config and its director's control socket are found, reading a config with the checks
 * this build has, and numeric addresses. Each command is its own class ({@link LvsCheckCommand},
 * {@link LvsDaemonCommand}, {@link LvsStatusCommand}, {@link LvsReloadCommand},
 * {@link LvsRealServerCommand}).
 */
@Command(name = "lvs", mixinStandardHelpOptions = true,
        description = "The load-balancing director: ldirectord.cf, health checks and the IPVS table.",
        subcommands = {LvsCheckCommand.class, LvsDaemonCommand.class, LvsStatusCommand.class,
            LvsReloadCommand.class, LvsRealServerCommand.class, LvsSyncdCommand.class})
public final class LvsCommand extends CommandGroup {
    /** Where the control sockets of running directors live. */
    static final Path RUN_DIR = Path.of("/run/jheartbeat");

    /**
     * The config file for a name as ldirectord 4.x finds it: a bare name is looked up as
     * {@code /etc/ha.d/NAME}, then {@code /etc/ha.d/conf/NAME}, then as given; default
     * {@code ldirectord.cf}.
     */
    static Path resolveConfig(String name) {
        return resolveConfig(name, Path.of("/etc/ha.d"));
    }

    /** As {@link #resolveConfig(String)}, looking in {@code configDir} and {@code configDir/conf} instead of /etc/ha.d. */
    static Path resolveConfig(String name, Path configDir) {
        String n = name == null ? "ldirectord.cf" : name;
        if (!n.contains("/")) {
            for (Path p : List.of(configDir.resolve(n), configDir.resolve("conf").resolve(n))) {
                if (Files.isRegularFile(p)) {
                    return p;
                }
            }
        }
        return Path.of(n);
    }

    /** The control socket of the director of a config: {@code /run/jheartbeat/lvs-NAME.sock}. */
    static Path socketFor(Path config) {
        return RUN_DIR.resolve("lvs-" + config.getFileName() + ".sock");
    }

    /**
     * Reads a config and checks that every check it asks for exists in this build and that only root may write it (its
     * commands run as root, {@link org.jheartbeat.core.config.RootFiles}); the problems
     * sorted by line.
     */
    /**
     * Reads a director's config for a command that runs it: prints every diagnostic to {@code err}.
     *
     * @param what what does not start when the file has errors, e.g. {@code "the director"}
     * @return the config, or empty after {@code hb: FILE has errors; WHAT was not started}
     */
    static java.util.Optional<org.jheartbeat.director.config.LdirectordConfig> load(Path path,
            java.io.PrintWriter err, String what) {
        LdirectordParser.Result r = read(path, CheckFactory.standard());
        r.diagnostics().forEach(d -> err.println(d.format()));
        if (r.config().isEmpty()) {
            err.println("hb: " + path + " has errors; " + what + " was not started");
        }
        return r.config();
    }

    static LdirectordParser.Result read(Path file, CheckFactory checks) {
        LdirectordParser.Result r = new LdirectordParser().parse(file);
        List<ConfigDiagnostic> all = new ArrayList<>(r.diagnostics());
        // its fallbackcommand, callback and checkcommand lines run as root
        all.addAll(org.jheartbeat.core.config.RootFiles.check(file, "ldirectord.cf"));
        if (r.config().isEmpty()) {
            all.sort(java.util.Comparator.comparingInt(ConfigDiagnostic::line));
            return new LdirectordParser.Result(r.config(), all);
        }
        for (VirtualService v : r.config().get().virtuals()) {
            if (v.checkType().equals("on") || v.checkType().equals("off")) {
                continue;
            }
            try {
                checks.create(v);
            } catch (IllegalArgumentException e) {
                all.add(ConfigDiagnostic.error(file, v.line(), "virtual " + v.key().address() + ": " + e.getMessage()
                        + "; choose another checktype or service"));
            }
        }
        all.sort(java.util.Comparator.comparingInt(ConfigDiagnostic::line));
        boolean errors = all.stream().anyMatch(ConfigDiagnostic::isError);
        return new LdirectordParser.Result(errors ? java.util.Optional.empty() : r.config(), all);
    }

    /** A numeric address literal (IPv4 dotted quad or IPv6), never looked up in DNS. */
    static java.net.InetAddress numeric(String s) {
        if (!s.matches("\\d{1,3}(\\.\\d{1,3}){3}") && !s.matches("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
            throw new IllegalArgumentException("not a numeric address: " + s);
        }
        try {
            return java.net.InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("not a numeric address: " + s);
        }
    }
}
