package org.jheartbeat.core.config;

/**
 * A time value in a config file that {@link HaDurations#parseMillis(String)} cannot read, such as
 * {@code 2s} or {@code abc}. The message explains Heartbeat's time syntax and is fit for a
 * {@link ConfigDiagnostic}.
 */
public final class InvalidDurationException extends IllegalArgumentException {
    private final String input;

    /**
     * @param input   the text as written in the file
     * @param message why it is not a valid time
     */
    public InvalidDurationException(String input, String message) {
        super(message);
        this.input = input;
    }

    /** The rejected text, as written in the file. */
    public String input() {
        return input;
    }
}
