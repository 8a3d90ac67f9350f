package org.jheartbeat.cli.command;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb cleanup [GROUP]}: clears a resource group's failures after the admin repaired it, as
 * Pacemaker's {@code crm_resource --cleanup}: a failed start is forgotten on both nodes, a group
 * blocked by a failed stop is stopped once more, and a group that had failed on both nodes is
 * started by its preferred node (docs/design/takeover.md, "Failures"); the monitor fail counts and
 * latest failures of its resources on this node are forgotten (docs/design/resources.md,
 * "Monitoring"). Also reachable as {@code hb resources cleanup [GROUP]}, the same command.
 */
@Command(name = "cleanup", mixinStandardHelpOptions = true,
        description = {"Clear the failures of a resource group (or of all) on both nodes once it is repaired: a"
                + " failed start is forgotten, a group blocked by a failed stop is stopped again, a group that"
                + " failed on both nodes is started by its preferred node; the monitor fail counts of its resources"
                + " on this node are cleared. Also: hb resources cleanup [GROUP]."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:cleared", "1:failed", "3:no daemon running", "4:permission denied",
            "64:usage error, or no such group (the groups are listed)", "75:refused, nothing changed; try again later"})
public final class CleanupCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Parameters(arity = "0..1", paramLabel = "GROUP",
            description = "The group's key (the first resource of its haresources line) or its number (hb resources"
                    + " list); every group when omitted.")
    String group;

    @Override
    public Integer call() throws Exception {
        if (group != null && !group.matches("[!-~]+")) {
            throw new UserException(ExitCodes.USAGE, "cleanup: GROUP must be one word (a key or a number): " + group);
        }
        ControlResponse r = ControlClient.request(new StateDirectory(stateDir.path()).controlSocket(),
                new ControlRequest.Cleanup(Optional.ofNullable(group)));
        if (!r.ok() && r.error().startsWith(ControlResponse.NO_SUCH_GROUP)) {
            // a group the daemon does not have (an older daemon refuses it): a wrong argument, not "try again later"
            throw new UserException(ExitCodes.USAGE, "cleanup: " + r.error());
        }
        if (r.refused()) {
            throw new UserException(ExitCodes.REFUSED, "cleanup refused: " + r.error());
        }
        if (!r.ok()) {
            throw new UserException(ExitCodes.FAILURE, "cleanup: " + r.error());
        }
        spec.commandLine().getOut().print(r.body());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
