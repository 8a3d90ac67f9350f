package org.jheartbeat.cli.command;

import picocli.CommandLine.Command;

/**
 * {@code hb failback}: give the peer back its own resource groups (for {@code auto_failback off}):
 * a standby of this node's {@code foreign} groups, as Heartbeat's {@code hb_standby failback}.
 */
@Command(name = "failback", mixinStandardHelpOptions = true,
        description = "Give the peer back its own resource groups (for auto_failback off); waits until it runs them.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:refused, cancelled or timed out (reason printed)", "3:no daemon running",
            "4:permission denied", "64:usage error"})
public final class FailbackCommand extends HandoverCommand {
    @Override
    String verb() {
        return "standby";
    }

    @Override
    public Integer call() throws Exception {
        set = "foreign";
        return super.call();
    }
}
