package org.jheartbeat.director.check;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One TCP (optionally TLS) connection of a check, every step bounded by the check's
 * {@link Deadline}: the connect, the TLS handshake, and each read (the socket timeout is reset
 * to the time left before every read, so a server that trickles bytes cannot stretch the check).
 * Lines and whole answers are bounded in size. A watchdog also closes the socket at the deadline,
 * so steps the socket timeout does not cover on its own (a TLS handshake made of many slow
 * reads, a write the server never drains) end then too; they fail as a timeout.
 */
final class Conversation implements AutoCloseable {
    /** Longest line accepted from a server, in bytes (protocol lines are far shorter). */
    static final int MAX_LINE = 8 * 1024;

    /** Slack after the deadline before the watchdog closes the socket, in ms. */
    private static final long WATCHDOG_SLACK_MS = 20;
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "check-watchdog");
        t.setDaemon(true);
        return t;
    });

    private final Socket socket;
    private final Deadline deadline;
    private final InputStream in;
    private final OutputStream out;
    private final ScheduledFuture<?> watchdog;
    private final AtomicBoolean cut;

    private Conversation(Socket socket, Deadline deadline, ScheduledFuture<?> watchdog, AtomicBoolean cut)
            throws IOException {
        this.socket = socket;
        this.deadline = deadline;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.watchdog = watchdog;
        this.cut = cut;
    }

    /**
     * Connects (and with {@code tls} runs the handshake) within the deadline.
     *
     * @param sniHost the name to send as TLS SNI, or {@code null}
     * @throws IOException if the connection or handshake fails or the deadline passes
     */
    static Conversation open(InetSocketAddress server, Deadline deadline, boolean tls, String sniHost)
            throws IOException {
        return open(server, deadline, tls, sniHost, java.util.Optional.empty());
    }

    /** As {@link #open(InetSocketAddress, Deadline, boolean, String)}, verifying the certificate with {@code verify}. */
    static Conversation open(InetSocketAddress server, Deadline deadline, boolean tls, String sniHost,
                             java.util.Optional<javax.net.ssl.SSLSocketFactory> verify) throws IOException {
        Socket plain = new Socket();
        AtomicBoolean cut = new AtomicBoolean();
        ScheduledFuture<?> watchdog = WATCHDOG.schedule(() -> {
            cut.set(true);
            closeQuietly(plain);
        }, deadline.remainingMillis() + WATCHDOG_SLACK_MS, TimeUnit.MILLISECONDS);
        try {
            plain.connect(server, deadline.socketTimeout());
            plain.setSoTimeout(deadline.socketTimeout());
            plain.setTcpNoDelay(true);
            Socket used = tls ? Tls.handshake(plain, sniHost, verify) : plain;
            return new Conversation(used, deadline, watchdog, cut);
        } catch (IOException | RuntimeException e) {
            watchdog.cancel(false);
            closeQuietly(plain);
            if (e instanceof SocketTimeoutException || cut.get()) {
                throw new SocketTimeoutException(deadline.expiredMessage());
            }
            throw e;
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing a check's socket: nothing to report
        }
    }

    /** An I/O failure caused by the watchdog's close is the deadline passing. */
    private IOException translate(IOException e) {
        if (e instanceof SocketTimeoutException || cut.get()) {
            return new SocketTimeoutException(deadline.expiredMessage());
        }
        return e;
    }

    Socket socket() {
        return socket;
    }

    Deadline deadline() {
        return deadline;
    }

    /** Sends text (ISO-8859-1, so bytes pass unchanged) and flushes. */
    void send(String text) throws IOException {
        send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    void send(byte[] bytes) throws IOException {
        try {
            socket.setSoTimeout(deadline.socketTimeout());
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /**
     * One line without its CR LF (or LF), decoded as ISO-8859-1.
     *
     * @throws EOFException if the server closes before a line ends
     * @throws IOException if the line is longer than {@link #MAX_LINE} or the deadline passes
     */
    String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            int b = read();
            if (b < 0) {
                if (line.size() == 0) {
                    throw new EOFException("the server closed the connection");
                }
                break;
            }
            if (b == '\n') {
                break;
            }
            if (line.size() >= MAX_LINE) {
                throw new IOException("a line longer than " + MAX_LINE + " bytes from the server");
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    /** One line, or {@code null} at end of stream. */
    String readLineOrNull() throws IOException {
        try {
            return readLine();
        } catch (EOFException e) {
            return null;
        }
    }

    /** Up to {@code max} bytes, until the server closes the connection. */
    byte[] readToEnd(int max) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (all.size() < max) {
            int n = readChunk(buffer, Math.min(buffer.length, max - all.size()));
            if (n < 0) {
                break;
            }
            all.write(buffer, 0, n);
        }
        return all.toByteArray();
    }

    /** Exactly {@code n} bytes. */
    byte[] readExactly(int n) throws IOException {
        byte[] data = new byte[n];
        int done = 0;
        while (done < n) {
            int got = readChunk(data, done, n - done);
            if (got < 0) {
                throw new EOFException("the server closed the connection after " + done + " of " + n + " bytes");
            }
            done += got;
        }
        return data;
    }

    /** Up to {@code max} bytes of whatever arrives next (at least one), or an empty array at EOF. */
    byte[] readSome(int max) throws IOException {
        byte[] data = new byte[max];
        int got = readChunk(data, 0, max);
        if (got < 0) {
            return new byte[0];
        }
        byte[] some = new byte[got];
        System.arraycopy(data, 0, some, 0, got);
        return some;
    }

    private int read() throws IOException {
        try {
            socket.setSoTimeout(deadline.socketTimeout());
            return in.read();
        } catch (IOException e) {
            throw translate(e);
        }
    }

    private int readChunk(byte[] buffer, int length) throws IOException {
        return readChunk(buffer, 0, length);
    }

    private int readChunk(byte[] buffer, int offset, int length) throws IOException {
        try {
            socket.setSoTimeout(deadline.socketTimeout());
            return in.read(buffer, offset, length);
        } catch (IOException e) {
            throw translate(e);
        }
    }

    /** Half-closes the sending side (the server sees end of input). */
    void shutdownOutput() throws IOException {
        if (!(socket instanceof javax.net.ssl.SSLSocket)) {
            socket.shutdownOutput();
        }
    }

    @Override
    public void close() {
        watchdog.cancel(false);
        closeQuietly(socket);
    }
}
