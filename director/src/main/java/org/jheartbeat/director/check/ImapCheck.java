package org.jheartbeat.director.check;

import java.io.IOException;

/**
 * {@code service=imap} and {@code imaps} negotiate checks, as ldirectord 4.x {@code check_imap}
 * and {@code check_imaps}: the greeting must be {@code * OK} (or {@code * PREAUTH}); when
 * {@code login} is set, {@code LOGIN} with {@code login}/{@code passwd} must end in a tagged
 * {@code OK}; then {@code LOGOUT}. imaps speaks TLS from the start: any certificate accepted, or
 * with {@code checkcafile} only a trusted one ({@link CheckTrust}), checked before the login is sent.
 */
final class ImapCheck extends SocketCheck {
    private static final int MAX_UNTAGGED = 200;
    private final boolean tls;
    private final CheckTrust trust;

    ImapCheck(boolean tls) {
        this(tls, CheckTrust.ANY);
    }

    /** @param trust how the TLS variant trusts the server ({@code checkcafile}); unused without TLS */
    ImapCheck(boolean tls, CheckTrust trust) {
        this.tls = tls;
        this.trust = trust;
    }

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        try (Conversation c = tls ? trust.open(target, deadline) : Conversation.open(target.server(), deadline, false, null)) {
            String greeting = c.readLine();
            if (!greeting.startsWith("* OK") && !greeting.startsWith("* PREAUTH")) {
                throw new CheckFailure("IMAP greeting is not \"* OK\": \"" + quote(greeting) + "\"");
            }
            String login = target.login().orElse("");
            if (!login.isEmpty()) {
                c.send("a1 LOGIN " + quoted(login) + " " + quoted(target.password().orElse("")) + "\r\n");
                String done = tagged(c, "a1");
                if (!done.startsWith("a1 OK")) {
                    throw new CheckFailure("IMAP login of " + login + " refused: \"" + quote(done) + "\"");
                }
            }
            c.send("a2 LOGOUT\r\n");
        }
    }

    private static String tagged(Conversation c, String tag) throws IOException, CheckFailure {
        for (int i = 0; i < MAX_UNTAGGED; i++) {
            String line = c.readLine();
            if (line.startsWith(tag + " ")) {
                return line;
            }
        }
        throw new CheckFailure("no tagged IMAP answer after " + MAX_UNTAGGED + " lines");
    }

    /** An IMAP quoted string (RFC 3501): backslash and double quote escaped. */
    static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
