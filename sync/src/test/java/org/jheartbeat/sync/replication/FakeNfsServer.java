package org.jheartbeat.sync.replication;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An ONC RPC responder on 127.0.0.1 that answers every call with an accepted, successful reply (what an
 * NFS server answers to the {@code NULL} procedure), or, while {@link #answering} is false, accepts the
 * connection and never answers: a hung server as the ping sees it. The real server is in the lab test.
 */
final class FakeNfsServer implements AutoCloseable {
    volatile boolean answering = true;
    private final ServerSocket socket;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final Thread thread;

    FakeNfsServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = new Thread(this::serve, "fake-nfs");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                open.add(s);
                if (!answering) {
                    continue; // held open, never answered
                }
                DataInputStream in = new DataInputStream(s.getInputStream());
                int len = in.readInt() & 0x7fffffff;
                byte[] call = new byte[len];
                in.readFully(call);
                ByteBuffer reply = ByteBuffer.allocate(28);
                reply.putInt(0x80000000 | 24).put(call, 0, 4).putInt(1).putInt(0).putInt(0).putInt(0).putInt(0);
                OutputStream out = s.getOutputStream();
                out.write(reply.array());
                out.flush();
                s.close();
            } catch (IOException e) {
                // a closed socket ends the loop; a broken call is the ping's problem
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
