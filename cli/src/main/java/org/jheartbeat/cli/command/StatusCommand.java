package org.jheartbeat.cli.command;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.ExitCodes;
import org.jheartbeat.cli.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code hb status}: asks the running daemon for node, link and resource-group status. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show node statuses, link statuses and where each resource group runs.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:daemon answered", "3:no daemon running", "4:permission denied", "1:other failure"})
public final class StatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
            description = "The daemon's state directory (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Override
    public Integer call() throws Exception {
        ControlResponse r = ControlClient.request(new StateDirectory(stateDir).controlSocket(), "status");
        if (!r.ok()) {
            throw new UserException(ExitCodes.FAILURE, "daemon refused: " + r.error());
        }
        spec.commandLine().getOut().print(r.body());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
