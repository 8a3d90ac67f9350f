package org.jheartbeat.director.check;

import java.io.IOException;

/**
 * {@code service=pop} and {@code pops} negotiate checks, as ldirectord 4.x {@code check_pop}: the
 * greeting must be {@code +OK}; when {@code login} is set, {@code USER}/{@code PASS} must both be
 * accepted; then {@code QUIT}. pops speaks TLS from the start: any certificate accepted, or
 * with {@code checkcafile} only a trusted one ({@link CheckTrust}), checked before the login is sent.
 */
final class PopCheck extends SocketCheck {
    private final boolean tls;
    private final CheckTrust trust;

    PopCheck(boolean tls) {
        this(tls, CheckTrust.ANY);
    }

    /** @param trust how the TLS variant trusts the server ({@code checkcafile}); unused without TLS */
    PopCheck(boolean tls, CheckTrust trust) {
        this.tls = tls;
        this.trust = trust;
    }

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        try (Conversation c = tls ? trust.open(target, deadline) : Conversation.open(target.server(), deadline, false, null)) {
            String greeting = c.readLine();
            if (!greeting.startsWith("+OK")) {
                throw new CheckFailure("POP3 greeting is not +OK: \"" + quote(greeting) + "\"");
            }
            String login = target.login().orElse("");
            if (!login.isEmpty()) {
                c.send("USER " + login + "\r\n");
                String user = c.readLine();
                if (!user.startsWith("+OK")) {
                    throw new CheckFailure("POP3 USER " + login + " refused: \"" + quote(user) + "\"");
                }
                c.send("PASS " + target.password().orElse("") + "\r\n");
                String pass = c.readLine();
                if (!pass.startsWith("+OK")) {
                    throw new CheckFailure("POP3 login of " + login + " refused: \"" + quote(pass) + "\"");
                }
            }
            c.send("QUIT\r\n");
        }
    }
}
