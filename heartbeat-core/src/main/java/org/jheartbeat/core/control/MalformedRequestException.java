package org.jheartbeat.core.control;

/**
 * A control-socket request line that {@link ControlRequest#parse(String)} refused. The message is one
 * line of printable ASCII saying what is wrong (it never echoes non-ASCII or control characters), fit
 * to send back as {@code ERR bad request: <reason>} and to log.
 */
public final class MalformedRequestException extends Exception {
    public MalformedRequestException(String reason) {
        super(reason);
    }
}
