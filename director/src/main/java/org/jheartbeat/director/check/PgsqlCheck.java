package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code service=pgsql} negotiate check, reduced: sends a protocol 3.0 StartupMessage for user
 * {@code login} (default {@code postgres}) and {@code database} (default: the user) and is up
 * when the server asks for a password ({@code R} with a method) or waives it ({@code R 0},
 * AuthenticationOk) and then opens the database ({@code Z}, ReadyForQuery); down with the
 * server's message when it
 * answers with an error ({@code E}: e.g. 57P03 "the database system is starting up", 53300 "too
 * many connections", 3D000 "database does not exist", 28000 "no pg_hba.conf entry"). The
 * session is then closed with a Terminate message; no password is sent and no query is run.
 *
 * <p>ldirectord 4.x logs in through Perl DBI and runs {@code request}, wanting at least one row;
 * the same in Java needs the PostgreSQL JDBC driver (1 MB, not among the project's allowed
 * libraries) or a SCRAM-SHA-256 client. Use {@code checktype=external} with {@code psql} when the
 * query matters.
 */
final class PgsqlCheck extends SocketCheck {
    private static final int MAX_MESSAGE = 64 * 1024;
    /** Messages read after AuthenticationOk before ReadyForQuery (PostgreSQL 15 sends about 16). */
    static final int MAX_STARTUP_MESSAGES = 200;

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        String user = target.login().filter(l -> !l.isEmpty()).orElse("postgres");
        String database = target.database().filter(d -> !d.isEmpty()).orElse(user);
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            c.send(startup(user, database));
            byte[] body = read(c, 'R');
            if (authCode(body) == 0) {
                // AuthenticationOk (trust): the server only now opens the database, and says so
                // with ReadyForQuery, or with an error (a real PostgreSQL 15 answers a missing
                // database this way: R 0, then E 3D000)
                for (int i = 0;; i++) {
                    if (i >= MAX_STARTUP_MESSAGES) {
                        throw new CheckFailure("no ReadyForQuery after " + MAX_STARTUP_MESSAGES + " PostgreSQL messages");
                    }
                    char[] type = new char[1];
                    readAny(c, type);
                    if (type[0] == 'Z') {
                        break;
                    }
                }
            }
            c.send(new byte[] {'X', 0, 0, 0, 4});
        }
    }

    /**
     * One message, which must be of {@code wanted} type.
     *
     * @throws CheckFailure with the server's text for an ErrorResponse, or when the message is of
     *                      another type or its length is out of bounds
     */
    private static byte[] read(Conversation c, char wanted) throws IOException, CheckFailure {
        char[] type = new char[1];
        byte[] body = readAny(c, type);
        if (type[0] != wanted) {
            throw new CheckFailure("not a PostgreSQL authentication answer (type '" + type[0] + "')");
        }
        return body;
    }

    /** One message (its type into {@code type[0]}); an ErrorResponse is thrown as the failure. */
    private static byte[] readAny(Conversation c, char[] type) throws IOException, CheckFailure {
        byte[] head = c.readExactly(5);
        type[0] = (char) (head[0] & 0xff);
        int length = ((head[1] & 0xff) << 24) | ((head[2] & 0xff) << 16) | ((head[3] & 0xff) << 8) | (head[4] & 0xff);
        if (length < 4 || length > MAX_MESSAGE) {
            throw new CheckFailure("not a PostgreSQL answer (type " + (int) type[0] + ", length " + length + ")");
        }
        byte[] body = c.readExactly(length - 4);
        if (type[0] == 'E') {
            throw new CheckFailure("PostgreSQL refused: " + errorText(body));
        }
        return body;
    }

    /** The authentication request's code (0: AuthenticationOk), or -1 if the body is too short. */
    private static int authCode(byte[] body) {
        return body.length < 4 ? -1
                : ((body[0] & 0xff) << 24) | ((body[1] & 0xff) << 16) | ((body[2] & 0xff) << 8) | (body[3] & 0xff);
    }

    static byte[] startup(String user, String database) {
        ByteArrayOutputStream params = new ByteArrayOutputStream();
        for (String s : new String[] {"user", user, "database", database, "application_name", "jheartbeat-check"}) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            params.write(b, 0, b.length);
            params.write(0);
        }
        params.write(0);
        int length = 8 + params.size();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(length >>> 24);
        out.write(length >>> 16);
        out.write(length >>> 8);
        out.write(length);
        out.write(0);
        out.write(3); // protocol 3.0
        out.write(0);
        out.write(0);
        byte[] p = params.toByteArray();
        out.write(p, 0, p.length);
        return out.toByteArray();
    }

    /** "SQLSTATE message" from an ErrorResponse's fields. */
    private static String errorText(byte[] body) {
        String code = "";
        String message = "";
        int i = 0;
        while (i < body.length && body[i] != 0) {
            char field = (char) body[i++];
            int end = i;
            while (end < body.length && body[end] != 0) {
                end++;
            }
            String value = new String(body, i, end - i, StandardCharsets.UTF_8);
            if (field == 'C') {
                code = value;
            } else if (field == 'M') {
                message = value;
            }
            i = end + 1;
        }
        return (code + " " + quote(message)).strip();
    }
}
