package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.takeover.ResourceSet;

/**
 * The body of {@code hb standby}, {@code hb takeover} and {@code hb failback} ({@link HandoverCommand}), also run
 * without picocli by {@code Main}'s direct path: an operator's hand-over is timed against {@code crm_resource
 * --move}, and building picocli's model costs about as much CPU as the rest of the call. Refers to no picocli
 * type and uses no lambda, so that the direct path loads none of them.
 */
public final class HandoverRun {
    private HandoverRun() {
    }

    /**
     * Sends the hand-over, waits for the daemon's answer and prints it: its body on {@code out} when done, on
     * {@code err} when not.
     *
     * @param name           the command's name, for usage errors: {@code standby}, {@code takeover}, {@code failback}
     * @param kind           standby or takeover
     * @param set            the set as the user named it: {@code all|local|foreign|failback}
     * @param timeoutSeconds how long the daemon waits for the end, in s (1..3600)
     * @param stateDir       the daemon's state directory
     * @return {@link ExitCodes#OK}
     * @throws UserException {@link ExitCodes#USAGE} for an unknown set or timeout, {@link ExitCodes#REFUSED} when
     *         the daemon refused at once (nothing changed), {@link ExitCodes#FAILURE} when it failed, was cancelled
     *         or timed out
     * @throws IOException   when no daemon runs ({@link ControlClient.NotRunningException}) or the socket fails
     */
    public static int run(String name, ControlRequest.HandoverKind kind, String set, int timeoutSeconds, Path stateDir,
                          PrintWriter out, PrintWriter err) throws IOException, UserException {
        Optional<ResourceSet> groups = ResourceSet.fromWire(set);
        if (groups.isEmpty() || groups.get() == ResourceSet.NONE) {
            throw new UserException(ExitCodes.USAGE, name + ": unknown set [" + set
                    + "]; use all, local, foreign or failback");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > ControlRequest.MAX_HANDOVER_TIMEOUT_S) {
            throw new UserException(ExitCodes.USAGE, name + ": --timeout must be 1.."
                    + ControlRequest.MAX_HANDOVER_TIMEOUT_S + " s");
        }
        ControlResponse r = ControlClient.request(new StateDirectory(stateDir).controlSocket(),
                new ControlRequest.Handover(kind, groups.get(), timeoutSeconds));
        String what = kind.wireName() + " " + set;
        if (r.refused()) {
            throw new UserException(ExitCodes.REFUSED, what + " refused: " + r.error());
        }
        if (!r.ok()) {
            err.print(r.body());
            throw new UserException(ExitCodes.FAILURE, what + " not done: " + r.error());
        }
        out.print(r.body());
        out.flush();
        return ExitCodes.OK;
    }
}
