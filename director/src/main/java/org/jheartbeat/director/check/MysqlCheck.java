package org.jheartbeat.director.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code service=mysql} negotiate check, reduced: up when the server's first packet is a protocol
 * 10 handshake (the greeting every MySQL and MariaDB server sends on accept); down with the
 * server's message when it is an error packet (e.g. 1040 "Too many connections", 1129 "Host is
 * blocked", 1130 "Host is not allowed to connect"), which are the refusals a balancer must see.
 *
 * <p>ldirectord 4.x logs in through Perl DBI with {@code login}/{@code passwd}/{@code database}
 * and runs {@code request}, wanting at least one row. Doing the same in Java needs a JDBC driver
 * (MySQL's Connector/J is GPL and 2.5 MB, MariaDB's is LGPL and 0.6 MB; neither is among the
 * project's allowed libraries) or a hand-written client of the password exchanges
 * (mysql_native_password, caching_sha2_password with RSA); neither is small enough to be sound
 * here. Use {@code checktype=external} with the {@code mysql} client when the query matters.
 */
final class MysqlCheck extends SocketCheck {
    private static final int MAX_PACKET = 64 * 1024;

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            byte[] header = c.readExactly(4);
            int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
            if (length == 0 || length > MAX_PACKET) {
                throw new CheckFailure("not a MySQL greeting (packet length " + length + ")");
            }
            byte[] payload = c.readExactly(length);
            int kind = payload[0] & 0xff;
            if (kind == 0xff) {
                int code = payload.length >= 3 ? (payload[1] & 0xff) | (payload[2] & 0xff) << 8 : 0;
                int text = payload.length > 3 && payload[3] == '#' ? 9 : 3;
                String message = payload.length > text
                        ? new String(payload, text, payload.length - text, StandardCharsets.UTF_8) : "";
                throw new CheckFailure("MySQL refused the connection: error " + code + " " + quote(message));
            }
            if (kind != 10) {
                throw new CheckFailure("not a MySQL protocol 10 greeting (first byte " + kind + ")");
            }
        }
    }
}
