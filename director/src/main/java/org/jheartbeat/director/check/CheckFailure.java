package org.jheartbeat.director.check;

/**
 * A server that answered, but not as a healthy one does (wrong status, refused login, no match
 * for {@code receive}). Carries the reason shown in the log; never leaves this package: checks
 * turn it into a {@link CheckResult#down down} result.
 */
final class CheckFailure extends Exception {
    private static final long serialVersionUID = 1L;

    CheckFailure(String reason) {
        super(reason, null, false, false);
    }
}
