package org.jheartbeat.cli.error;

/** A failure to report to the user as one line, with a specific exit code from {@link ExitCodes}. */
public final class UserException extends Exception {
    private final int exitCode;

    public UserException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
