package org.jheartbeat.director.runtime;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The running director's local control socket (a Unix-domain stream socket, mode 0660): one
 * request line in ({@code status VIEW CONN FORMAT}, {@code reload}, {@code ping}; at most 256
 * bytes), one answer out ({@code OK} and the body, or {@code ERR message}), then the connection
 * closes. At most 4 clients are served at once; a client that sends no full line within 5 s is
 * dropped. Used by {@code hb lvs status|reload} and the {@code ldirectord} wrapper.
 */
public final class ControlSocket implements AutoCloseable {
    /** The longest request line, in bytes. */
    public static final int MAX_REQUEST = 256;
    /** How long a client may take to send its line, in ms. */
    public static final long READ_TIMEOUT_MS = 5_000;

    private final Path path;
    private final Function<String, String> handler;
    private final ServerSocketChannel server;
    private final Semaphore slots = new Semaphore(4);
    private final ScheduledExecutorService reaper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lvs-control-reaper");
        t.setDaemon(true);
        return t;
    });
    private final Thread acceptor;

    /**
     * Binds the socket (replacing a stale one) and starts serving.
     *
     * @param path    the socket file
     * @param handler maps a request line to an answer ({@code OK\n...} or {@code ERR ...})
     * @throws IOException if it cannot be bound
     */
    public ControlSocket(Path path, Function<String, String> handler) throws IOException {
        this.path = path;
        this.handler = handler;
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        Files.deleteIfExists(path);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        org.jheartbeat.core.control.UnixSocketFiles.bind(server, path, "rw-rw----", java.util.Optional.empty());
        acceptor = new Thread(this::acceptLoop, "lvs-control");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            SocketChannel c;
            try {
                c = server.accept();
            } catch (IOException e) {
                return;
            }
            if (!slots.tryAcquire()) {
                reply(c, "ERR busy: too many clients, try again");
                continue;
            }
            Thread t = new Thread(() -> {
                try {
                    serve(c);
                } finally {
                    slots.release();
                }
            }, "lvs-control-client");
            t.setDaemon(true);
            t.start();
        }
    }

    private void serve(SocketChannel c) {
        var timeout = reaper.schedule(() -> {
            try {
                c.close();
            } catch (IOException e) {
                // closing
            }
        }, READ_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        try {
            ByteBuffer buf = ByteBuffer.allocate(MAX_REQUEST + 1);
            int nl = -1;
            while (nl < 0 && buf.hasRemaining()) {
                if (c.read(buf) < 0) {
                    break;
                }
                for (int i = 0; i < buf.position(); i++) {
                    if (buf.get(i) == '\n') {
                        nl = i;
                        break;
                    }
                }
            }
            timeout.cancel(false);
            if (nl < 0) {
                reply(c, "ERR request too long or not terminated by a newline");
                return;
            }
            String line = new String(buf.array(), 0, nl, StandardCharsets.UTF_8).trim();
            String answer;
            try {
                answer = handler.apply(line);
            } catch (RuntimeException e) {
                answer = "ERR " + e.getMessage();
            }
            reply(c, answer);
        } catch (IOException e) {
            timeout.cancel(false);
        }
    }

    /**
     * Writes the answer, then reads and drops what the client still sends (at most 64 KiB, at most
     * {@link #READ_TIMEOUT_MS}) before closing, so that an over-long request gets its error instead
     * of a connection reset.
     */
    private void reply(SocketChannel c, String answer) {
        var timeout = reaper.schedule(() -> {
            try {
                c.close();
            } catch (IOException e) {
                // closing
            }
        }, READ_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        try (c) {
            ByteBuffer b = ByteBuffer.wrap(answer.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                c.write(b);
            }
            c.shutdownOutput();
            ByteBuffer sink = ByteBuffer.allocate(4096);
            int drained = 0;
            int n;
            while (drained < 65536 && (n = c.read(sink)) >= 0) {
                drained += n;
                sink.clear();
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            timeout.cancel(false);
        }
    }

    /**
     * Sends one request and returns the whole answer.
     *
     * @throws java.nio.file.NoSuchFileException or {@link java.net.ConnectException} when no director listens
     * @throws IOException on other I/O errors, or when no answer comes within {@code timeoutMs}
     */
    public static String request(Path path, String line, long timeoutMs) throws IOException {
        try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            c.connect(UnixDomainSocketAddress.of(path));
            c.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            ByteBuffer b = ByteBuffer.allocate(65536);
            ScheduledExecutorService t = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "lvs-control-client-timeout");
                th.setDaemon(true);
                return th;
            });
            var cancel = t.schedule(() -> {
                try {
                    c.close();
                } catch (IOException e) {
                    // closing
                }
            }, timeoutMs, TimeUnit.MILLISECONDS);
            try {
                while (c.read(b) >= 0) {
                    out.write(b.array(), 0, b.position());
                    b.clear();
                    if (out.size() > (16 << 20)) {
                        throw new IOException("answer from the director is larger than 16 MiB");
                    }
                }
            } catch (java.nio.channels.AsynchronousCloseException e) {
                throw new IOException("the director did not answer within " + timeoutMs + " ms");
            } finally {
                cancel.cancel(false);
                t.shutdownNow();
            }
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        reaper.shutdownNow();
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // best effort
        }
    }
}
