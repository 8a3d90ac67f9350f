package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.HostChecks;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigDigest;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ConfigDigestReport;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.stonith.fencing.StonithSetup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hb config ...}: configuration tools. */
@Command(name = "config", description = "Configuration tools.", mixinStandardHelpOptions = true,
        subcommands = {ConfigCommand.Check.class, ConfigCommand.Diff.class, ConfigPushCommand.class})
public final class ConfigCommand extends CommandGroup {
    /**
     * This machine's node name as the daemon decides it ({@link org.jheartbeat.cli.daemon.NodeIdentity}):
     * {@code uname -n}, lowercased, unless that is a host name this machine took over from its peer
     * ({@code Hostname::NAME::hostname=yes}, recorded under {@code /run/jheartbeat/hostname}): then its own
     * name from that record, so that {@code hb config check/push} and {@code hb export} never act as the
     * peer. {@code localhost} if {@code uname -n} is unreadable.
     */
    static NodeName thisNode() {
        String unameN;
        try {
            unameN = org.jheartbeat.cli.daemon.Daemon.unameN();
        } catch (java.io.IOException e) {
            return NodeName.of("localhost");
        }
        return thisNode(unameN, new org.jheartbeat.resources.names.TakenHostNames(
                org.jheartbeat.resources.names.TakenHostNames.DEFAULT_DIR));
    }

    /**
     * @param unameN {@code uname -n} now
     * @param taken  the record of host names taken over from the peer; an unreadable record counts as none
     * @return the own name recorded for {@code unameN} if it was taken from the peer, else {@code unameN}
     *         ({@code localhost} if it is not a valid node name)
     */
    static NodeName thisNode(String unameN, org.jheartbeat.resources.names.TakenHostNames taken) {
        String name = unameN;
        try {
            name = taken.ownNameFor(unameN).orElse(unameN);
        } catch (java.io.IOException e) {
            // the daemon refuses to start on such a record; a tool falls back to uname -n
        }
        try {
            return NodeName.of(name);
        } catch (IllegalArgumentException e) {
            return NodeName.of("localhost");
        }
    }

    /**
     * {@code hb config check}: reads ha.cf, authkeys and haresources and prints every problem as
     * {@code file:line: message}; exit 2 if any is an error, else 0 (warnings are printed too).
     * Unless {@code --syntax-only}, also checks the config against this machine ({@link HostChecks}).
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = "Check ha.cf, authkeys and haresources; print every problem as file:line: message.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:valid (warnings may be printed)", "2:at least one error", "64:usage error"})
    public static final class Check extends NodeCommand {
        @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
                description = "A running daemon's state directory: its STONITH device is asked through it"
                        + " (default: ${DEFAULT-VALUE}).")
        Path stateDir;

        @Option(names = "--syntax-only",
                description = "Skip the checks against this machine (resource scripts, interfaces, own addresses),"
                        + " e.g. to check a config meant for another machine.")
        boolean syntaxOnly;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Optional<NodeName> node;
            try {
                node = nodeName.value().map(NodeName::of);
            } catch (IllegalArgumentException e) {
                err.println("hb: --node-name: " + e.getMessage());
                return ExitCodes.USAGE;
            }
            ConfigLoadResult r = ConfigLoader.load(configDir.path(), node);
            List<ConfigDiagnostic> all = new ArrayList<>(r.diagnostics());
            if (!syntaxOnly && r.config().isPresent()) {
                ClusterConfig c = r.config().get();
                all.addAll(new HostChecks(Path.of("/etc/init.d")).check(c, daemonAnswers(stateDir)));
                NodeName me = node.orElseGet(ConfigCommand::thisNode);
                // the device this node would use, contacted; or, on another machine, every node's, not contacted
                List<NodeName> whom = c.nodes().contains(me) ? List.of(me) : c.nodes();
                if (node.isEmpty() && !c.nodes().contains(me)) {
                    all.add(ConfigDiagnostic.warning(c.configDir().resolve("ha.cf"), 0, "this machine's node name ["
                            + me + "] ('uname -n') is not a node of this cluster, so the daemon would refuse to start"
                            + " here; checked as a config for " + c.nodes() + ". Add 'node " + me + "' or set the host"
                            + " name, or give --node-name to check as one of the nodes"));
                }
                java.util.Set<Integer> seen = new java.util.HashSet<>();
                // a running daemon holds this node's device (a serial UPS line is locked): ask it instead
                Optional<ControlResponse> daemon = whom.size() == 1 && c.stonithFor(me).isPresent()
                        ? StonithCommand.askDaemon(stateDir) : Optional.empty();
                for (NodeName n : whom) {
                    StonithSetup.Outcome o = StonithSetup.open(c, n, whom.size() == 1 && daemon.isEmpty());
                    o.device().ifPresent(org.jheartbeat.stonith.StonithDevice::close);
                    o.problems().stream().filter(d -> seen.add(d.line())).forEach(all::add);
                    if (daemon.isPresent() && !o.failed() && !daemon.get().ok() && o.decl().isPresent()) {
                        all.add(ConfigDiagnostic.error(c.configDir().resolve("ha.cf"), o.decl().get().line(),
                                "STONITH device " + o.decl().get().type() + " does not answer a status request (asked"
                                + " the running daemon, which holds it: " + daemon.get().error() + "); check its"
                                + " cable, power and parameters"));
                    }
                }
            }
            for (ConfigDiagnostic d : all) {
                (d.isError() ? err : out).println(d.format());
            }
            long n = all.stream().filter(ConfigDiagnostic::isError).count();
            // sync.yaml (optional): replication jobs and backups, checked against ha.cf/haresources
            for (String problem : org.jheartbeat.cli.runtime.SyncConfigFile.problems(configDir.path(), r.config())) {
                err.println(problem);
                n++;
            }
            // jheartbeat.yaml (optional): jheartbeat-only settings, the metrics endpoint
            try {
                org.jheartbeat.cli.config.JheartbeatYaml yaml = org.jheartbeat.cli.config.JheartbeatYaml.load(
                        configDir.path(), r.config());
                // authkeys with ha.cf's media and the authkeys: section: where crc may run, the roll-over window
                if (!syntaxOnly && r.config().isPresent()) {
                    for (ConfigDiagnostic d : org.jheartbeat.cli.config.AuthkeysPolicy.check(r.config().get(), yaml,
                            java.time.Instant.now())) {
                        (d.isError() ? err : out).println(d.format());
                        n += d.isError() ? 1 : 0;
                    }
                    // Heartbeat-class scripts this node watches: can their status be read?
                    org.jheartbeat.cli.runtime.WatchedScripts.check(r.config().get(), yaml.watchScripts(),
                            Path.of("/etc/init.d"), new org.jheartbeat.core.exec.OsProcessRunner())
                            .forEach(d -> out.println(d.format()));
                }
            } catch (org.jheartbeat.cli.error.UserException e) {
                err.println(e.getMessage());
                n++;
            }
            if (n > 0) {
                err.println(n + " error(s) in " + configDir.path() + "; fix them before starting the daemon (it refuses"
                        + " every error but a missing resource script, which fails only that script's group).");
                return ExitCodes.CONFIG;
            }
            out.println(configDir.path() + ": configuration OK");
            return ExitCodes.OK;
        }
    }

    /**
     * Whether a daemon answers on {@code stateDir}'s control socket (or something listens there): its media
     * then hold the ports and serial lines a check would otherwise try.
     */
    static boolean daemonAnswers(Path stateDir) {
        try {
            ControlClient.request(new StateDirectory(stateDir).controlSocket(),
                    new org.jheartbeat.core.control.ControlRequest.Status(false));
            return true;
        } catch (ControlClient.NotRunningException e) {
            return false;
        } catch (java.io.IOException e) {
            return true;
        }
    }

