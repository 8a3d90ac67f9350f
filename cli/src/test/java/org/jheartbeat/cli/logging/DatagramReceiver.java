package org.jheartbeat.cli.logging;

import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.DomainDatagramSocketAddress;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** A real unix datagram socket standing in for {@code /dev/log} in tests (no root, a temporary path). */
public final class DatagramReceiver {
    private DatagramReceiver() {
    }

    /** Binds a non-blocking unix datagram socket at {@code path} (loads Netty's native transport first). */
    public static Socket bind(Path path) throws IOException {
        Epoll.ensureAvailability();
        Socket s = Socket.newSocketDomainDgram();
        s.bind(new DomainSocketAddress(path.toString()));
        return s;
    }

    /** The next datagram as UTF-8, polling the non-blocking socket; the bound (60 s) only catches a hang. */
    public static String receive(Socket s) throws Exception {
        ByteBuffer buf = ByteBuffer.allocateDirect(SyslogFormat.MAX_RECORD_BYTES);
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            DomainDatagramSocketAddress from = s.recvFromDomainSocket(buf, 0, buf.capacity());
            if (from != null) {
                byte[] b = new byte[from.receivedAmount()];
                buf.get(0, b);
                return new String(b, StandardCharsets.UTF_8);
            }
            Thread.sleep(5);
        }
        throw new AssertionError("nothing received");
    }
}
