package org.jheartbeat.cli.command;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.director.runtime.ControlSocket;
import org.jheartbeat.director.runtime.DirectorDaemon;
import org.jheartbeat.director.table.BackendException;
import org.jheartbeat.director.table.IpvsadmBackend;
import org.jheartbeat.director.table.ListView;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hb lvs status [CONFIG]}: the virtual-service table in ipvsadm's layout (or JSON), asked of the
 * running director over its control socket, or read from the kernel's table with ipvsadm when none runs.
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Print the virtual-service table as 'ipvsadm -L -n' prints it, from the running director"
                + " (or from the table itself when none runs).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "1:the table could not be read",
            "3:no director runs and ipvsadm is not installed", "64:usage error"})
public final class LvsStatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "CONFIG",
            description = "The director's config (to find its socket); default ldirectord.cf.")
    String file;

    @Option(names = "--socket", paramLabel = "PATH", description = "The director's control socket.")
    Path socket;

    @Option(names = "--ipvsadm", paramLabel = "PROGRAM", defaultValue = "ipvsadm",
            description = "ipvsadm, when no director runs (default: ${DEFAULT-VALUE}).")
    String ipvsadm;

    @ArgGroup(exclusive = true)
    ViewOptions view = new ViewOptions();

    @Option(names = "--json", description = "JSON instead of ipvsadm's layout.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        ListView v = view.stats ? ListView.STATS : view.rate ? ListView.RATE : ListView.DEFAULT;
        Path sock = socket != null ? socket : LvsCommand.socketFor(LvsCommand.resolveConfig(file));
        String answer = null;
        if (Files.exists(sock)) {
            try {
                answer = ControlSocket.request(sock, "status " + v.name() + " " + (view.connections ? 1 : 0) + " "
                        + (json ? "json" : "text"), 30_000);
            } catch (java.net.ConnectException | java.nio.file.NoSuchFileException e) {
                answer = null; // a stale socket: read the table itself
            }
        }
        if (answer == null && !onPath(ipvsadm)) {
            throw new UserException(ExitCodes.NOT_RUNNING, "no director answers on " + sock + " and " + ipvsadm
                    + " is not installed, so there is no table to show: start the director (hb lvs daemon CONFIG),"
                    + " name its config or --socket, or install ipvsadm for the kernel's table");
        }
        if (answer == null) {
            try {
                answer = "OK\n" + DirectorDaemon.render(new IpvsadmBackend(ipvsadm, IpvsadmBackendRunner.OS, 1,
                        java.time.Duration.ofMillis(1), java.time.Duration.ofSeconds(10))
                        .status(v, view.connections), v, view.connections, json);
            } catch (BackendException e) {
                throw new UserException(ExitCodes.FAILURE, "cannot read the table: " + e.getMessage());
            }
        }
        if (!answer.startsWith("OK\n")) {
            throw new UserException(ExitCodes.FAILURE, answer.startsWith("ERR ") ? answer.substring(4).strip()
                    : "unexpected answer from the director: " + answer.strip());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(answer.substring(3));
        out.flush();
        return ExitCodes.OK;
    }

    /** The view options of {@code hb lvs status}, as ipvsadm's. */
    static final class ViewOptions {
        @Option(names = "--stats", description = "Totals: connections, packets and bytes in and out.")
        boolean stats;

        @Option(names = "--rate", description = "Rates: connections, packets and bytes per second.")
        boolean rate;

        @Option(names = {"-c", "--connection"}, description = "The connection entries.")
        boolean connections;
    }

    /** Whether {@code program} (a path, or a name looked up in {@code $PATH}) is an executable file. */
    static boolean onPath(String program) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program));
        }
        String path = System.getenv("PATH");
        for (String d : (path == null ? "/usr/sbin:/usr/bin:/sbin:/bin" : path).split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
