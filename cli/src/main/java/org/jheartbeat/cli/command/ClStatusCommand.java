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
        return run(stateDir.path(), args, spec.commandLine().getOut(), spec.commandLine().getErr());
    }

    /**
     * The command itself, also run without picocli by {@code Main}'s direct path for the wrapper's
     * {@code cl-status --state-dir DIR -- ARGS}.
     *
     * @param stateDir the daemon's state directory
     * @param args     cl_status's arguments
     * @param out      standard output
     * @param err      standard error
     * @return cl_status's exit code (0, 1, 11, 13)
     */
    public static int run(Path stateDir, List<String> args, java.io.PrintWriter out, java.io.PrintWriter err) {
        ControlRequest.ClStatus request;
        try {
            request = new ControlRequest.ClStatus(args);
        } catch (IllegalArgumentException e) {
            err.print(ClStatus.USAGE);
            err.flush();
            return ClStatus.PARAMETER_ERROR;
        }
        ControlResponse r;
        try {
            r = ControlClient.request(new StateDirectory(stateDir).controlSocket(), request);
        } catch (ControlClient.NotRunningException e) {
            if (args.contains("hbstatus")) {
                out.println("Heartbeat is stopped on this machine.");
                out.flush();
            } else {
                err.println("Error: heartbeat is not running on this machine");
                err.flush();
            }
            return 1;
        } catch (java.io.IOException e) {
            err.println("Error: " + e.getMessage());
            err.flush();
            return 13;
        }
        if (!r.ok()) {
            err.println("Error: " + r.error());
            err.flush();
            return 13;
        }
        String body = r.body();
        int nl = body.indexOf('\n');
        int code = Integer.parseInt(body.substring(0, nl));
        (code == 0 || code == 1 ? out : err).print(body.substring(nl + 1));
        out.flush();
        err.flush();
        return code;
    }
}
