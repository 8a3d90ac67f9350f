package org.jheartbeat.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * picocli's handler of exceptions escaping a command: an exit code and a one-line message (never a stack
 * trace), as {@link ErrorMapping} maps them.
 */
public final class ExceptionMapper implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
        return map(ex, cl.getErr());
    }

    /**
     * Prints {@code hb: MESSAGE} for {@code ex} on {@code err} and returns its exit code ({@link ErrorMapping}).
     */
    static int map(Exception ex, java.io.PrintWriter err) {
        return ErrorMapping.map(ex, err);
    }
}
