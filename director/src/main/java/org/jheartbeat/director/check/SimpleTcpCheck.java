package org.jheartbeat.director.check;

import java.io.IOException;
import java.util.regex.Pattern;

/**
 * {@code service=simpletcp} negotiate check, as ldirectord 4.x {@code check_simpletcp}: sends
 * {@code request} (without ldirectord's leading {@code /}, with each two-character {@code \n}
 * turned into a newline), half-closes the connection, then reads lines until one contains a
 * match of {@code receive} (a regex; empty matches any line). Up to {@value #MAX_LINES} lines.
 */
final class SimpleTcpCheck extends SocketCheck {
    static final int MAX_LINES = 10_000;

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        Pattern receive = receivePattern(target);
        String request = requestWithoutSlash(target).replace("\\n", "\n");
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            c.send(request);
            c.shutdownOutput();
            int lines = 0;
            String line;
            while ((line = c.readLineOrNull()) != null && lines++ < MAX_LINES) {
                if (receive == null || receive.matcher(line).find()) {
                    return;
                }
            }
            throw new CheckFailure(lines == 0 ? "the server closed without answering"
                    : "no line of the answer matches receive \"" + (receive == null ? "" : receive.pattern()) + "\"");
        }
    }
}
