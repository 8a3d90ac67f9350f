package org.jheartbeat.core.control;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's local control socket: a Unix stream socket in the state directory, mode 0660, group
 * {@code haclient} when that group exists (else root's group). One request per connection: a single
 * line such as {@code status}; the answer is {@code OK} or {@code ERR <reason>} on the first line,
 * then the body, then end of stream. Requests are at most 4 KiB.
 */
public final class ControlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlServer.class);
    private static final int MAX_REQUEST = 4096;

    private final Path socket;
    private final Function<String, ControlResponse> handler;
    private ServerSocketChannel server;
    private Thread acceptor;

    /**
     * @param socket  where to create the socket (an old one is removed first)
     * @param handler answers one request line; runs on the control thread and may block briefly
     */
    public ControlServer(Path socket, Function<String, ControlResponse> handler) {
        this.socket = socket;
        this.handler = handler;
    }

    /** Binds the socket and starts the accepting thread. @throws IOException if it cannot bind */
    public void start() throws IOException {
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw----"));
        try {
            GroupPrincipal g = socket.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("haclient");
            Files.getFileAttributeView(socket, PosixFileAttributeView.class).setGroup(g);
        } catch (IOException e) {
            LOG.debug("group haclient not found; control socket stays in root's group");
        }
        acceptor = new Thread(this::acceptLoop, "hb-control");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            try (SocketChannel ch = server.accept()) {
                serve(ch);
            } catch (IOException e) {
                if (server.isOpen()) {
                    LOG.warn("control socket: {}", e.getMessage());
                }
            }
        }
    }

    private void serve(SocketChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(MAX_REQUEST);
        while (buf.hasRemaining()) {
            int n = ch.read(buf);
            if (n < 0 || containsNewline(buf)) {
                break;
            }
        }
        String request = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).strip();
        ControlResponse resp;
        try {
            resp = handler.apply(request);
        } catch (RuntimeException e) {
            resp = ControlResponse.error("internal error: " + e);
        }
        String text = (resp.ok() ? "OK" : "ERR " + resp.error()) + "\n" + resp.body();
        ByteBuffer out = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            ch.write(out);
        }
    }

    private static boolean containsNewline(ByteBuffer b) {
        for (int i = 0; i < b.position(); i++) {
            if (b.get(i) == '\n') {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        try {
            if (server != null) {
                server.close();
            }
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            LOG.debug("closing control socket: {}", e.getMessage());
        }
    }
}
