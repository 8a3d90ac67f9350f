package org.jheartbeat.core.control;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * Client side of the control socket ({@link ControlServer}): sends one request line, reads the answer.
 * The answer must arrive within {@link #ANSWER_TIMEOUT_S} (30 s), or for a hand-over within its own
 * timeout plus that.
 */
public final class ControlClient {
    /** Largest answer accepted, in bytes (1 MiB). */
    private static final int MAX_RESPONSE = ControlServer.MAX_RESPONSE;
    /** How long to wait for an answer, in s, beyond a hand-over's own timeout. */
    public static final long ANSWER_TIMEOUT_S = 30;

    /** The daemon is not running (no socket, or nobody listening on it). */
    public static final class NotRunningException extends IOException {
        public NotRunningException(String message) {
            super(message);
        }
    }

    /** The daemon refused the request because of who sent it (see {@link ControlAccess}). */
    public static final class DeniedException extends IOException {
        public DeniedException(String message) {
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
     * @throws IOException           on any other I/O error, no answer in time, or a malformed answer
     */
    public static ControlResponse request(Path socket, ControlRequest request) throws IOException {
        if (!Files.exists(socket)) {
            throw new NotRunningException("no daemon is running: control socket " + socket + " does not exist");
        }
        MonotonicClock clock = MonotonicClock.system();
        ControlRequest inner = request instanceof ControlRequest.OnBehalf ob ? ob.request() : request;
        long waitS = ANSWER_TIMEOUT_S + (inner instanceof ControlRequest.Handover h ? h.timeoutSeconds() : 0);
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
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            try (TimedChannel io = new TimedChannel(ch, clock)) {
                long deadline = clock.nanoTime() + waitS * 1_000_000_000L;
                IOException writeFailed = null;
                try {
                    if (!io.writeAll(ByteBuffer.wrap((request.toWire() + "\n").getBytes(StandardCharsets.US_ASCII)),
                            deadline)) {
                        throw new IOException("the daemon did not take the request within " + waitS + " s");
                    }
                } catch (IOException e) {
                    // a daemon that turns us away (too many clients) may close before reading: its line is still readable
                    writeFailed = e;
                }
                TimedChannel.ReadEnd end = io.readToEnd(all, MAX_RESPONSE, deadline);
                if (writeFailed != null && all.size() == 0) {
                    throw writeFailed;
                }
                switch (end) {
                    case FULL -> throw new IOException("control answer larger than 1 MiB");
                    case TIMEOUT -> throw new IOException("no answer from the daemon within " + waitS + " s");
                    default -> { }
                }
            }
            return decode(all.toString(StandardCharsets.UTF_8));
        }
    }

    private static ControlResponse decode(String text) throws IOException {
        if (text.isEmpty()) {
            throw new IOException("the daemon closed the connection without an answer (is it shutting down?)");
        }
        int nl = text.indexOf('\n');
        String head = nl < 0 ? text : text.substring(0, nl);
        String body = nl < 0 ? "" : text.substring(nl + 1);
        if (head.equals("OK")) {
            return ControlResponse.ok(body);
        }
        if (head.startsWith("ERR ")) {
            return new ControlResponse(ControlResponse.Kind.ERROR, head.substring(4), body);
        }
        if (head.startsWith("REFUSED ")) {
            return new ControlResponse(ControlResponse.Kind.REFUSED, head.substring(8), body);
        }
        if (head.startsWith("DENIED ")) {
            throw new DeniedException(head.substring(7));
        }
        throw new IOException("malformed answer from daemon: [" + (head.length() > 80 ? head.substring(0, 80) + "..." : head)
                + "]");
    }
}
