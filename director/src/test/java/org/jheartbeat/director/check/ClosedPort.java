package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A loopback port nobody listens on, held bound (not listening) while the test runs: a connect to
 * it is refused, and no other socket can take the port meanwhile. A port freed by closing a server
 * is not enough: the check's own connect may get it as its ephemeral port and connect to itself
 * (TCP simultaneous open), which made "refused" tests fail now and then.
 */
final class ClosedPort implements AutoCloseable {
    private final Socket socket = new Socket();

    ClosedPort() throws IOException {
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
