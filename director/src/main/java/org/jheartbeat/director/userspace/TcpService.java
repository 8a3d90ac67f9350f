package org.jheartbeat.director.userspace;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP virtual service: a listener on the virtual address; each accepted client is scheduled and
 * proxied to its real server over a second connection made on the same event loop (no thread per
 * connection). Backpressure: a side stops reading while the other side's write buffer is above
 * its high-water mark (64 KiB), so a connection holds at most about 128 KiB per direction.
 * Half-close: a FIN from one side is passed on as a shutdown of the other side's output; the
 * connection ends when both sides have closed, when either resets, after {@code idleTimeout}
 * without traffic, or {@code finTimeout} after the first FIN.
 *
 * <p>Per connection the work is kept to what HAProxy does too (the director's CPU per new connection was
 * 1.4–1.7× HAProxy's): one idle timer per pair, re-armed lazily from the time of the last read (as Netty's
 * {@code IdleStateHandler} re-arms, but one timer for both sides and no promise per write to learn when a
 * write completed); one {@link Bootstrap} per event loop, made once, for the connections to the real servers.
 */
final class TcpService extends VirtualProxy {
    private static final Logger LOG = LoggerFactory.getLogger(TcpService.class);
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(32 * 1024, 64 * 1024);

    private final EventLoopGroup group;
    private final Transport transport;
    private final UserspaceOptions options;
    private final TcpAdmission admission;
    private final AtomicLong refused;
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private final MonotonicClock clock;
    /** {@link UserspaceOptions#idleTimeout()} in ns of {@link #clock}. */
    private final long idleNanos;
    /** The connections to real servers of each event loop, made at its first connection (one per loop). */
    private final Map<EventLoop, Bootstrap> bootstraps = new ConcurrentHashMap<>();
    /** As {@link #bootstraps}, for IPv6 real servers. */
    private final Map<EventLoop, Bootstrap> bootstraps6 = new ConcurrentHashMap<>();
    /** The bound listeners ({@link #bind}); empty before. */
    private volatile java.util.List<Channel> listeners = java.util.List.of();

    /**
     * @param clock the idle timer's time (ns): when a pair last had traffic and whether it has been idle for
     *              {@code idleTimeout} (the timer's wake-ups are the event loop's; its decisions this clock's)
     */
    TcpService(ServiceScheduling scheduling, EventLoopGroup group, Transport transport, UserspaceOptions options,
            TcpAdmission admission, AtomicLong refused, MonotonicClock clock) {
        super(scheduling);
        this.group = group;
        this.transport = transport;
        this.options = options;
        this.admission = admission;
        this.refused = refused;
        this.clock = clock;
        this.idleNanos = options.idleTimeout().toNanos();
    }

