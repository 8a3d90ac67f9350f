package org.jheartbeat.cli.command;

import picocli.CommandLine.Command;

/** {@code hb standby [all|local|foreign|failback]}: hand resource groups to the peer (Heartbeat's hb_standby). */
@Command(name = "standby", mixinStandardHelpOptions = true,
        description = {"Hand resource groups to the peer, as Heartbeat's hb_standby: all (default), local (this node's"
                + " own), foreign (the peer's), failback (= foreign). Waits until the peer runs them."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:refused, cancelled or timed out (reason printed)", "3:no daemon running",
            "4:permission denied", "64:usage error"})
public final class StandbyCommand extends HandoverCommand {
    @Override
    String verb() {
        return "standby";
    }
}
