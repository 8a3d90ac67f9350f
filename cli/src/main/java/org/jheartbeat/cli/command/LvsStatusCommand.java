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
        exitCodeList = {"0:printed (the kernel's table, with a note on stderr, when no director runs)",
            "1:the director's answer was an error",
            "3:no director is running and the kernel's table cannot be read (ipvsadm missing, ip_vs not loaded)",
            "64:usage error"})
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
        String noDirector = "no director is running (nothing answers on " + sock + "): start it with 'hb lvs daemon"
                + " CONFIG', or name its config or --socket";
        if (answer == null && !onPath(ipvsadm)) {
            throw new UserException(ExitCodes.NOT_RUNNING, noDirector + "; and " + ipvsadm + " is not installed, so"
                    + " the kernel's table cannot be shown either");
        }
        if (answer == null) {
            try {
                answer = "OK\n" + DirectorDaemon.render(new IpvsadmBackend(ipvsadm, IpvsadmBackendRunner.OS, 1,
                        java.time.Duration.ofMillis(1), java.time.Duration.ofSeconds(10))
                        .status(v, view.connections), v, view.connections, json);
            } catch (BackendException e) {
                // ipvsadm's own words (modprobe, "Can't initialize ipvs") say only that the kernel has no IPVS
                // table: without a director that is the expected state, not a failure to show
                throw new UserException(ExitCodes.NOT_RUNNING, noDirector + "; the kernel's IPVS table cannot be"
                        + " read either (" + reason(e.getMessage()) + ")");
            }
            spec.commandLine().getErr().println("hb: " + noDirector + "; the kernel's IPVS table:");
            spec.commandLine().getErr().flush();
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

    /**
     * The line of a failed ipvsadm run that says why ({@code Can't initialize ipvs: Protocol not available}),
     * without modprobe's lines and ipvsadm's "Are you sure" question.
     *
     * @param failure the backend's message: {@code PROGRAM ARGS failed (exit N): OUTPUT}
     */
    static String reason(String failure) {
        String text = failure.contains("): ") ? failure.substring(failure.indexOf("): ") + 3) : failure;
        return text.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("modprobe")
                && !l.startsWith("Are you sure")).findFirst().orElse(failure.lines().findFirst().orElse(failure));
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
