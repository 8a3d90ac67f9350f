package org.jheartbeat.cli.command;

import picocli.CommandLine.Command;

/** {@code hb takeover [all|local|foreign|failback]}: take resource groups from the peer (Heartbeat's hb_takeover). */
@Command(name = "takeover", mixinStandardHelpOptions = true,
        description = {"Take resource groups from the peer, as Heartbeat's hb_takeover: all (default), local (this"
                + " node's own), foreign (the peer's), failback (= foreign). The peer goes standby for them; waits"
                + " until they run here."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:refused, cancelled or timed out (reason printed)", "3:no daemon running",
            "4:permission denied", "64:usage error"})
public final class TakeoverCommand extends HandoverCommand {
    @Override
    String verb() {
        return "takeover";
    }
}