    /**
     * The connections to IPv4 (or IPv6) real servers made on one loop; the relay is added per connection
     * ({@link #accept}).
     */
    private Bootstrap bootstrap(EventLoop loop, boolean ipv6) {
        return new Bootstrap().group(loop).channelFactory(transport.socket(ipv6))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
                        options.connectTimeout().toMillis()))
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .disableResolver() // the reals are addresses: no resolver to look up per connection
                .handler(NoHandler.INSTANCE);
    }

    /**
     * The handler a {@link Bootstrap} requires: handles nothing, so Netty passes no event through it (the pair's
     * relay is added after connect).
     */
    @ChannelHandler.Sharable
    private static final class NoHandler extends io.netty.channel.ChannelHandlerAdapter {
        static final NoHandler INSTANCE = new NoHandler();
    }

    /** Binds the virtual address: one listener per event loop with epoll ({@link TcpListeners}). */
    @Override
    void bind(InetSocketAddress address) throws Exception {
        listeners = TcpListeners.bind(transport, group, address, this::serverBootstrap);
        listener = listeners.get(0);
    }

    /**
     * A listener whose accepted connections are registered on {@code children}. {@code TCP_NODELAY} is not set
     * here: Netty's socket configuration sets it on every socket it makes ({@code canEnableTcpNoDelayByDefault}),
     * and setting it again was one more {@code setsockopt} per socket ({@code TcpServiceLoopTest} checks both sides keep it).
     */
    private ServerBootstrap serverBootstrap(EventLoopGroup parent, EventLoopGroup children) {
        ServerBootstrap b = new ServerBootstrap().group(parent, children).channel(transport.server())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        accept(ch);
                    }
                });
        transport.listenerOptions(b);
        return b;
    }

    @Override
    void close() {
        for (Channel l : listeners) {
            l.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        for (Pair p : pairs) {
            p.client.eventLoop().execute(() -> p.close(false));
        }
    }

    /** Each open pair's client and real server channels, for tests (their loops, listener and options). */
    java.util.List<java.util.List<Channel>> pairChannels() {
        return pairs.stream().map(p -> java.util.Arrays.<Channel>asList(p.client, p.real)).toList();
    }

    @Override
    int open() {
        return pairs.size();
    }

    /** Bootstraps made so far for connections to the reals (one per loop that has connected), for tests. */
    int bootstraps() {
        return bootstraps.size() + bootstraps6.size();
    }

    private void accept(SocketChannel client) {
        java.net.InetAddress source = client.remoteAddress().getAddress();
        if (admission.open(source) != TcpAdmission.Verdict.ADMITTED) {
            refused.incrementAndGet();
            client.close();
            return;
        }
        Optional<ServiceScheduling.Connection> c;
        try {
            c = schedule(client.remoteAddress());
        } catch (RuntimeException e) {
            LOG.warn("scheduling a connection from {} failed: {}", client.remoteAddress(), e.toString());
            c = Optional.empty();
        }
        if (c.isEmpty()) {
            admission.release(source);
            refused.incrementAndGet();
            client.close();
            return;
        }
        ServiceScheduling.Connection conn = c.get();
        Pair p = new Pair(client, conn, source);
        pairs.add(p);
        client.pipeline().addLast("relay", new Relay(p, true));
        p.touch();
        p.armIdle(idleNanos);
        boolean ipv6 = conn.real().getAddress() instanceof java.net.Inet6Address;
        Map<EventLoop, Bootstrap> made = ipv6 ? bootstraps6 : bootstraps;
        Bootstrap b = made.get(client.eventLoop());
        if (b == null) {
            b = made.computeIfAbsent(client.eventLoop(), loop -> bootstrap(loop, ipv6));
        }
        ChannelFuture f = b.connect(conn.real());
        p.real = f.channel();
        // before any event of the connection: Bootstrap connects in a task of this loop after this one
        p.real.pipeline().addLast("relay", new Relay(p, false));
        f.addListener((ChannelFutureListener) done -> {
            if (!done.isSuccess()) {
                LOG.debug("connect to {} failed: {}", conn.real(), String.valueOf(done.cause()));
                p.close(false);
            } else {
                p.up();
            }
        });
    }

    /**
     * A client's connection and its real server's; all on the client's event loop. As a task it is the idle
     * timer's check ({@link #run}).
     */
    private final class Pair implements Runnable {
        final SocketChannel client;
        final ServiceScheduling.Connection conn;
        Channel real;
        boolean up;
        boolean clientFin;
        boolean realFin;
        boolean closed;
        /**
         * What a side sent, and its FIN, before the real server's connection was up: a FIN makes Netty's epoll
         * transport read even with auto-read off (a request sent with its FIN at once); passed on at {@link #up}.
         */
        java.util.ArrayDeque<ByteBuf> early;
        boolean earlyClientFin;
        boolean earlyRealFin;
        /** The finTimeout bound after the first FIN; cancelled at close so that no task keeps a closed pair. */
        io.netty.util.concurrent.ScheduledFuture<?> finTimer;
        /** The idle timer: one per pair, re-armed by {@link #run}; cancelled at close. */
        io.netty.util.concurrent.ScheduledFuture<?> idleTimer;
        /** {@link #clock}'s time (ns) of the last read on either side or of a side's buffer draining. */
        long lastActivity;
        long inPackets;
        long outPackets;
        long inBytes;
        long outBytes;

        final java.net.InetAddress source;

        Pair(SocketChannel client, ServiceScheduling.Connection conn, java.net.InetAddress source) {
            this.client = client;
            this.conn = conn;
            this.source = source;
        }

        Channel other(boolean fromClient) {
            return fromClient ? real : client;
        }

        /** Traffic: the idle timeout counts from now. */
        void touch() {
            lastActivity = clock.nanoTime();
        }

        void armIdle(long delayNanos) {
            idleTimer = client.eventLoop().schedule(this, delayNanos, TimeUnit.NANOSECONDS);
        }

        /**
         * The idle timer fired: closes the pair when it has had no traffic for {@code idleTimeout}, else waits
         * for the rest of the timeout counted from the last traffic (traffic itself only stamps the time, so a
         * busy pair costs one timer per timeout, not one per read).
         */
        @Override
        public void run() {
            if (closed) {
                return;
            }
            long left = idleNanos - (clock.nanoTime() - lastActivity);
            if (left <= 0) {
                LOG.debug("closing {} after {} ms idle", conn, options.idleTimeout().toMillis());
                close(false);
            } else {
                armIdle(left);
            }
        }

        void up() {
            if (closed) {
                return;
            }
            if (!client.isActive()) {
                close(false);
                return;
            }
            up = true;
            established(conn);
            if (options.proxyProtocol().contains(conn.real())) {
                real.writeAndFlush(Unpooled.wrappedBuffer(ProxyHeader.v1(client.remoteAddress(),
                        client.localAddress())), real.voidPromise());
            }
            if (early != null) {
                for (ByteBuf b; (b = early.poll()) != null; ) {
                    inPackets++;
                    inBytes += b.readableBytes();
                    real.write(b, real.voidPromise());
                }
                real.flush();
                early = null;
            }
            if (earlyClientFin) {
                fin(true);
            }
            if (earlyRealFin) {
                fin(false);
            }
            if (closed) {
                return;
            }
            RelayChannels.resume(client);
            RelayChannels.resume(real);
        }

        /** Holds what the client sent before {@link #up} (one read: auto-read is off until then). */
        void hold(ByteBuf buf) {
            if (early == null) {
                early = new java.util.ArrayDeque<>(2);
            }
            early.add(buf);
        }

        void fin(boolean fromClient) {
            if (!up) {
                if (fromClient) {
                    earlyClientFin = true;
                } else {
                    earlyRealFin = true;
                }
                return;
            }
            boolean first = !clientFin && !realFin;
            if (fromClient) {
                clientFin = true;
            } else {
                realFin = true;
            }
            if (first) {
                closing(conn);
                finTimer = client.eventLoop().schedule(() -> close(false), options.finTimeout().toMillis(),
                        TimeUnit.MILLISECONDS);
            }
            if (clientFin && realFin) {
                // both have sent their FIN: closing sends ours, no shutdown of the output first (Netty fails
                // a shutdown with an exception built for the writes it might drop)
                close(true);
                return;
            }
            Channel o = other(fromClient);
            if (o != null && o.isActive()) {
                // o's own FIN will end the pair: let Netty close o at its end of input rather than shut its
                // input down (a shutdown(SHUT_RD) of a socket whose output is shut fails, ENOTCONN)
                o.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, false);
                if (RelayChannels.drained(o) && o instanceof SocketChannel s) {
                    RelayChannels.shutdownOutput(s); // nothing queued: no write to wait for
                } else {
                    o.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
                        if (o instanceof SocketChannel s && s.isActive()) {
                            s.shutdownOutput();
                        }
                    });
                }
            }
        }

        void report() {
            if (inPackets + outPackets > 0) {
                transferred(conn, inPackets, outPackets, inBytes, outBytes);
                inPackets = 0;
                outPackets = 0;
                inBytes = 0;
                outBytes = 0;
            }
        }

        /** Ends both connections; graceful: what is queued is written first. */
        void close(boolean graceful) {
            if (closed) {
                return;
            }
            closed = true;
            if (early != null) {
                early.forEach(ReferenceCountUtil::release);
                early = null;
            }
            if (finTimer != null) {
                finTimer.cancel(false);
                finTimer = null;
            }
            if (idleTimer != null) {
                idleTimer.cancel(false);
                idleTimer = null;
            }
            report();
            for (Channel ch : new Channel[] {client, real}) {
                if (ch == null || !ch.isOpen()) {
                    continue; // closed already (Netty closes a side at the end of its input, see fin)
                }
                // a side whose output is shut down has nothing queued (and Netty would fail the flush): close it
                if (graceful && ch.isActive() && !(ch instanceof SocketChannel s && s.isOutputShutdown())
                        && !RelayChannels.drained(ch)) {
                    ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
                } else {
                    ch.close(); // (Netty refuses a void promise for a close)
                }
            }
            closed(conn);
            admission.release(source);
            pairs.remove(this);
        }
    }

    /** One side of a pair: relays what it reads to the other side. */
    private static final class Relay extends ChannelInboundHandlerAdapter {
        private final Pair p;
        private final boolean clientSide;

        Relay(Pair p, boolean clientSide) {
            this.p = p;
            this.clientSide = clientSide;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel other = p.other(clientSide);
            if (!p.up && !p.closed && clientSide && msg instanceof ByteBuf early) {
                p.hold(early);
                return;
            }
            if (!p.up || p.closed || other == null || !(msg instanceof ByteBuf buf)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            int n = buf.readableBytes();
            if (clientSide) {
                p.inPackets++;
                p.inBytes += n;
            } else {
                p.outPackets++;
                p.outBytes += n;
            }
            other.write(buf, other.voidPromise());
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            p.touch();
            Channel other = p.other(clientSide);
            if (other == null || p.closed || !p.up) {
                return;
            }
            other.flush();
            p.report();
            if (!other.isWritable()) {
                ctx.channel().config().setAutoRead(false);
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            Channel other = p.other(clientSide);
            if (ctx.channel().isWritable() && other != null && p.up && !p.closed) {
                p.touch(); // what was queued for this side drained: traffic
                RelayChannels.resume(other);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                p.fin(clientSide);
            } else {
                ctx.fireUserEventTriggered(evt);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            p.close(true);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.debug("connection error: {}", cause.toString());
            p.close(false);
        }
    }
}
