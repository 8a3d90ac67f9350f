package org.jheartbeat.cli.alert;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real SMTP server for tests: Exim (Debian's exim4-daemon-light) in the foreground ({@code -bdf}) with a
 * configuration of its own in a temporary directory: it listens on one address and port, accepts every
 * recipient and appends every message to one mbox file there ({@link #mbox()}), delivering at once. Optionally
 * inside a network namespace ({@code ip netns exec}). Needs root (a {@code -C} configuration, the spool).
 */
public final class EximServer implements AutoCloseable {
    private static final Path EXIM = Path.of("/usr/sbin/exim4");
    private final Path dir;
    private final Process process;

    /**
     * Starts Exim and waits (at most {@code 30 s}) until its port answers with a greeting.
     *
     * @param dir       a directory for its configuration, spool, log and mbox; its parents must let {@code nobody}
     *                  through (Exim delivers as nobody: it never delivers as root)
     * @param namespace a network namespace to run in, or null
     * @param address   the IPv4 address to listen on
     * @param port      the port
     */
    public EximServer(Path dir, String namespace, String address, int port) throws IOException, InterruptedException {
        this.dir = dir;
        for (String d : List.of("spool", "log")) {
            Files.createDirectories(dir.resolve(d));
        }
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.writeString(dir.resolve("exim.conf"), String.join("\n",
                "primary_hostname = alerts.test",
                "spool_directory = " + dir.resolve("spool"),
                "log_file_path = " + dir.resolve("log") + "/%slog",
                "exim_user = root",
                "exim_group = root",
                "keep_environment =",
                "tls_advertise_hosts =",
                "daemon_smtp_ports = " + port,
                "local_interfaces = " + address,
                "acl_smtp_rcpt = acl_rcpt",
                "begin acl",
                "acl_rcpt:",
                "  accept",
                "begin routers",
                "all:",
                "  driver = accept",
                "  transport = tofile",
                "begin transports",
                "tofile:",
                "  driver = appendfile",
                "  file = " + mbox(),
                "  user = nobody",
                "  mode = 0666",
                "") + "\n", StandardCharsets.US_ASCII);
        List<String> argv = new ArrayList<>();
        if (namespace != null) {
            argv.addAll(List.of("ip", "netns", "exec", namespace));
        }
        argv.addAll(List.of(EXIM.toString(), "-C", dir.resolve("exim.conf").toString(), "-bdf", "-odi"));
        this.process = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(dir.resolve("log/stdout").toFile()).start();
        if (namespace != null) {
            Thread.sleep(1000); // the port is not reachable from here; the lab's own checks find out
            return;
        }
        for (int i = 0; i < 300; i++) {
            try (Socket s = new Socket(address, port)) {
                if (new String(s.getInputStream().readNBytes(3), StandardCharsets.US_ASCII).equals("220")) {
                    return;
                }
            } catch (IOException e) {
                if (!process.isAlive()) {
                    throw new IOException("exim exited: " + log());
                }
            }
            Thread.sleep(100);
        }
        close();
        throw new IOException("exim did not answer on " + address + ":" + port + ": " + log());
    }

    /** Whether this machine can run it (Exim installed, running as root). */
    public static boolean available() {
        try {
            return Files.isExecutable(EXIM)
                    && (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The file every accepted message is appended to. */
    public Path mbox() {
        return dir.resolve("mbox");
    }

    /** The mbox's text; empty before the first message. */
    public String messages() throws IOException {
        return Files.exists(mbox()) ? Files.readString(mbox(), StandardCharsets.UTF_8) : "";
    }

    /** Exim's main log, for failure messages. */
    public String log() {
        try {
            Path main = dir.resolve("log/mainlog");
            return (Files.exists(main) ? Files.readString(main) : "") + Files.readString(dir.resolve("log/stdout"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
