package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.ConfigLoadResult;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.fencing.StonithSetup;
import org.jheartbeat.stonith.registry.StonithDevices;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hb stonith ...}: the fencing devices, by hand. */
@Command(name = "stonith", mixinStandardHelpOptions = true, description = "STONITH (fencing) devices by hand.",
        subcommands = {StonithCommand.ListTypes.class, StonithCommand.Status.class, StonithCommand.Reset.class,
            StonithCommand.Off.class, StonithCommand.On.class, StonithConfirmCommand.class})
public final class StonithCommand extends CommandGroup {
    /** {@code hb stonith list-types}: every device type this machine can use. */
    @Command(name = "list-types", mixinStandardHelpOptions = true,
            description = "List the STONITH device types (built-in, cluster-glue external plugins, fence agents found here).")
    public static final class ListTypes implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            StonithDevices.types().forEach(spec.commandLine().getOut()::println);
            return ExitCodes.OK;
        }
    }

    /** Options shared by the commands that open this node's device. */
    abstract static class DeviceCommand extends NodeCommand {
        /** The device ha.cf gives this node. @throws UserException when none, or it is broken */
        StonithDevice openDevice(boolean checkStatus) throws Exception {
            NodeName me = NodeName.of(nodeName.value().isPresent() ? nodeName.value().get() : org.jheartbeat.cli.daemon.Daemon.unameN());
            ConfigLoadResult r = ConfigLoader.load(configDir.path(), Optional.of(me));
            if (r.config().isEmpty()) {
                r.diagnostics().stream().filter(ConfigDiagnostic::isError)
                        .forEach(d -> spec.commandLine().getErr().println(d.format()));
                throw new UserException(ExitCodes.CONFIG, "configuration errors in " + configDir.path());
            }
            ClusterConfig config = r.config().get();
            StonithSetup.Outcome o = StonithSetup.open(config, me, checkStatus);
            if (o.failed()) {
                o.problems().forEach(d -> spec.commandLine().getErr().println(d.format()));
                throw new UserException(ExitCodes.CONFIG, "the STONITH device of " + me + " cannot be used");
            }
            return o.device().orElseThrow(() -> new UserException(ExitCodes.CONFIG, "no STONITH device for " + me
                    + " in " + configDir.path().resolve("ha.cf") + " (stonith or stonith_host)"));
        }
    }

    /**
     * {@code hb stonith status}: asks this node's device whether it answers; when the daemon runs (it
     * holds the device, e.g. a locked serial line), the daemon asks its own device.
     */
    @Command(name = "status", mixinStandardHelpOptions = true, description = "Check that this node's STONITH device"
            + " answers (through the running daemon, which holds the device, when there is one).")
    public static final class Status extends DeviceCommand {
        @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
                description = "The daemon's state directory, asked first (default: ${DEFAULT-VALUE}).")
        Path stateDir;

        @Override
        public Integer call() throws Exception {
            java.util.Optional<org.jheartbeat.core.control.ControlResponse> viaDaemon = askDaemon(stateDir);
            if (viaDaemon.isPresent()) {
                org.jheartbeat.core.control.ControlResponse r = viaDaemon.get();
                spec.commandLine().getOut().println((r.ok() ? r.body().trim() : r.error())
                        + " (asked the running daemon, which holds the device)");
                return r.ok() ? ExitCodes.OK : ExitCodes.FAILURE;
            }
            try (StonithDevice d = openDevice(false)) {
                StonithResult st = d.status();
                spec.commandLine().getOut().println(d.type() + ": " + st + "; can fence " + d.hostList());
                return st.ok() ? ExitCodes.OK : ExitCodes.FAILURE;
            }
        }
    }

    /**
     * The running daemon's answer to {@code stonith-status}, or empty when no daemon answers on
     * {@code stateDir} (then the caller opens the device itself).
     */
    static java.util.Optional<org.jheartbeat.core.control.ControlResponse> askDaemon(Path stateDir) {
        try {
            return java.util.Optional.of(org.jheartbeat.core.control.ControlClient.request(
                    new org.jheartbeat.core.state.StateDirectory(stateDir).controlSocket(),
                    new org.jheartbeat.core.control.ControlRequest.StonithStatus()));
        } catch (java.io.IOException e) {
            return java.util.Optional.empty();
        }
    }

    /** Shared body of reset/off/on: confirmation, then the request. */
    abstract static class PowerCommand extends DeviceCommand {
        @Parameters(index = "0", paramLabel = "NODE", description = "The node to act on.")
        String node;

        @Option(names = "--yes", description = "Do not ask for confirmation.")
        boolean yes;

        abstract ResetRequest request();

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            String target = NodeName.of(node).value();
            if (!yes) {
                java.io.Console console = System.console();
                if (console == null) {
                    throw new UserException(ExitCodes.USAGE, "refusing to " + request().word() + " " + target
                            + " without confirmation: no terminal; add --yes");
                }
                String answer = console.readLine("Really %s node %s? Type its name to confirm: ", request().word(), target);
                if (!target.equals(answer == null ? "" : answer.strip())) {
                    throw new UserException(ExitCodes.FAILURE, "not confirmed; nothing done");
                }
            }
            try (StonithDevice d = openDevice(false)) {
                StonithResult r = d.reset(request(), target);
                out.println(d.type() + " " + request().word() + " " + target + ": " + r);
                return r.ok() ? ExitCodes.OK : ExitCodes.FAILURE;
            }
        }
    }

    /** {@code hb stonith reset NODE}. */
    @Command(name = "reset", mixinStandardHelpOptions = true, description = "Power-cycle NODE through this node's device.")
    public static final class Reset extends PowerCommand {
        @Override
        ResetRequest request() {
            return ResetRequest.GENERIC_RESET;
        }
    }

    /** {@code hb stonith off NODE}. */
    @Command(name = "off", mixinStandardHelpOptions = true, description = "Switch NODE's power off.")
    public static final class Off extends PowerCommand {
        @Override
        ResetRequest request() {
            return ResetRequest.POWER_OFF;
        }
    }

    /** {@code hb stonith on NODE}. */
    @Command(name = "on", mixinStandardHelpOptions = true, description = "Switch NODE's power on.")
    public static final class On extends PowerCommand {
        @Override
        ResetRequest request() {
            return ResetRequest.POWER_ON;
        }
    }
}
