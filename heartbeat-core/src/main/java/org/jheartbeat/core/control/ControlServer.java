package org.jheartbeat.core.control;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jheartbeat.core.control.ClientIncidents.Kind;
import org.jheartbeat.core.time.MonotonicClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's local control socket: a Unix stream socket in the state directory, mode 0660, group
 * {@code haclient} when that group exists (else root's group). One request per connection: a single
 * line ({@link ControlRequest}); the answer is {@code OK}, {@code ERR <reason>} or
 * {@code REFUSED <reason>} on the first line ({@link ControlResponse}), then the body, then end of
 * stream.
 *
 * <p>Clients are served concurrently: one acceptor thread only accepts, and every admitted client
 * gets its own worker thread from a pool of {@link Limits#maxClients()} (threads are made on demand
 * and end when idle), so a request that waits for a hand-over never delays {@code status}. Bounds:
 * <ul>
 *   <li>at most {@link Limits#maxClients()} clients at once; one more gets the single line
 *       {@code ERR too many control clients ...} and is closed, it never queues;</li>
 *   <li>a client that sends no complete line within {@link Limits#readTimeoutMillis()} is dropped
 *       (with one error line, best effort) and counted;</li>
 *   <li>a line longer than {@link ControlRequest#MAX_LENGTH} bytes or that does not parse is answered
 *       {@code ERR bad request: <reason>}; the server keeps serving;</li>
 *   <li>an answer is at most {@link #MAX_RESPONSE} bytes and must be read by the client within
 *       {@link Limits#writeTimeoutMillis()}, else the connection is closed and counted.</li>
 * </ul>
 * Each kind of client incident is logged at most once per 10 s ({@link ClientIncidents}).
 *
 * <p>Who may ask what is {@link ControlAccess}'s decision, on the caller the kernel names ({@code SO_PEERCRED}):
 * a request that changes the cluster from a caller who may only read is answered {@code DENIED <why>} and
 * counted; every change that is served is logged with the caller's user and group and the client's process id
 * and command as the kernel's socket table shows them ({@link PeerProcesses}).
 */
public final class ControlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlServer.class);
    /** Largest answer sent, in bytes (1 MiB, what {@link ControlClient} accepts). */
    public static final int MAX_RESPONSE = 1 << 20;
    /** Unread request bytes dropped before closing, so the client reads its answer without a reset. */
    private static final int DRAIN_MAX = 4096;
    /** The caller of the request each worker answers ({@link #requester()}). */
    private static final ThreadLocal<String> REQUESTER = new ThreadLocal<>();

    /**
     * The server's bounds.
     *
     * @param maxClients         clients served at once (and worker threads at most), ≥ 1
     * @param readTimeoutMillis  time a client has to send its request line, ms, ≥ 1
     * @param writeTimeoutMillis time a client has to read its answer, ms, ≥ 1
     */
    public record Limits(int maxClients, long readTimeoutMillis, long writeTimeoutMillis) {
        /** 16 clients, 5 s to send the request, 5 s to read the answer. */
        public static final Limits DEFAULT = new Limits(16, 5_000, 5_000);

        public Limits {
            if (maxClients < 1 || readTimeoutMillis < 1 || writeTimeoutMillis < 1) {
                throw new IllegalArgumentException("control server limits must be positive: " + maxClients + ", "
                        + readTimeoutMillis + " ms, " + writeTimeoutMillis + " ms");
            }
        }
    }

    /**
     * Counts since start.
     *
     * @param malformed   requests answered {@code ERR bad request}
     * @param silent      clients dropped for sending no request line in time
     * @param busy        clients turned away because every slot was taken
     * @param slowReaders clients that did not read their answer in time
     * @param denied      changes asked by callers who may only read
     */
    public record Stats(long malformed, long silent, long busy, long slowReaders, long denied) { }

    private final Path socket;
    private final Function<ControlRequest, ControlResponse> handler;
    private final Limits limits;
    private final MonotonicClock clock;
    private final ControlAccess access;
    private final Semaphore slots;
    private final ClientIncidents incidents = new ClientIncidents();
    private final PeerProcesses peers = new PeerProcesses();
    private ServerSocketChannel server;
    private volatile Path bound;
    private ThreadPoolExecutor workers;
    private Thread acceptor;

    /**
     * A server with {@link Limits#DEFAULT} on the system clock.
     *
     * @param socket  where to create the socket (an old one is removed first)
     * @param handler answers one parsed request; runs on a worker thread and may block (a hand-over waits
     *                for its end); a RuntimeException it throws is answered {@code ERR internal error}
     */
    public ControlServer(Path socket, Function<ControlRequest, ControlResponse> handler) {
        this(socket, handler, Limits.DEFAULT, MonotonicClock.system());
    }

    /** As {@link #ControlServer(Path, Function)} with explicit bounds and clock (tests); changes for root only. */
    public ControlServer(Path socket, Function<ControlRequest, ControlResponse> handler, Limits limits,
                         MonotonicClock clock) {
        this(socket, handler, limits, clock, ControlAccess.ROOT_ONLY);
    }

    /**
     * A server with explicit bounds, clock and access rule.
     *
     * @param access who may send which request
     */
    public ControlServer(Path socket, Function<ControlRequest, ControlResponse> handler, Limits limits,
                         MonotonicClock clock, ControlAccess access) {
        this.socket = socket;
        this.handler = handler;
        this.limits = limits;
        this.clock = clock;
        this.access = java.util.Objects.requireNonNull(access, "access");
        this.slots = new Semaphore(limits.maxClients());
    }

    /** Binds the socket and starts the acceptor thread. @throws IOException if it cannot bind */
    public void start() throws IOException {
        Files.deleteIfExists(socket);
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        if (!UnixSocketFiles.bind(server, socket, "rw-rw----", java.util.Optional.of("haclient"))) {
            LOG.debug("group haclient not found; control socket stays in root's group");
        }
        // the kernel's socket table (PeerProcesses) names the socket by the path it was bound at, before the rename
        bound = ((java.net.UnixDomainSocketAddress) server.getLocalAddress()).getPath();
        AtomicInteger n = new AtomicInteger();
        workers = new ThreadPoolExecutor(limits.maxClients(), limits.maxClients(), 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "hb-control-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        workers.allowCoreThreadTimeOut(true);
        acceptor = new Thread(this::acceptLoop, "hb-control-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** What went wrong with clients since start. */
    public Stats stats() {
        return new Stats(incidents.count(Kind.MALFORMED), incidents.count(Kind.SILENT), incidents.count(Kind.BUSY),
                incidents.count(Kind.SLOW_READER), incidents.count(Kind.DENIED));
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) {
                if (server.isOpen()) {
                    LOG.warn("control socket: accept failed: {}", e.getMessage());
                    pause();
                }
                continue;
            }
            if (!slots.tryAcquire()) {
                turnAway(ch);
                continue;
            }
            try {
                workers.execute(() -> {
                    try {
                        serve(ch);
                    } finally {
                        closeQuietly(ch);
                        slots.release();
                    }
                });
            } catch (RejectedExecutionException e) {
                closeQuietly(ch);
                slots.release();
            }
        }
    }

    /** Every slot is taken: one error line if the socket takes it at once, then close. Never blocks. */
    private void turnAway(SocketChannel ch) {
        incident(Kind.BUSY, "turned a client away: " + limits.maxClients() + " clients are being served");
        try {
            ch.configureBlocking(false);
            ch.write(ByteBuffer.wrap(("ERR too many control clients (" + limits.maxClients()
                    + " at once); try again\n").getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer sink = ByteBuffer.allocate(DRAIN_MAX);
            ch.read(sink);
        } catch (IOException e) {
            LOG.debug("control socket: turning a client away: {}", e.getMessage());
        }
        closeQuietly(ch);
    }

    private void serve(SocketChannel ch) {
        try (TimedChannel io = new TimedChannel(ch, clock)) {
            ByteBuffer buf = ByteBuffer.allocate(ControlRequest.MAX_LENGTH + 2);
            TimedChannel.ReadEnd end = io.readLine(buf, clock.nanoTime() + limits.readTimeoutMillis() * 1_000_000);
            ControlResponse resp;
            if (end == TimedChannel.ReadEnd.TIMEOUT) {
                incident(Kind.SILENT, "dropped a client that sent no request line within "
                        + limits.readTimeoutMillis() + " ms (" + buf.position() + " bytes received)");
                resp = ControlResponse.error("no request line within " + limits.readTimeoutMillis() + " ms");
            } else if (end == TimedChannel.ReadEnd.FULL) {
                resp = malformed("request longer than " + ControlRequest.MAX_LENGTH + " bytes");
            } else {
                resp = answer(line(buf, end), caller(ch));
            }
            // a handler interrupted by close() still gets its answer out (an interrupted channel op would close it)
            boolean interrupted = Thread.interrupted();
            byte[] text = (resp.head() + "\n" + resp.body()).getBytes(StandardCharsets.UTF_8);
            if (text.length > MAX_RESPONSE) {
                LOG.error("control socket: answer of {} bytes is larger than {}; not sent", text.length, MAX_RESPONSE);
                text = ("ERR answer larger than " + MAX_RESPONSE + " bytes\n").getBytes(StandardCharsets.US_ASCII);
            }
            if (!io.writeAll(ByteBuffer.wrap(text), clock.nanoTime() + limits.writeTimeoutMillis() * 1_000_000)) {
                incident(Kind.SLOW_READER, "closed a client that did not read its answer within "
                        + limits.writeTimeoutMillis() + " ms");
            }
            io.drain(DRAIN_MAX);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } catch (IOException e) {
            LOG.debug("control socket: client went away: {}", e.getMessage());
        }
    }

    /** The request line: up to the first newline (a trailing CR dropped), or everything before EOF. */
    private static String line(ByteBuffer buf, TimedChannel.ReadEnd end) {
        int len = buf.position();
        if (end == TimedChannel.ReadEnd.LINE) {
            len = 0;
            while (buf.get(len) != '\n') {
                len++;
            }
        }
        if (len > 0 && buf.get(len - 1) == '\r') {
            len--;
        }
        // ISO-8859-1 maps every byte to one char, so any non-ASCII byte reaches the parser and is refused there
        return new String(buf.array(), 0, len, StandardCharsets.ISO_8859_1);
    }

    /** Who is connected, as the kernel says; an unknown caller may only read. */
    private static ControlAccess.Caller caller(SocketChannel ch) {
        try {
            jdk.net.UnixDomainPrincipal p = ch.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED);
            return new ControlAccess.Caller(p.user().getName(), p.group().getName());
        } catch (IOException | UnsupportedOperationException e) {
            return new ControlAccess.Caller("unknown", "unknown");
        }
    }

    /**
     * Who sent the request that the calling thread (a worker, inside the handler) answers, as the log line of a
     * change names it: {@code user root (group root), uid 0, pid 4242 (hb)} (process id and command for changes
     * only); empty outside a handler. The journal's {@code by} of standby, takeover, cleanup, maintenance, reload.
     */
    public static String requester() {
        String who = REQUESTER.get();
        return who == null ? "" : who;
    }

    private ControlResponse answer(String line, ControlAccess.Caller caller) {
        ControlRequest req;
        try {
            req = ControlRequest.parse(line);
        } catch (MalformedRequestException e) {
            return malformed(e.getMessage());
        }
        // a front end's user (the web console's): the change is checked against the caller on the socket, as any
        String onBehalf = "";
        if (req instanceof ControlRequest.OnBehalf ob) {
            onBehalf = ob.requester() + " via ";
            req = ob.request();
        }
        java.util.Optional<String> refusal = access.refusal(caller, req);
        if (refusal.isPresent()) {
            incident(Kind.DENIED, "denied: " + refusal.get());
            return ControlResponse.denied(refusal.get());
        }
        String who = onBehalf + caller;
        if (req.changesState()) {
            who += peers.describe(bound != null ? bound : socket, ProcessHandle.current().pid(), caller.user());
            LOG.info("control socket: '{}' from {}", req.toWire(), who);
        }
        REQUESTER.set(who);
        try {
            return handler.apply(req);
        } catch (RuntimeException e) {
            LOG.error("control socket: answering [{}] failed: {}", req.toWire(), e.toString());
            return ControlResponse.error("internal error: " + e);
        } finally {
            REQUESTER.remove();
        }
    }

    private ControlResponse malformed(String reason) {
        incident(Kind.MALFORMED, "bad request: " + reason);
        return ControlResponse.error("bad request: " + reason);
    }

    private void incident(Kind kind, String detail) {
        incidents.record(kind, detail, clock.nanoTime()).ifPresent(LOG::warn);
    }

    /** After a failed accept (e.g. no file descriptors left): 100 ms, so the loop does not spin. */
    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            LOG.debug("closing a control connection: {}", e.getMessage());
        }
    }

    /** Stops accepting, interrupts the workers (a waiting hand-over answer is abandoned) and removes the socket. */
    @Override
    public void close() {
        try {
            if (server != null) {
                server.close();
            }
            if (workers != null) {
                workers.shutdownNow();
            }
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            LOG.debug("closing control socket: {}", e.getMessage());
        }
    }
}
