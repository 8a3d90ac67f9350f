package org.jheartbeat.cli.command;

import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.control.ControlRequest;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Shared body of {@code hb standby}, {@code hb takeover} and {@code hb failback}: sends the request
 * over the control socket, waits for the exchange with the peer to end and reports it. Sets follow
 * Heartbeat 3.0.6's {@code hb_standby}/{@code hb_takeover} meanings, relative to this node:
 * {@code local} = groups whose preferred node is this one, {@code foreign} = the peer's, {@code all};
 * {@code failback} means {@code foreign}. Exit {@link ExitCodes#OK} when done,
 * {@link ExitCodes#REFUSED} when the daemon refused at once (nothing changed),
 * {@link ExitCodes#FAILURE} when it failed, was cancelled or timed out.
 */
abstract class HandoverCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Option(names = "--timeout", paramLabel = "S", defaultValue = "60",
            description = "Seconds to wait for the hand-over to finish, 1..3600 (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    /** Standby or takeover. */
    abstract ControlRequest.HandoverKind kind();

    /** The set as the user named it: {@code all|local|foreign|failback}. */
    abstract String set();

    @Override
    public Integer call() throws Exception {
        return HandoverRun.run(spec.name(), kind(), set(), timeoutSeconds, stateDir.path(), spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }
}