    /**
     * {@code hb config diff}: asks the running daemon for its configuration digests and the peer's
     * ({@code jhb-config}, exchanged after comm up) and prints, per file, {@code same}, {@code DIFFERS}
     * or {@code unknown}. With {@code --config-dir}, this node's side is the files in that directory
     * (e.g. edited but not yet running) instead of the daemon's running configuration.
     */
    @Command(name = "diff", mixinStandardHelpOptions = true,
            description = "Compare this node's haresources, authkeys and cluster-relevant ha.cf settings with the"
                    + " peer's, by the digests the daemons exchange; print same, DIFFERS or unknown per file.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:every file is the same on both nodes",
                    "1:a file differs, or the peer sent no digest (not heard yet, not running, or a Heartbeat 3.0.6 node)",
                    "2:--config-dir holds an invalid configuration", "3:no daemon running",
                    "4:permission denied", "64:usage error"})
    public static final class Diff implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        StateDirOption stateDir;

        @Option(names = "--config-dir", paramLabel = "DIR",
                description = "Compare the files in DIR (not the daemon's running configuration) with the peer's.")
        Path configDir;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            ControlResponse r = ControlClient.request(new StateDirectory(stateDir.path()).controlSocket(),
                    new org.jheartbeat.core.control.ControlRequest.ConfigDigest());
            if (!r.ok()) {
                throw new UserException(ExitCodes.FAILURE, "daemon refused: " + r.error());
            }
            ConfigDigestReport report;
            try {
                report = ConfigDigestReport.parse(r.body());
            } catch (IllegalArgumentException e) {
                throw new UserException(ExitCodes.FAILURE, "unexpected answer from the daemon: " + e.getMessage());
            }
            String mine = "this node's running config";
            if (configDir != null) {
                ConfigLoadResult loaded = ConfigLoader.load(configDir, Optional.empty());
                if (loaded.config().isEmpty()) {
                    loaded.diagnostics().stream().filter(ConfigDiagnostic::isError).forEach(d -> err.println(d.format()));
                    err.println("hb: " + configDir + " is not a valid configuration; nothing compared");
                    return ExitCodes.CONFIG;
                }
                report = report.withLocal(ConfigDigest.of(loaded.config().get()));
                mine = configDir.toString();
            }
            String peer = report.peer();
            out.println("Comparing " + mine + " with " + peer + "'s running config:");
            boolean allSame = true;
            for (var e : report.compare().entrySet()) {
                String verdict = switch (e.getValue()) {
                    case SAME -> "same";
                    case DIFFERS -> "DIFFERS";
                    case UNKNOWN -> "unknown (" + peer + " sent no digest \u2014 not heard yet, not running, or a Heartbeat 3.0.6 node?)";
                };
                allSame &= e.getValue() == ConfigDigestReport.Verdict.SAME;
                out.println(String.format("  %-26s %s", e.getKey().displayName(), verdict));
            }
            out.flush();
            return allSame ? ExitCodes.OK : ExitCodes.FAILURE;
        }
    }
}
