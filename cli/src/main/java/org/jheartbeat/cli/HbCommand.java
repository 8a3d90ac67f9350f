package org.jheartbeat.cli;

import org.jheartbeat.cli.command.BackupCommand;
import org.jheartbeat.cli.command.ClStatusCommand;
import org.jheartbeat.cli.command.CleanupCommand;
import org.jheartbeat.cli.command.CommandGroup;
import org.jheartbeat.cli.command.ConfigCommand;
import org.jheartbeat.cli.command.FailbackCommand;
import org.jheartbeat.cli.command.LvsCommand;
import org.jheartbeat.cli.command.MaintenanceCommand;
import org.jheartbeat.cli.command.ReloadCommand;
import org.jheartbeat.cli.command.ReportCommand;
import org.jheartbeat.cli.command.DaemonCommand;
import org.jheartbeat.cli.command.EventsCommand;
import org.jheartbeat.cli.command.ExportCommand;
import org.jheartbeat.cli.command.ResourcesCommand;
import org.jheartbeat.cli.command.StandbyCommand;
import org.jheartbeat.cli.command.StatusCommand;
import org.jheartbeat.cli.command.StonithCommand;
import org.jheartbeat.cli.command.SyncCommand;
import org.jheartbeat.cli.command.TakeoverCommand;
import org.jheartbeat.cli.command.WebCommand;
import picocli.CommandLine.Command;

/** {@code hb}: the jheartbeat command; without a command, its usage on stderr and exit 64. */
@Command(name = "hb", mixinStandardHelpOptions = true, resourceBundle = "org.jheartbeat.cli.HbMessages",
        version = {"jheartbeat 0.1.0 (speaks the Heartbeat 3.0.6 R1 protocol)"},
        description = "Two-node high-availability cluster manager, wire-compatible with Linux-HA Heartbeat 3.0.6.",
        subcommands = {DaemonCommand.class, StatusCommand.class, StandbyCommand.class, TakeoverCommand.class,
            FailbackCommand.class, StonithCommand.class, ConfigCommand.class, ResourcesCommand.class,
            ClStatusCommand.class, SyncCommand.class, BackupCommand.class, CleanupCommand.class,
            ReloadCommand.class, LvsCommand.class, ExportCommand.class, MaintenanceCommand.class,
            EventsCommand.class, ReportCommand.class, WebCommand.class, org.jheartbeat.cli.command.MigrateCommand.class,
            org.jheartbeat.cli.command.SetupCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:runtime failure (medium could not start, I/O error, daemon refused)",
            "2:invalid configuration (each problem printed as file:line: message)",
            "3:no daemon running on this state directory",
            "4:permission denied",
            "64:command-line usage error",
            "75:refused at once by the daemon, nothing changed (standby/takeover/failback while a hand-over is in"
                + " progress); try again later"})
public final class HbCommand extends CommandGroup {
}
