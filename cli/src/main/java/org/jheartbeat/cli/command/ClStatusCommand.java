package org.jheartbeat.cli.command;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.runtime.ClStatus;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb cl-status ARGS…}: Heartbeat 3.0.6's {@code cl_status}, same arguments, output and exit
 * codes (0 OK, 1 node/link dead or daemon stopped, 11 parameter error, 13 unknown error), answered
 * by the running daemon. The {@code cl_status} wrapper script runs this.
 */
@Command(name = "cl-status", description = {"Heartbeat's cl_status: hbstatus, listnodes, nodestatus NODE, nodetype NODE,"
        + " listhblinks NODE, hblinkstatus NODE LINK, rscstatus, hbparameter -p NAME; -m for sentences.",
    "Put -- before arguments that start with '-': hb cl-status -- -m rscstatus (the cl_status wrapper does)."},
        exitCodeListHeading = "%nExit codes (as Heartbeat 3.0.6's cl_status):%n",
        exitCodeList = {"0:OK", "1:node or link dead, or heartbeat not running", "11:parameter error",
            "13:unknown error"})
public final class ClStatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Parameters(arity = "0..*", paramLabel = "ARGS", description = "cl_status arguments.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
        ControlRequest.ClStatus request;
        try {
            request = new ControlRequest.ClStatus(args);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().print(ClStatus.USAGE);
            spec.commandLine().getErr().flush();
            return ClStatus.PARAMETER_ERROR;
        }
        ControlResponse r;
        try {
            r = ControlClient.request(new StateDirectory(stateDir.path()).controlSocket(), request);
        } catch (ControlClient.NotRunningException e) {
            if (args.contains("hbstatus")) {
                spec.commandLine().getOut().println("Heartbeat is stopped on this machine.");
            } else {
                spec.commandLine().getErr().println("Error: heartbeat is not running on this machine");
            }
            return 1;
        } catch (java.io.IOException e) {
            spec.commandLine().getErr().println("Error: " + e.getMessage());
            return 13;
        }
        if (!r.ok()) {
            spec.commandLine().getErr().println("Error: " + r.error());
            return 13;
        }
        String body = r.body();
        int nl = body.indexOf('\n');
        int code = Integer.parseInt(body.substring(0, nl));
        (code == 0 || code == 1 ? spec.commandLine().getOut() : spec.commandLine().getErr()).print(body.substring(nl + 1));
        spec.commandLine().getOut().flush();
        spec.commandLine().getErr().flush();
        return code;
    }
}
