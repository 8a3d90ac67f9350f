package org.jheartbeat.director.check;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback TCP server for the check fuzzers (tests only): every connection gets the current
 * answer (after {@link Prelude} has read what it needs of the request), then end of stream; the
 * server drains what the check sends until it closes, so the check reads every byte before it sees
 * the end. One server serves every case: a case costs one loopback connection, not a new port.
 */
final class AnswerServer implements AutoCloseable {

    /** Reads what it needs of the check's request and returns the bytes to send for {@code answer}. */
    @FunctionalInterface
    interface Prelude {
        byte[] answer(InputStream in, byte[] answer) throws IOException;

        /**
         * For a dialogue: may write parts of the answer in turn before returning the rest
         * (LDAP), and may change the socket's read timeout; by default {@link #answer(InputStream, byte[])}.
         */
        default byte[] answer(Socket client, byte[] answer) throws IOException {
            return answer(client.getInputStream(), answer);
        }
    }

    private final ServerSocket server;
    private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fuzz-answer");
        t.setDaemon(true);
        return t;
    });
    private volatile byte[] answer = new byte[0];
    private volatile Prelude prelude = (in, a) -> a;

    AnswerServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        workers.execute(this::accept);
    }

    /** Sets what the next connections get. */
    void serve(byte[] bytes, Prelude how) {
        this.prelude = how;
        this.answer = bytes;
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                byte[] bytes = answer;
                Prelude how = prelude;
                workers.execute(() -> talk(client, bytes, how));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void talk(Socket client, byte[] bytes, Prelude how) {
        try (client) {
            client.setSoTimeout(10_000);
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            out.write(how.answer(client, bytes));
            out.flush();
            client.shutdownOutput();
            byte[] sink = new byte[4096];
            while (in.read(sink) >= 0) {
                // until the check hangs up
            }
        } catch (IOException e) {
            // the check hung up first: fine
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        workers.shutdownNow();
    }
}
