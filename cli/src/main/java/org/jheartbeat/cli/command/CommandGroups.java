package org.jheartbeat.cli.command;

import org.jheartbeat.cli.error.ExitCodes;
import picocli.CommandLine.Model.CommandSpec;

/** What the {@code hb} command groups ({@code hb sync}, {@code hb backup}, ...) share. */
public final class CommandGroups {
    private CommandGroups() {
    }

    /**
     * A command group called without a command: says so ({@code hb sync: a command is required}),
     * prints the group's usage on standard error.
     *
     * @param spec the group's command spec
     * @return {@link ExitCodes#USAGE}
     */
    public static int missingCommand(CommandSpec spec) {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
