package org.jheartbeat.cli.logging;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A real unix datagram socket standing in for {@code /dev/log} or systemd's {@code NOTIFY_SOCKET} in tests
 * (no root, a temporary path or an abstract address).
 */
public final class DatagramReceiver {
    private DatagramReceiver() {
    }

    /** Binds a non-blocking unix datagram socket at {@code path} (loads Netty's native transport first). */
    public static Socket bind(Path path) throws IOException {
        return bind(path.toString());
    }

    /** Binds at {@code address}: a path, or an abstract address when it starts with a NUL character. */
    public static Socket bind(String address) throws IOException {
        Epoll.ensureAvailability();
        Socket s = Socket.newSocketDomainDgram();
        s.bind(new DomainSocketAddress(address));
        return s;
    }

    /** The next datagram if one is waiting now, else null (the socket is non-blocking). */
    public static String poll(Socket s) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(SyslogFormat.MAX_RECORD_BYTES);
        DomainDatagramSocketAddress from = s.recvFromDomainSocket(buf, 0, buf.capacity());
        if (from == null) {
            return null;
        }
        byte[] b = new byte[from.receivedAmount()];
        buf.get(0, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The next datagram as UTF-8, polling the non-blocking socket; the bound (60 s) only catches a hang. */
    public static String receive(Socket s) throws Exception {
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            String datagram = poll(s);
            if (datagram != null) {
                return datagram;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("nothing received");
    }
}
