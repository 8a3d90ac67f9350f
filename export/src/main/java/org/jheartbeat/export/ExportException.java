package org.jheartbeat.export;

/**
 * The export cannot be made from what was given (e.g. a node's address on a link is nowhere to be
 * found); the message says what is missing and what to pass.
 */
public final class ExportException extends Exception {
    private static final long serialVersionUID = 1L;

    public ExportException(String message) {
        super(message);
    }
}
