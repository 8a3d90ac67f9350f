package org.jheartbeat.cli.command;

import org.jheartbeat.core.control.ControlRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hb standby [all|local|foreign|failback]}: hand resource groups to the peer (Heartbeat's hb_standby). */
@Command(name = "standby", mixinStandardHelpOptions = true,
        description = {"Hand resource groups to the peer, as Heartbeat's hb_standby: all (default), local (this node's"
                + " own), foreign (the peer's), failback (= foreign). Waits until the peer runs them. Refused at once"
                + " (exit 75) while a standby or takeover of this node is in progress."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:failed, cancelled or timed out (reason printed)", "3:no daemon running",
            "4:permission denied", "64:usage error",
            "75:refused at once, nothing changed (reason printed, e.g. a standby or takeover of this node is in"
                + " progress, resources are in flux, the peer is not alive); try again later"})
public final class StandbyCommand extends HandoverCommand {
    @Parameters(index = "0", arity = "0..1", defaultValue = "all", paramLabel = "all|local|foreign|failback",
            description = "Which resource groups (default: ${DEFAULT-VALUE}).")
    String set;

    @Override
    ControlRequest.HandoverKind kind() {
        return ControlRequest.HandoverKind.STANDBY;
    }

    @Override
    String set() {
        return set;
    }
}
