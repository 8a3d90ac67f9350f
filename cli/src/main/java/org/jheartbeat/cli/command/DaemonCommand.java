package org.jheartbeat.cli.command;

import java.util.Optional;
import org.jheartbeat.cli.daemon.Daemon;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code hb daemon}: runs a cluster node in the foreground until SIGTERM/SIGINT, then releases its
 * resource groups, tells the peer ({@code shutdone}) and exits. Parses the options and runs a
 * {@link Daemon}; its {@link UserException}s become exit codes and one-line
 * messages in {@link org.jheartbeat.cli.ExceptionMapper}.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = "Run this cluster node in the foreground (stop it with SIGTERM).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped cleanly", "1:could not start (state directory, already running)",
            "2:invalid configuration, or a medium or watchdog device of ha.cf this machine cannot open (its file:line"
                + " printed)",
            "64:usage error"})
public final class DaemonCommand extends NodeCommand {
    @Mixin
    StateDirOption stateDir;

    @Option(names = "--debug", description = "Also print debug lines on standard error.")
    boolean debug;

    @Option(names = "--self-fence-command", paramLabel = "CMD",
            description = {"Reset this node by running CMD (sh -c) when a resource cannot be stopped (Heartbeat's"
                    + " reboot after a failed stop), e.g. 'systemctl reboot --force --force'. The peer then starts the"
                    + " group once this node is gone. Default: no self-fencing; the group stays blocked here and the"
                    + " peer fences this node if it has a STONITH device (docs/design/takeover.md, \"Failures\")."})
    String selfFenceCommand;

    @Override
    public Integer call() throws Exception {
        if (selfFenceCommand != null && selfFenceCommand.isBlank()) {
            // an empty CMD would be run by sh -c as "nothing" when the node must reset itself
            throw new UserException(ExitCodes.USAGE, "--self-fence-command is"
                    + " empty: give the command that resets this node, e.g. 'systemctl reboot --force --force',"
                    + " or leave the option out");
        }
        return new Daemon(new Daemon.Options(configDir.path(), stateDir.path(), nodeName.value(), debug,
                Optional.ofNullable(selfFenceCommand)),
                spec.commandLine().getErr()).run();
    }
}
