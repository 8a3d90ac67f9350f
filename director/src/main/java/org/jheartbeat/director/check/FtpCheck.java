package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code service=ftp} negotiate check, after ldirectord 4.x {@code check_ftp}: the greeting must be
 * 2xx and the login ({@code login}, default {@code anonymous}; {@code passwd}, default
 * {@code ldirectord@localhost}) accepted; then, when {@code receive} is set, {@code CWD /},
 * {@code TYPE I}, {@code PASV} and {@code RETR request}; the file's content (up to
 * {@value #MAX_FILE} bytes) must contain a match of {@code receive}.
 *
 * <p>Differences from ldirectord, on purpose: ldirectord ignores a refused login and, with an
 * empty {@code receive}, reports every server that accepts a connection as up (an empty Perl
 * pattern matches anything); here a refused login is a failure and an empty {@code receive}
 * means "login succeeds". The passive data connection goes to the control connection's address
 * (the PASV reply's address is ignored, as most clients do behind NAT).
 */
final class FtpCheck extends SocketCheck {
    static final int MAX_FILE = 1024 * 1024;
    static final String DEFAULT_LOGIN = "anonymous";
    static final String DEFAULT_PASSWORD = "ldirectord@localhost";
    private static final Pattern PASV = Pattern.compile("(\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)");

    @Override
    void negotiate(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        Pattern receive = receivePattern(target);
        try (Conversation c = Conversation.open(target.server(), deadline, false, null)) {
            String greeting = SmtpCheck.reply(c);
            if (!greeting.startsWith("2")) {
                throw new CheckFailure("FTP greeting is not 2xx: \"" + quote(greeting) + "\"");
            }
            String login = target.login().filter(l -> !l.isEmpty()).orElse(DEFAULT_LOGIN);
            c.send("USER " + login + "\r\n");
            String user = SmtpCheck.reply(c);
            if (user.startsWith("331") || user.startsWith("332")) {
                c.send("PASS " + target.password().filter(p -> !p.isEmpty()).orElse(DEFAULT_PASSWORD) + "\r\n");
                user = SmtpCheck.reply(c);
            }
            if (!user.startsWith("2")) {
                throw new CheckFailure("FTP login of " + login + " refused: \"" + quote(user) + "\"");
            }
            if (receive != null) {
                String content = retrieve(c, target);
                if (!receive.matcher(content).find()) {
                    throw new CheckFailure("receive \"" + receive.pattern() + "\" not found in the "
                            + content.length() + " bytes of " + target.request().orElse("/"));
                }
            }
            c.send("QUIT\r\n");
        }
    }

    private static String retrieve(Conversation c, CheckTarget target) throws IOException, CheckFailure {
        String file = target.request().filter(r -> !r.isEmpty()).orElse("/");
        c.send("CWD /\r\n");
        SmtpCheck.reply(c);
        c.send("TYPE I\r\n");
        SmtpCheck.reply(c);
        c.send("PASV\r\n");
        String pasv = SmtpCheck.reply(c);
        Matcher m = PASV.matcher(pasv);
        if (!pasv.startsWith("227") || !m.find()) {
            throw new CheckFailure("FTP PASV refused: \"" + quote(pasv) + "\"");
        }
        int port = Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
        if (port <= 0 || port > 65535) {
            throw new CheckFailure("FTP PASV gave port " + port);
        }
        InetSocketAddress data = new InetSocketAddress(c.socket().getInetAddress(), port);
        try (Conversation d = Conversation.open(data, c.deadline(), false, null)) {
            c.send("RETR " + file + "\r\n");
            String started = SmtpCheck.reply(c);
            if (!started.startsWith("1") && !started.startsWith("2")) {
                throw new CheckFailure("FTP RETR " + file + " refused: \"" + quote(started) + "\"");
            }
            byte[] content = d.readToEnd(MAX_FILE);
            return new String(content, StandardCharsets.ISO_8859_1);
        }
    }
}
