package org.jheartbeat.cli.command;

import org.jheartbeat.core.control.ControlRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code hb takeover [all|local|foreign|failback]}: take resource groups from the peer (Heartbeat's hb_takeover). */
@Command(name = "takeover", mixinStandardHelpOptions = true,
        description = {"Take resource groups from the peer, as Heartbeat's hb_takeover: all (default), local (this"
                + " node's own), foreign (the peer's), failback (= foreign). The peer goes standby for them; waits"
                + " until they run here. Refused at once (exit 75) while a standby or takeover of this node is in"
                + " progress."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:failed, cancelled or timed out (reason printed)", "3:no daemon running",
            "4:permission denied", "64:usage error",
            "75:refused at once, nothing changed (reason printed, e.g. a standby or takeover of this node is in"
                + " progress, resources are in flux, the peer is not alive); try again later"})
public final class TakeoverCommand extends HandoverCommand {
    @Parameters(index = "0", arity = "0..1", defaultValue = "all", paramLabel = "all|local|foreign|failback",
            description = "Which resource groups (default: ${DEFAULT-VALUE}).")
    String set;

    @Override
    ControlRequest.HandoverKind kind() {
        return ControlRequest.HandoverKind.TAKEOVER;
    }

    @Override
    String set() {
        return set;
    }
}
