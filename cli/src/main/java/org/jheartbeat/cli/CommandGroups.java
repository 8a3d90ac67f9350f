package org.jheartbeat.cli;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import org.jheartbeat.cli.error.ExitCodes;
import picocli.CommandLine.Model.CommandSpec;

/** What the {@code hb} command groups ({@code hb sync}, {@code hb backup}, ...) share. */
public final class CommandGroups {
    /**
     * Local time to the second ({@code yyyy-MM-dd HH:mm:ss}, the system zone): how the command
     * lines print job and backup times, next to {@code hb status}'s event times.
     */
    public static final DateTimeFormatter LOCAL_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

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
