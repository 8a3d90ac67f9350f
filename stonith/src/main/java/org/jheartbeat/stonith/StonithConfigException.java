package org.jheartbeat.stonith;

/**
 * A device's parameters are missing or wrong (an unknown type, a tty that does not exist, a bad
 * host list). The message is one line for the user: what is wrong and what to do.
 */
public final class StonithConfigException extends Exception {
    public StonithConfigException(String message) {
        super(message);
    }
}
