package org.jheartbeat.director.alert;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real SMTP server for tests: Python's standard {@code smtpd} module ({@code smtp-sink.py}) on
 * 127.0.0.1 and a free port, saving what it receives. Ended (by its PID) on close.
 */
public final class SmtpSink implements AutoCloseable {
    /** One message as the server received it. */
    public record Received(String mailFrom, List<String> rcptTo, String data) {
        /** The value of a header, or null. */
        public String header(String name) {
            for (String line : data.split("\n")) {
                if (line.isEmpty()) {
                    return null;
                }
                if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                    return line.substring(name.length() + 1).trim();
                }
            }
            return null;
        }

        /** The body (after the first blank line). */
        public String body() {
            int i = data.indexOf("\n\n");
            return i < 0 ? "" : data.substring(i + 2);
        }
    }

    private final Process process;
    private final Path dir;
    private final int port;

    /**
     * @param dir    where the messages are saved
     * @param reject whether every message is refused (554 at the end of DATA)
     */
    public SmtpSink(Path dir, boolean reject) throws IOException, InterruptedException {
        this.dir = dir;
        Path script = dir.resolve("smtp-sink.py");
        try (InputStream in = SmtpSink.class.getResourceAsStream("/org/jheartbeat/director/alert/smtp-sink.py")) {
            Files.copy(in, script);
        }
        this.port = freePort();
        this.process = new ProcessBuilder("python3", "-W", "ignore", script.toString(), Integer.toString(port),
                dir.toString(), reject ? "reject" : "accept").redirectErrorStream(true).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = r.readLine();
        if (!"ready".equals(first)) {
            process.destroyForcibly();
            throw new IOException("smtp-sink.py did not start: " + first);
        }
    }

    /** A port nothing listens on right now (for the server, or for a refused connection). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    /** The messages received so far, in order. */
    public List<Received> received() throws IOException {
        List<Received> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".msg"))
                    .sorted(Comparator.comparingInt(f -> Integer.parseInt(f.getFileName().toString().split("\\.")[0])))
                    .toList()) {
                String s = Files.readString(p, StandardCharsets.UTF_8);
                String[] parts = s.split("\n", 3);
                out.add(new Received(parts[0], List.of(parts[1].split("\t")), parts.length > 2 ? parts[2] : ""));
            }
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
