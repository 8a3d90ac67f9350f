package org.jheartbeat.director.check;

import java.io.IOException;

/**
 * {@code service=smtp} and {@code submission} negotiate checks, as ldirectord 4.x
 * {@code check_smtp} (which is up when Perl's Net::SMTP can open a session): the greeting must be
 * 220, then {@code EHLO localhost.localdomain} (Net::SMTP's default name) must be answered 250,
 * falling back to {@code HELO} when EHLO is refused; then {@code QUIT}. Multi-line replies
 * ({@code 250-…}) are read to their last line.
 */
final class SmtpCheck extends SocketCheck {
    static final String HELLO_NAME = "localhost.localdomain";

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            String greeting = reply(c);
            if (!greeting.startsWith("220")) {
                throw new CheckFailure("SMTP greeting is not 220: \"" + quote(greeting) + "\"");
            }
            c.send("EHLO " + HELLO_NAME + "\r\n");
            String ehlo = reply(c);
            if (!ehlo.startsWith("250")) {
                c.send("HELO " + HELLO_NAME + "\r\n");
                String helo = reply(c);
                if (!helo.startsWith("250")) {
                    throw new CheckFailure("SMTP HELO refused: \"" + quote(helo) + "\"");
                }
            }
            c.send("QUIT\r\n");
        }
    }

    /** The last line of one (possibly multi-line, "NNN-") SMTP or FTP reply. */
    static String reply(Conversation c) throws IOException, CheckFailure {
        for (int i = 0; i < 200; i++) {
            String line = c.readLine();
            if (line.length() < 3 || !Character.isDigit(line.charAt(0))) {
                throw new CheckFailure("not a reply line: \"" + quote(line) + "\"");
            }
            if (line.length() == 3 || line.charAt(3) != '-') {
                return line;
            }
        }
        throw new CheckFailure("a reply of more than 200 lines");
    }
}
