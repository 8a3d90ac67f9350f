package org.jheartbeat.director.alert;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * A small SMTP client for the alerts ({@code smtp = host[:port]}, as ldirectord 4.x sends through
 * Net::SMTP): greeting 220, {@code EHLO} (then {@code HELO} if refused) 250, {@code MAIL FROM}
 * 250, one {@code RCPT TO} per address 250/251, {@code DATA} 354, the message with CRLF line ends
 * and dot-stuffing (RFC 5321 §4.5.2) ended by {@code .} 250, {@code QUIT}. Plain text only (no
 * TLS, no AUTH). Every reply is bounded: 1,000 bytes a line, 100 lines, and the whole exchange by
 * one deadline.
 */
public final class SmtpClient {
    /** The longest reply line read, in bytes (RFC 5321 allows 512). */
    static final int MAX_LINE = 1000;
    /** The most lines of one multi-line reply. */
    static final int MAX_LINES = 100;

    /** An SMTP server answered with a code the exchange did not expect. */
    public static final class ReplyException extends IOException {
        private final int code;

        ReplyException(String step, int code, String text) {
            super(step + " answered " + code + " " + text);
            this.code = code;
        }

        /** The reply code (e.g. 550). */
        public int code() {
            return code;
        }
    }

    /** Where an {@code smtp} directive points. */
    public record Server(String host, int port) {
    }

    private final String host;
    private final int port;
    private final Duration connectTimeout;
    private final Duration deadline;
    private final String heloName;
    private final MonotonicClock clock;

    /**
     * @param host           the server
     * @param port           its port (25 unless {@code smtp} names one, see {@link #parse})
     * @param connectTimeout the bound of the connect
     * @param deadline       the bound of the whole exchange, connect included
     * @param heloName       the name given in EHLO/HELO (the director's host name)
     */
    public SmtpClient(String host, int port, Duration connectTimeout, Duration deadline, String heloName) {
        this(host, port, connectTimeout, deadline, heloName, MonotonicClock.system());
    }

