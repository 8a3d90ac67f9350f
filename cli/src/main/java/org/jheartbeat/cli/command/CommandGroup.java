package org.jheartbeat.cli.command;

import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What the {@code hb} command groups ({@code hb}, {@code hb sync}, {@code hb backup}, ...) share: called
 * without a command, a group says so ({@code hb sync: a command is required}), prints its usage on
 * standard error and exits {@link ExitCodes#USAGE}. picocli injects the {@link Spec} of a superclass
 * too, so a group only extends this class.
 */
public abstract class CommandGroup implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /**
     * The group called without a command.
     *
     * @return {@link ExitCodes#USAGE}
     */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println(spec.qualifiedName() + ": a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
