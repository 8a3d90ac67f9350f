package org.jheartbeat.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jheartbeat.cli.command.ClStatusCommand;
import org.jheartbeat.cli.command.DaemonCommand;
import org.jheartbeat.cli.command.StatusCommand;
import org.jheartbeat.core.state.StateDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Entry point of {@code hb} ({@code java -jar hb.jar}). */
public final class Main {
    /** Arguments that print help or the version: never on the daemon's short path (their text needs the full model). */
    private static final Set<String> HELP_OPTIONS = Set.of("-h", "--help", "-V", "--version");
    /**
     * Commands run on a short path (one command's model): the daemon's start, and the commands admins run in
     * loops against a live daemon (issue 16: {@code hb status}, {@code cl_status} within 300 ms).
     */
    private static final Map<String, Supplier<Object>> SHORT_PATHS = Map.of(
            "daemon", DaemonCommand::new,
            "status", StatusCommand::new,
            "cl-status", ClStatusCommand::new);

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        Integer direct = direct(args, out, err);
        if (direct != null) {
            System.exit(direct);
        }
        System.exit((isShortPath(args) ? newShortCommandLine(args[0]) : newCommandLine()).execute(args));
    }

    /** The configured command line: exit-code mapping and parameter-error handling included. */
    public static CommandLine newCommandLine() {
        return configure(new CommandLine(new HbCommand()));
    }

    /**
     * Whether {@code args} start the daemon ({@code hb daemon ...}) without asking for help or the version: then
     * {@link #newDaemonCommandLine} parses and runs them as {@link #newCommandLine} would.
     */
    static boolean isDaemonRun(String[] args) {
        return args.length > 0 && args[0].equals("daemon") && isShortPath(args);
    }

    /**
     * Whether {@code args} run one of the {@link #SHORT_PATHS} commands without asking for help or the version:
     * then {@link #newShortCommandLine} parses and runs them as {@link #newCommandLine} would. For {@code
     * cl-status}, whose own arguments follow {@code --} and may be anything, only the arguments before {@code
     * --} are looked at.
     */
    static boolean isShortPath(String[] args) {
        if (args.length == 0 || !SHORT_PATHS.containsKey(args[0])) {
            return false;
        }
        int end = Arrays.asList(args).indexOf("--");
        return Arrays.stream(args, 0, end < 0 ? args.length : end).noneMatch(HELP_OPTIONS::contains);
    }

    /**
     * {@code hb} with only the subcommand {@code name} (one of {@link #SHORT_PATHS}): picocli then builds the
     * model of one command instead of every command's (issue 13: the daemon's footprint; issue 16: {@code hb
     * status} and {@code cl_status} start in about half the CPU time). Parsing, execution, exit codes and error
     * messages are those of {@link #newCommandLine}; help and version texts are not offered here.
     *
     * @param name {@code daemon}, {@code status} or {@code cl-status}
     * @throws IllegalArgumentException for any other name
     */
    static CommandLine newShortCommandLine(String name) {
        Supplier<Object> command = SHORT_PATHS.get(name);
        if (command == null) {
            throw new IllegalArgumentException("no short path for " + name);
        }
        CommandLine hb = new CommandLine(CommandSpec.create().name("hb"));
        hb.addSubcommand(name, command.get());
        return configure(hb);
    }

    /**
     * {@code hb} with only its {@code daemon} subcommand, for a daemon's start (issue 13: footprint): picocli then
     * builds the model of one command instead of every command's, which saves classes (memory) and start time.
     * Parsing, execution, exit codes and error messages ({@code hb daemon: ...}, {@code Try 'hb daemon --help'})
     * are those of {@link #newCommandLine}; help and version texts are not offered here ({@link #isDaemonRun}).
     */
    static CommandLine newDaemonCommandLine() {
        return newShortCommandLine("daemon");
    }

    private static CommandLine configure(CommandLine cl) {
        cl.setExecutionExceptionHandler(new ExceptionMapper());
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("hb: " + usageMessage(ex));
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            return ExitCodes.USAGE;
        });
        return cl;
    }

    /**
     * picocli's message for a command-line error, made to say what to type for a mistyped command or
     * option: {@code unknown command 'stauts' of hb; did you mean 'status'?} instead of picocli's
     * {@code Unmatched argument at index 0: 'stauts'}.
     */
    static String usageMessage(CommandLine.ParameterException ex) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            List<String> suggestions = u.getSuggestions();
            String hint = suggestions.isEmpty() ? "" : "; did you mean '" + suggestions.get(0) + "'?";
            String name = ex.getCommandLine().getCommandSpec().qualifiedName();
            if (!word.startsWith("-") && !ex.getCommandLine().getSubcommands().isEmpty()) {
                return "unknown command '" + word + "' of " + name + hint;
            }
            if (word.startsWith("-") && !hint.isEmpty()) {
                return "unknown option '" + word + "' of " + name + hint;
            }
        }
        return ex.getMessage();
    }

    /** {@code status} and {@code cl-status} as {@link #direct} understands them. */
    record DirectCall(String command, Path stateDir, boolean json, List<String> clStatusArgs) {
    }

    /**
     * The direct path (issue 16: {@code hb status} and {@code cl_status} run in loops by admins and
     * scripts): the well-formed calls {@code hb status [--state-dir DIR] [--json]} and {@code hb cl-status
     * [--state-dir DIR] -- ARGS...} (the {@code cl_status} wrapper's form), each option at most once, are
     * run without building any picocli model, which costs about as much CPU as the rest of the call.
     * Anything else (help, other options, errors) returns null and goes to picocli, which then gives
     * its usual answer; for these shapes the output and exit code are those of {@link #newCommandLine}.
     *
     * @return the exit code, or null if {@code args} are not of a direct shape (nothing was run)
     */
    static Integer direct(String[] args, PrintWriter out, PrintWriter err) {
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
            return ExceptionMapper.map(e, err);
        }
    }

    /** @return the call, or null if {@code args} are not exactly one of the direct shapes */
    static DirectCall parseDirect(String[] args) {
        if (args.length == 0 || !args[0].equals("status") && !args[0].equals("cl-status")
                || Arrays.stream(args).anyMatch(a -> a.startsWith("@"))) {
            return null; // @-files: picocli expands them
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
