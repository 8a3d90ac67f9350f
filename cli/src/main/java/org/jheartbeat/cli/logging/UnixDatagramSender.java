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
 * loop thread: the caller's thread (the syslog output's writer) makes the system call. Also systemd's
 * {@code $NOTIFY_SOCKET} ({@link #openAddress}, abstract addresses included), for sd_notify.
 */
public final class UnixDatagramSender implements SyslogStream.DatagramSender {
    private final String name;
    private final byte[] pathBytes;
    private final Socket socket;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(SyslogFormat.MAX_RECORD_BYTES);

    private UnixDatagramSender(String name, byte[] pathBytes, Socket socket) {
        this.name = name;
        this.pathBytes = pathBytes;
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
        return open(path.toString(), path.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Opens a sending socket for a unix socket address as {@code $NOTIFY_SOCKET} gives it (sd_notify(3)):
     * a path, or an abstract address written with a leading {@code @} (sent as a leading NUL byte, the
     * Linux abstract namespace; the address is the exact bytes, no trailing NUL).
     *
     * @param address {@code /run/systemd/notify} or {@code @/org/freedesktop/systemd1/notify/123}
     * @return the sender
     * @throws IOException as {@link #open(Path)}
     */
    public static UnixDatagramSender openAddress(String address) throws IOException {
        byte[] bytes = address.getBytes(StandardCharsets.UTF_8);
        if (address.startsWith("@")) {
            bytes[0] = 0;
        }
        return open(address, bytes);
    }

    private static UnixDatagramSender open(String name, byte[] pathBytes) throws IOException {
        if (!Epoll.isAvailable()) {
            Throwable why = Epoll.unavailabilityCause();
            throw new IOException("Netty's native epoll transport is not available here: "
                    + (why == null ? "unknown reason" : why.getMessage() != null ? why.getMessage() : why.toString()));
        }
        try {
            return new UnixDatagramSender(name, pathBytes, Socket.newSocketDomainDgram());
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
            throw new IOException(n == 0 ? "socket buffer full (the receiver, e.g. the syslog daemon, does not keep up)"
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
        return name;
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
