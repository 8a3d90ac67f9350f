package org.jheartbeat.cli;

import java.util.Arrays;
import java.util.Set;
import org.jheartbeat.cli.command.DaemonCommand;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Entry point of {@code hb} ({@code java -jar hb.jar}). */
public final class Main {
    /** Arguments that print help or the version: never on the daemon's short path (their text needs the full model). */
    private static final Set<String> HELP_OPTIONS = Set.of("-h", "--help", "-V", "--version");

    private Main() {
    }

    public static void main(String[] args) {
        System.exit((isDaemonRun(args) ? newDaemonCommandLine() : newCommandLine()).execute(args));
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
        return args.length > 0 && args[0].equals("daemon") && Arrays.stream(args).noneMatch(HELP_OPTIONS::contains);
    }

    /**
     * {@code hb} with only its {@code daemon} subcommand, for a daemon's start (issue 13: footprint): picocli then
     * builds the model of one command instead of every command's, which saves classes (memory) and start time.
     * Parsing, execution, exit codes and error messages ({@code hb daemon: ...}, {@code Try 'hb daemon --help'})
     * are those of {@link #newCommandLine}; help and version texts are not offered here ({@link #isDaemonRun}).
     */
    static CommandLine newDaemonCommandLine() {
        CommandLine hb = new CommandLine(CommandSpec.create().name("hb"));
        hb.addSubcommand("daemon", new DaemonCommand());
        return configure(hb);
    }

    private static CommandLine configure(CommandLine cl) {
        cl.setExecutionExceptionHandler(new ExceptionMapper());
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("hb: " + ex.getMessage());
            c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            return ExitCodes.USAGE;
        });
        return cl;
    }
}