    /** As above; {@code clock}: where the exchange's deadline is measured. */
    public SmtpClient(String host, int port, Duration connectTimeout, Duration deadline, String heloName,
                      MonotonicClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.host = Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not in 1..65535");
        }
        this.port = port;
        this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.heloName = Objects.requireNonNull(heloName, "heloName");
    }

    /**
     * Reads an {@code smtp} value: {@code host}, {@code host:port}, {@code [v6]:port} or a bare IPv6
     * address; the port defaults to 25.
     *
     * @return the server's host and port
     * @throws IllegalArgumentException if the port is not a number in 1..65535 or the host is empty
     */
    public static Server parse(String value) {
        String v = value.trim();
        String h = v;
        int p = 25;
        if (v.startsWith("[")) {
            int end = v.indexOf(']');
            if (end < 0) {
                throw new IllegalArgumentException("smtp " + value + ": no closing ]");
            }
            h = v.substring(1, end);
            String rest = v.substring(end + 1);
            if (rest.startsWith(":")) {
                p = port(value, rest.substring(1));
            } else if (!rest.isEmpty()) {
                throw new IllegalArgumentException("smtp " + value + ": expected :PORT after ]");
            }
        } else if (v.indexOf(':') >= 0 && v.indexOf(':') == v.lastIndexOf(':')) {
            h = v.substring(0, v.indexOf(':'));
            p = port(value, v.substring(v.indexOf(':') + 1));
        }
        if (h.isEmpty()) {
            throw new IllegalArgumentException("smtp " + value + ": no host");
        }
        return new Server(h, p);
    }

    private static int port(String value, String s) {
        try {
            int p = Integer.parseInt(s);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("smtp " + value + ": port " + s + " is not a number in 1..65535");
    }

    /**
     * Sends one message.
     *
     * @param envelopeFrom the MAIL FROM address
     * @param recipients   one RCPT TO each
     * @param message      headers, blank line, body; lines end in {@code \n} or CRLF
     * @throws ReplyException if a step is refused (the exchange is ended with QUIT)
     * @throws IOException    if the server cannot be reached, closes, or the deadline passes
     */
    public void send(String envelopeFrom, List<String> recipients, String message) throws IOException {
        long end = clock.nanoTime() + deadline.toNanos();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), (int) Math.max(1, connectTimeout.toMillis()));
            InputStream in = new java.io.BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            expect(s, in, end, "greeting", 220);
            command(out, "EHLO " + heloName);
            Reply ehlo = reply(s, in, end);
            if (ehlo.code != 250) {
                command(out, "HELO " + heloName);
                expect(s, in, end, "HELO", 250);
            }
            try {
                command(out, "MAIL FROM:<" + envelopeFrom + ">");
                expect(s, in, end, "MAIL FROM", 250);
                for (String r : recipients) {
                    command(out, "RCPT TO:<" + r + ">");
                    Reply rr = reply(s, in, end);
                    if (rr.code != 250 && rr.code != 251) {
                        throw new ReplyException("RCPT TO:<" + r + ">", rr.code, rr.text);
                    }
                }
                command(out, "DATA");
                expect(s, in, end, "DATA", 354);
                out.write(dotStuffed(message));
                out.write(".\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                expect(s, in, end, "end of data", 250);
            } catch (ReplyException e) {
                quietQuit(s, out, in, end);
                throw e;
            }
            quietQuit(s, out, in, end);
        }
    }

    /** The message with CRLF line ends, a final CRLF, and a dot doubled at the start of a line. */
    static byte[] dotStuffed(String message) {
        StringBuilder b = new StringBuilder(message.length() + 64);
        String[] lines = message.replace("\r\n", "\n").split("\n", -1);
        int n = lines.length;
        if (n > 0 && lines[n - 1].isEmpty()) {
            n--; // the message's own final line end
        }
        for (int i = 0; i < n; i++) {
            if (lines[i].startsWith(".")) {
                b.append('.');
            }
            b.append(lines[i]).append("\r\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void quietQuit(Socket s, OutputStream out, InputStream in, long end) {
        try {
            command(out, "QUIT");
            reply(s, in, end);
        } catch (IOException e) {
            // the message's fate is already known; a server that drops QUIT changes nothing
        }
    }

    private static void command(OutputStream out, String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private record Reply(int code, String text) {
    }

    private void expect(Socket s, InputStream in, long end, String step, int code) throws IOException {
        Reply r = reply(s, in, end);
        if (r.code != code) {
            throw new ReplyException(step, r.code, r.text);
        }
    }

    /** One reply: lines {@code NNN-text} continue, {@code NNN text} ends it. */
    private Reply reply(Socket s, InputStream in, long end) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < MAX_LINES; i++) {
            String line = line(s, in, end);
            if (line.length() < 3 || !line.substring(0, 3).chars().allMatch(Character::isDigit)
                    || line.length() > 3 && line.charAt(3) != ' ' && line.charAt(3) != '-') {
                throw new IOException("not an SMTP reply: " + printable(line));
            }
            if (text.length() > 0) {
                text.append(" / ");
            }
            text.append(line.length() > 4 ? line.substring(4) : "");
            if (line.length() == 3 || line.charAt(3) == ' ') {
                return new Reply(Integer.parseInt(line.substring(0, 3)), printable(text.toString()));
            }
        }
        throw new IOException("SMTP reply longer than " + MAX_LINES + " lines");
    }

    private String line(Socket s, InputStream in, long end) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (true) {
            long left = (end - clock.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new SocketTimeoutException("SMTP exchange took longer than its deadline");
            }
            s.setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
            int c;
            try {
                c = in.read();
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("SMTP exchange took longer than its deadline");
            }
            if (c < 0) {
                throw new IOException("the SMTP server closed the connection");
            }
            if (c == '\n') {
                String l = b.toString(StandardCharsets.UTF_8);
                return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
            }
            if (b.size() >= MAX_LINE) {
                throw new IOException("SMTP reply line longer than " + MAX_LINE + " bytes");
            }
            b.write(c);
        }
    }

    private static String printable(String s) {
        String t = s.replaceAll("[^\\x20-\\x7e]", "?");
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }
}
