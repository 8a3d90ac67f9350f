package org.jheartbeat.cli.command;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.ExitCodes;
import org.jheartbeat.cli.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Shared body of {@code hb standby} and {@code hb takeover}: sends the request over the control
 * socket, waits for the exchange with the peer to end and reports it. Sets follow Heartbeat 3.0.6's
 * {@code hb_standby}/{@code hb_takeover} meanings, relative to this node: {@code local} = groups
 * whose preferred node is this one, {@code foreign} = the peer's, {@code all}; {@code failback}
 * means {@code foreign}.
 */
abstract class HandoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "all", paramLabel = "all|local|foreign|failback",
            description = "Which resource groups (default: ${DEFAULT-VALUE}).")
    String set;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = "/var/lib/jheartbeat",
            description = "The daemon's state directory (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "60",
            description = "Seconds to wait for the hand-over to finish (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    /** {@code standby} or {@code takeover}. */
    abstract String verb();

    @Override
    public Integer call() throws Exception {
        if (!set.matches("all|local|foreign|failback")) {
            throw new UserException(ExitCodes.USAGE, verb() + ": unknown set [" + set
                    + "]; use all, local, foreign or failback");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 3600) {
            throw new UserException(ExitCodes.USAGE, verb() + ": --timeout must be 1..3600 s");
        }
        ControlResponse r = ControlClient.request(new StateDirectory(stateDir).controlSocket(),
                verb() + " " + set + " " + timeoutSeconds);
        if (!r.ok()) {
            spec.commandLine().getErr().print(r.body());
            throw new UserException(ExitCodes.FAILURE, verb() + " " + set + " not done: " + r.error());
        }
        spec.commandLine().getOut().print(r.body());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
