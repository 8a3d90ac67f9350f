package org.jheartbeat.cli;

import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jheartbeat.cli.command.ClStatusCommand;
import org.jheartbeat.cli.command.DaemonCommand;
import org.jheartbeat.cli.command.StatusCommand;
import org.jheartbeat.cli.error.ExitCodes;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The picocli command lines of {@code hb}: every command's ({@link #newCommandLine}) or one command's
 * ({@link #newShortCommandLine}). Kept out of {@link Main} so that the direct path of {@code hb status}
 * and {@code cl_status} loads and verifies no picocli class (admins and scripts run them in loops: their
 * start time counts).
 */
public final class CommandLines {
    /** Arguments that print help or the version: never on the daemon's short path (their text needs the full model). */
    private static final Set<String> HELP_OPTIONS = Set.of("-h", "--help", "-V", "--version");
    /**
     * Commands run on a short path (one command's model): the daemon's start, and the commands admins run in
     * loops against a live daemon ({@code hb status}, {@code cl_status}: their start time counts).
     */
    private static final Map<String, Supplier<Object>> SHORT_PATHS = Map.of(
            "daemon", DaemonCommand::new,
            "status", StatusCommand::new,
            "cl-status", ClStatusCommand::new);

    private CommandLines() {
    }

    /**
     * Parses and runs {@code args} with picocli: the short path's model when {@link #isShortPath} allows it,
     * else every command's.
     *
     * @return the exit code ({@link ExitCodes})
     */
    static int execute(String[] args) {
        return (isShortPath(args) ? newShortCommandLine(args[0]) : newCommandLine()).execute(args);
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
     * model of one command instead of every command's (less memory for the daemon; {@code hb
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
     * {@code hb} with only its {@code daemon} subcommand, for a daemon's start: picocli then
     * builds the model of one command instead of every command's, which saves classes (memory) and start time.
     * Parsing, execution, exit codes and error messages ({@code hb daemon: ...}, {@code Try 'hb daemon --help'})
     * are those of {@link #newCommandLine}; help and version texts are not offered here ({@link #isDaemonRun}).
     */
    static CommandLine newDaemonCommandLine() {
        return newShortCommandLine("daemon");
    }

    private static CommandLine configure(CommandLine cl) {
        cl.setExecutionExceptionHandler(new ExceptionMapper());
        // picocli lets --help win over a word it does not know (hb UNKNOWN --help printed the top usage, exit 0):
        // the unknown word is the mistake to report, with what to type, exit 64
        cl.setExecutionStrategy(parsed -> {
            for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand()) {
                if (!p.unmatched().isEmpty() && !p.commandSpec().parser().unmatchedArgumentsAllowed()) {
                    throw new CommandLine.UnmatchedArgumentException(p.commandSpec().commandLine(), p.unmatched());
                }
            }
            return new CommandLine.RunLast().execute(parsed);
        });
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
            java.util.List<String> suggestions = u.getSuggestions();
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
}
