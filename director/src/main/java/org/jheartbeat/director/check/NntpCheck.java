package org.jheartbeat.director.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code service=nntp} negotiate check, as ldirectord 4.x {@code check_nntp}: up when the first
 * bytes the server sends (at most 64) start with {@code 2} (200/201 greeting).
 */
final class NntpCheck extends SocketCheck {
    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            byte[] first = c.readSome(64);
            String greeting = new String(first, StandardCharsets.ISO_8859_1);
            if (!greeting.startsWith("2")) {
                throw new CheckFailure(first.length == 0 ? "NNTP server closed without a greeting"
                        : "NNTP greeting does not start with 2: \"" + quote(greeting) + "\"");
            }
            c.send("QUIT\r\n");
        }
    }
}
