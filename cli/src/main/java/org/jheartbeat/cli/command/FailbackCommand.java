package org.jheartbeat.cli.command;

import org.jheartbeat.core.control.ControlRequest;
import picocli.CommandLine.Command;

/**
 * {@code hb failback}: give the peer back its own resource groups (for {@code auto_failback off}):
 * a standby of this node's {@code foreign} groups, as Heartbeat 3.0.6's {@code hb_standby failback}.
 * It takes no set argument ({@code hb failback local} is a usage error, exit 64): use
 * {@code hb standby SET} to hand over other groups.
 */
@Command(name = "failback", mixinStandardHelpOptions = true,
        description = {"Give the peer back its own resource groups (for auto_failback off); waits until it runs them."
                + " Takes no set argument: it always means the peer's groups (Heartbeat's hb_standby failback ="
                + " foreign); to hand over others use hb standby all|local|foreign."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:failed, cancelled or timed out (reason printed)", "3:no daemon running",
            "4:permission denied", "64:usage error (e.g. a set argument)",
            "75:refused at once, nothing changed (reason printed, e.g. a standby or takeover of this node is in"
                + " progress, resources are in flux, the peer is not alive); try again later"})
public final class FailbackCommand extends HandoverCommand {
    @Override
    ControlRequest.HandoverKind kind() {
        return ControlRequest.HandoverKind.STANDBY;
    }

    @Override
    String set() {
        return "failback";
    }
}
