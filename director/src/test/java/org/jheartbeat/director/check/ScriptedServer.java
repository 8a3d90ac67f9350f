package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An in-process TCP server on loopback that runs a script for every connection (tests only). */
final class ScriptedServer implements AutoCloseable {

    @FunctionalInterface
    interface Script {
        void run(Socket client, InputStream in, OutputStream out) throws Exception;
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> clients = new CopyOnWriteArrayList<>();
    /** What the scripts recorded (e.g. request lines), for assertions. */
    final List<String> seen = new CopyOnWriteArrayList<>();

    ScriptedServer(Script script) throws IOException {
        this(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), script);
    }

    /** Runs {@code script} for every connection {@code server} accepts (a TLS server socket, for TLS checks). */
    ScriptedServer(ServerSocket server, Script script) {
        this.server = server;
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    clients.add(client);
                    Thread worker = new Thread(() -> {
                        try (client) {
                            script.run(client, client.getInputStream(), client.getOutputStream());
                        } catch (Exception e) {
                            // the check under test hung up: fine
                        }
                    }, "scripted-client");
                    worker.setDaemon(true);
                    worker.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "scripted-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    CheckTarget target() {
        return CheckTarget.of(address());
    }

    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.write(b);
        }
        if (b < 0 && line.size() == 0) {
            return null;
        }
        String s = line.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Holds the connection open without answering until the client goes away. */
    static void hang(InputStream in) throws IOException {
        byte[] sink = new byte[1024];
        while (in.read(sink) >= 0) {
            // swallow
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket c : clients) {
            c.close();
        }
    }
}
