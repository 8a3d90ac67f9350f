package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.control.ControlClient;
import org.jheartbeat.core.control.ControlRequest;
import org.jheartbeat.core.control.ControlResponse;
import org.jheartbeat.core.state.StateDirectory;
import org.jheartbeat.core.time.Sleeper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hb status}: asks the running daemon for nodes, links per medium, resource groups and where
 * they run, fencing state and recent events; {@code --json} prints the documented
 * {@code jheartbeat.status/1} object (see {@code StatusSnapshot.toJson}); {@code --watch} refreshes.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show node statuses, link statuses, where each resource group runs, fencing and recent events.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:daemon answered", "3:no daemon running", "4:permission denied", "1:other failure"})
public final class StatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StateDirOption stateDir;

    @Option(names = "--json", description = "Print one JSON object (schema jheartbeat.status/1); with no daemon"
            + " running: {\"schema\":\"jheartbeat.status/1\",\"running\":false,\"error\":\"...\"} and exit 3.")
    boolean json;

    @Option(names = "--watch", description = "Refresh until interrupted (Ctrl-C), like crm_mon.")
    boolean watch;

    @Option(names = "--interval", paramLabel = "S", defaultValue = "2",
            description = "Seconds between refreshes with --watch (default: ${DEFAULT-VALUE}).")
    int interval;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0", hidden = true,
            description = "Stop --watch after N refreshes (0: never).")
    int count;

    /** The pause between refreshes; a field so tests can record instead of waiting. */
    Sleeper sleeper = Sleeper.system();

    /**
     * The {@code --json} answer when no daemon runs: {@code {"schema":"jheartbeat.status/1",
     * "running":false,"error":"..."}}, on one line.
     */
    static String notRunningJson(String error) {
        return org.jheartbeat.core.control.JsonText.write(g -> {
            g.writeStartObject();
            g.writeStringField("schema", "jheartbeat.status/1");
            g.writeBooleanField("running", false);
            g.writeStringField("error", error);
            g.writeEndObject();
        });
    }

    @Override
    public Integer call() throws Exception {
        if (interval < 1 || interval > 3600) {
            throw new UserException(ExitCodes.USAGE, "--interval must be 1..3600 s");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path socket = new StateDirectory(stateDir.path()).controlSocket();
        for (int i = 1; ; i++) {
            String body = fetch(socket, json, out);
            if (watch && !json && System.console() != null) {
                out.print("\033[H\033[2J");
            }
            out.print(body);
            out.flush();
            if (!watch || count > 0 && i >= count) {
                return ExitCodes.OK;
            }
            sleeper.pause(Duration.ofSeconds(interval));
        }
    }

    /**
     * One status request: the command's core, also run without picocli by {@code Main}'s direct path
     * for {@code hb status [--state-dir DIR] [--json]}.
     *
     * @param socket the daemon's control socket
     * @param json   ask for the {@code jheartbeat.status/1} object
     * @param out    standard output, for the not-running object of {@code json}
     * @return the answer to print
     * @throws ControlClient.NotRunningException if no daemon listens (with {@code json}, the
     *         not-running object was printed first)
     * @throws UserException if the daemon refused (exit {@link ExitCodes#FAILURE})
     * @throws java.io.IOException if the socket cannot be used
     */
    public static String fetch(Path socket, boolean json, PrintWriter out) throws java.io.IOException, UserException {
        ControlResponse r;
        try {
            r = ControlClient.request(socket, new ControlRequest.Status(json));
        } catch (ControlClient.NotRunningException e) {
            if (json) {
                // a script reading --json gets an object in every case, still with exit 3
                out.println(notRunningJson(e.getMessage()));
                out.flush();
            }
            throw e;
        }
        if (!r.ok()) {
            throw new UserException(ExitCodes.FAILURE, "daemon refused: " + r.error());
        }
        return r.body();
    }
}
