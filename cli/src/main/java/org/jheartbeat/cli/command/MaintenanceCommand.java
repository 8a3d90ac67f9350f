package org.jheartbeat.cli.command;

import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.takeover.Maintenance;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb maintenance on|off|status [--node NODE | --group GROUP]} (docs/design/takeover.md,
 * "Maintenance"), as Pacemaker's {@code maintenance-mode} property and per-node/per-resource
 * {@code maintenance} attribute: while on, jheartbeat neither starts, stops, monitors, takes over nor
 * fails back the groups in scope (beats, membership and fencing go on) and the operator may start and
 * stop their services by hand. Kept in the state directory and sent to the peer. {@code off} probes the
 * groups on both nodes and adopts what runs; it is refused (75) when a group runs on both nodes. An unknown
 * node or group is a usage error (64).
 * {@code status} is the {@code cl_status}-style query: {@code on (why)} or {@code off} on the first line.
 */
@Command(name = "maintenance", mixinStandardHelpOptions = true,
        description = {"Maintenance mode: leave resource groups exactly as they are (no start, stop, monitor,"
                + " takeover or failback; beats, membership and STONITH go on), cluster-wide or for one node or group."
                + " Kept across daemon restarts and known to both nodes. 'off' adopts what runs where it runs and"
                + " starts what runs nowhere on the node it belongs to; it is refused while a group runs on both"
                + " nodes. 'status' prints 'on (why)' or 'off' first."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (or status printed)", "1:failed", "3:no daemon running", "4:permission denied",
            "64:usage error, or a node or group the daemon does not have (its names are listed)",
            "75:refused, nothing changed (a group runs on both nodes, the peer's probe did not answer)"})
public final class MaintenanceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Parameters(index = "0", paramLabel = "on|off|status", description = "Turn maintenance on or off, or show it.")
    String action;

    static final class Scope {
        @Option(names = "--node", paramLabel = "NODE", description = "Only this node: nothing is done to the groups"
                + " on it, and the peer takes none of them over.")
        String node;

        @Option(names = "--group", paramLabel = "GROUP", description = "Only this resource group (its key, the first"
                + " resource of its haresources line, or its number in hb resources list).")
        String group;
    }

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Scope scope;

    @Override
    public Integer call() throws Exception {
        ControlRequest.MaintenanceAction a = switch (action) {
            case "on" -> ControlRequest.MaintenanceAction.ON;
            case "off" -> ControlRequest.MaintenanceAction.OFF;
            case "status" -> ControlRequest.MaintenanceAction.STATUS;
            default -> throw new UserException(ExitCodes.USAGE, "maintenance: '" + action
                    + "' is not on, off or status");
        };
        Maintenance.Scope s = Maintenance.Scope.CLUSTER;
        if (scope != null && scope.node != null) {
            s = new Maintenance.Scope(Maintenance.Kind.NODE, word(scope.node, "--node"));
        } else if (scope != null && scope.group != null) {
            s = new Maintenance.Scope(Maintenance.Kind.GROUP, word(scope.group, "--group"));
        }
        ControlResponse r = ControlClient.request(new StateDirectory(stateDir.path()).controlSocket(),
                new ControlRequest.Maintenance(a, s));
        if (!r.ok() && (r.error().startsWith(ControlResponse.NO_SUCH_GROUP)
                || r.error().startsWith(ControlResponse.NO_SUCH_NODE))) {
            // a name the daemon does not know (an older daemon refuses it): a wrong argument, not "try again later"
            throw new UserException(ExitCodes.USAGE, "maintenance " + action + ": " + r.error());
        }
        if (r.refused()) {
            throw new UserException(ExitCodes.REFUSED, "maintenance " + action + " refused: " + r.error());
        }
        if (!r.ok()) {
            throw new UserException(ExitCodes.FAILURE, "maintenance " + action + ": " + r.error());
        }
        spec.commandLine().getOut().print(r.body());
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }

    private static String word(String v, String option) throws UserException {
        if (!v.matches("[!-~]{1,200}")) {
            throw new UserException(ExitCodes.USAGE, "maintenance: " + option + " takes one word, got '" + v + "'");
        }
        return v;
    }
}
