package org.jheartbeat.core.control;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.ByteArrayOutputStream;

/**
 * Client side of the control socket ({@link ControlServer}): sends one request line, reads the answer.
 */
public final class ControlClient {
    /** Largest answer accepted, in bytes (1 MiB). */
    private static final int MAX_RESPONSE = 1 << 20;

    /** The daemon is not running (no socket, or nobody listening on it). */
    public static final class NotRunningException extends IOException {
        public NotRunningException(String message) {
            super(message);
        }
    }

    private ControlClient() {
    }

    /**
     * Sends {@code request} and returns the daemon's answer.
     *
     * @throws NotRunningException   when no daemon listens on {@code socket}
     * @throws AccessDeniedException when the caller may not use the socket
     * @throws IOException           on any other I/O error or a malformed answer
     */
    public static ControlResponse request(Path socket, String request) throws IOException {
        if (!Files.exists(socket)) {
            throw new NotRunningException("no daemon is running: control socket " + socket + " does not exist");
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                String msg = String.valueOf(e.getMessage());
                if (msg.contains("ermission denied")) {
                    throw new AccessDeniedException(socket.toString(), null, "permission denied");
                }
                throw new NotRunningException("no daemon is running: nobody listens on " + socket + " (" + msg + ")");
            }
            ch.write(ByteBuffer.wrap((request + "\n").getBytes(StandardCharsets.UTF_8)));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(8192);
            while (ch.read(buf) >= 0) {
                all.write(buf.array(), 0, buf.position());
                buf.clear();
                if (all.size() > MAX_RESPONSE) {
                    throw new IOException("control answer larger than 1 MiB");
                }
            }
            String text = all.toString(StandardCharsets.UTF_8);
            int nl = text.indexOf('\n');
            String head = nl < 0 ? text : text.substring(0, nl);
            String body = nl < 0 ? "" : text.substring(nl + 1);
            if (head.equals("OK")) {
                return ControlResponse.ok(body);
            }
            if (head.startsWith("ERR ")) {
                return new ControlResponse(false, head.substring(4), body);
            }
            throw new IOException("malformed answer from daemon: [" + head + "]");
        }
    }
}
