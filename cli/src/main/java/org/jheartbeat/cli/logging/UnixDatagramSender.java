package org.jheartbeat.cli.logging;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Sends datagrams to a unix datagram socket such as {@code /dev/log} ({@code AF_UNIX},
 * {@code SOCK_DGRAM}, which {@code java.nio} cannot open in Java 17) through Netty's native epoll
 * transport: one non-blocking socket, unconnected, each record one {@code sendto(2)} to the path. So a
 * syslog daemon that restarts (a new socket at the same path) gets the next record without a
 * reconnect, and a full socket buffer fails the send ({@code EAGAIN}) instead of waiting. No event
 * loop thread: the caller's thread (the syslog output's writer) makes the system call.
 */
public final class UnixDatagramSender implements SyslogStream.DatagramSender {
    private final Path path;
    private final byte[] pathBytes;
    private final Socket socket;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(SyslogFormat.MAX_RECORD_BYTES);

    private UnixDatagramSender(Path path, Socket socket) {
        this.path = path;
        this.pathBytes = path.toString().getBytes(StandardCharsets.UTF_8);
        this.socket = socket;
    }

    /**
     * Opens the sending socket (the path need not exist yet: each send looks it up).
     *
     * @param path the receiving socket, e.g. {@code /dev/log}
     * @return the sender
     * @throws IOException when Netty's native transport is not available on this machine (not Linux,
     *                     or the library cannot be loaded; the message says why) or the socket cannot
     *                     be created
     */
    public static UnixDatagramSender open(Path path) throws IOException {
        if (!Epoll.isAvailable()) {
            Throwable why = Epoll.unavailabilityCause();
            throw new IOException("Netty's native epoll transport is not available here: "
                    + (why == null ? "unknown reason" : why.getMessage() != null ? why.getMessage() : why.toString()));
        }
        try {
            return new UnixDatagramSender(path, Socket.newSocketDomainDgram());
        } catch (RuntimeException e) {
            throw new IOException("cannot create a unix datagram socket: " + e.getMessage(), e);
        }
    }

    /** @throws IOException when the datagram was not sent (no such socket, refused, buffer full) */
    @Override
    public void send(byte[] record) throws IOException {
        if (buffer.capacity() < record.length) {
            buffer = ByteBuffer.allocateDirect(record.length);
        }
        buffer.clear();
        buffer.put(record);
        buffer.flip();
        int n;
        try {
            n = socket.sendToDomainSocket(buffer, 0, record.length, pathBytes);
        } catch (IOException e) {
            throw new IOException(reason(e), e);
        }
        if (n < record.length) {
            throw new IOException(n == 0 ? "socket buffer full (the syslog daemon does not keep up)"
                    : "sent " + n + " of " + record.length + " bytes");
        }
    }

    /**
     * The system's words for a failed send ({@code strerror}): Netty's prefix
     * {@code sendToDomainSocket(..) failed with error(-111): } dropped.
     */
    static String reason(IOException e) {
        if (e instanceof java.io.FileNotFoundException && e.getMessage() == null) {
            return "No such file or directory"; // Netty's ENOENT carries no message
        }
        String m = e.getMessage() != null ? e.getMessage() : e.toString();
        int i = m.indexOf("): ");
        return m.contains("failed with error(") && i >= 0 ? m.substring(i + 3) : m;
    }

    @Override
    public String describe() {
        return path.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing a datagram socket: nothing to tell
        }
    }
}
