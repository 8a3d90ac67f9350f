package org.jheartbeat.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jheartbeat.cli.command.ClStatusCommand;
import org.jheartbeat.cli.command.StatusCommand;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.core.state.StateDirectory;

/**
 * Entry point of {@code hb} ({@code java -jar hb.jar}): the direct path of {@code hb status},
 * {@code cl_status}, the daemon's start ({@link DirectDaemon}) and the moves ({@code hb standby|takeover|failback},
 * {@link DirectHandover}) first, else picocli ({@link CommandLines}). This class refers to no picocli type, uses
 * no lambda and no stream, so that a direct call loads and links none of them ({@code hb status}
 * and {@code cl_status} are run in loops by admins and scripts; each class costs JVM start time).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Integer direct = direct(args, out, err);
        if (direct != null) {
            System.exit(direct);
        }
        System.exit(CommandLines.execute(args));
    }

    /** {@code status} and {@code cl-status} as {@link #direct} understands them. */
    record DirectCall(String command, Path stateDir, boolean json, List<String> clStatusArgs) {
    }

    /**
     * The direct path ({@code hb status} and {@code cl_status} run in loops by admins and
     * scripts): the well-formed calls {@code hb status [--state-dir DIR] [--json]} and {@code hb cl-status
     * [--state-dir DIR] -- ARGS...} (the {@code cl_status} wrapper's form), each option at most once, are
     * run without building any picocli model, which costs about as much CPU as the rest of the call.
     * Anything else (help, other options, errors) returns null and goes to picocli, which then gives
     * its usual answer; for these shapes the output and exit code are those of {@link CommandLines#newCommandLine}.
     *
     * @return the exit code, or null if {@code args} are not of a direct shape (nothing was run)
     */
    static Integer direct(String[] args, PrintWriter out, PrintWriter err) {
        DirectDaemon.Call daemon = DirectDaemon.parse(args);
        if (daemon != null) {
            return DirectDaemon.run(daemon, err);
        }
        DirectHandover.Call move = DirectHandover.parse(args);
        if (move != null) {
            return DirectHandover.run(move, out, err);
        }
        DirectCall call = parseDirect(args);
        if (call == null) {
            return null;
        }
        if (call.command().equals("cl-status")) {
            return ClStatusCommand.run(call.stateDir(), call.clStatusArgs(), out, err);
        }
        try {
            out.print(StatusCommand.fetch(new StateDirectory(call.stateDir()).controlSocket(), call.json(), out));
            out.flush();
            return ExitCodes.OK;
        } catch (Exception e) {
            return ErrorMapping.map(e, err);
        }
    }

    /** @return the call, or null if {@code args} are not exactly one of the direct shapes */
    static DirectCall parseDirect(String[] args) {
        if (args.length == 0 || !args[0].equals("status") && !args[0].equals("cl-status")) {
            return null;
        }
        for (String a : args) {
            if (a.startsWith("@")) {
                return null; // @-files: picocli expands them
            }
        }
        boolean cl = args[0].equals("cl-status");
        String dir = null;
        boolean json = false;
        int i = 1;
        for (; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--state-dir") && dir == null && i + 1 < args.length && !args[i + 1].startsWith("-")) {
                dir = args[++i];
            } else if (a.startsWith("--state-dir=") && dir == null) {
                dir = a.substring("--state-dir=".length());
            } else if (a.equals("--json") && !cl && !json) {
                json = true;
            } else if (a.equals("--") && cl) {
                break;
            } else {
                return null;
            }
        }
        if (cl && i >= args.length) {
            return null; // no "--": picocli's parsing of the arguments applies
        }
        Path stateDir;
        try {
            stateDir = Path.of(dir == null ? "/var/lib/jheartbeat" : dir);
        } catch (InvalidPathException e) {
            return null;
        }
        List<String> rest = cl ? List.copyOf(Arrays.asList(args).subList(i + 1, args.length)) : List.of();
        return new DirectCall(args[0], stateDir, json, new ArrayList<>(rest));
    }
}
