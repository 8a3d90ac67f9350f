package org.jheartbeat.cli;

import picocli.CommandLine;

/** Entry point of {@code hb} ({@code java -jar hb.jar}). */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line: exit-code mapping and parameter-error handling included. */
    public static CommandLine newCommandLine() {
        CommandLine cl = new CommandLine(new HbCommand());
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
