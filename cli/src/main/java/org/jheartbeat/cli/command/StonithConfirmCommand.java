package org.jheartbeat.cli.command;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.stonith.device.meatware.MeatwareDevice;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb stonith confirm NODE}: the operator's answer to the meatware device ("OPERATOR
 * INTERVENTION REQUIRED"): NODE has been power-cycled by hand, the daemon may take over. As
 * cluster-glue's {@code meatclient -c NODE}.
 */
@Command(name = "confirm", mixinStandardHelpOptions = true,
        description = "Confirm that NODE was power-cycled by hand (answers the meatware STONITH device).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:confirmed", "1:no reset of NODE is waiting", "64:usage error"})
public final class StonithConfirmCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NODE", description = "The node you power-cycled.")
    String node;

    @Option(names = "--run-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
            description = "Where the meatware device waits for the answer (default: ${DEFAULT-VALUE}).")
    Path runDir;

    @Override
    public Integer call() throws Exception {
        try {
            MeatwareDevice.confirmByFile(runDir, node);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new UserException(ExitCodes.FAILURE, e.getMessage());
        }
        spec.commandLine().getOut().println("Confirmed: " + node + " was reset by the operator.");
        return ExitCodes.OK;
    }
}
