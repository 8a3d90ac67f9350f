package org.jheartbeat.cli.web;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.CookieHeaderNames;
import io.netty.handler.codec.http.cookie.DefaultCookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.handler.codec.http.cookie.ServerCookieEncoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The console's HTTP(S) server: Netty's codec parses HTTP (no hand-written parsing), on the console's own I/O thread.
 * Its bounds are the metrics endpoint's (MetricsGate): at most {@link #MAX_CONNECTIONS} connections, the whole request
 * within {@link #REQUEST_TIMEOUT} (a TLS handshake included), 4 KiB request line, 8 KiB of headers, a body of at most
 * 8 KiB (a form), one answer per connection. Pages are answered on {@code hb-web} workers (at most
 * {@link #MAX_WAITING} waiting, then 503); the live stream ({@code GET /stream}, server-sent events) is held open
 * without deadline, at most {@link #MAX_STREAMS} at once, with a comment every 15 s so proxies keep it.
 */
public final class WebServer implements AutoCloseable {
    static final int MAX_CONNECTIONS = 64;
    static final int MAX_STREAMS = 16;
    static final int MAX_WAITING = 32;
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** From request to answer written: covers an action's hand-over (120 s) and its answer. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(180);
    private static final AttributeKey<ScheduledFuture<?>> DEADLINE = AttributeKey.valueOf("hb-web-deadline");

    private final Channel listener;
    private final EventLoopGroup io;
    private final ThreadPoolExecutor workers;
    private final Set<Channel> streams = ConcurrentHashMap.newKeySet();
    private final AtomicInteger open = new AtomicInteger();
    private final Console console;
    private final boolean secure;

    private WebServer(InetSocketAddress at, Optional<SslContext> tls, Console console) throws IOException {
        this.console = console;
        this.secure = tls.isPresent();
        this.workers = new ThreadPoolExecutor(4, 4, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(MAX_WAITING),
                new DefaultThreadFactory("hb-web", true));
        this.io = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("hb-web-io", true), NioIoHandler.newFactory());
        Handler handler = new Handler();
        try {
            listener = new ServerBootstrap().group(io).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel c) {
                            if (open.get() >= MAX_CONNECTIONS) {
                                c.config().setOption(ChannelOption.SO_LINGER, 0);
                                c.close();
                                return;
                            }
                            open.incrementAndGet();
                            c.closeFuture().addListener(f -> {
                                open.decrementAndGet();
                                streams.remove(c);
                            });
                            deadline(c, REQUEST_TIMEOUT);
                            if (tls.isPresent()) {
                                SslHandler h = tls.get().newHandler(c.alloc());
                                h.setHandshakeTimeoutMillis(REQUEST_TIMEOUT.toMillis());
                                c.pipeline().addLast(h);
                            }
                            c.pipeline().addLast(new HttpServerCodec(4096, 8192, 8192), new HttpObjectAggregator(8192),
                                    handler);
                        }
                    }).bind(at).sync().channel();
        } catch (Exception e) {
            close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw e instanceof IOException io2 ? io2 : new IOException(e.getMessage(), e);
        }
        io.scheduleAtFixedRate(() -> broadcast(": keep-alive\n\n"), 15, 15, TimeUnit.SECONDS);
    }

    /**
     * Binds and serves.
     *
     * @param tls the server context ({@code MetricsTls.load}), or empty for plain HTTP (loopback only: the caller checks)
     * @throws IOException when the address cannot be bound
     */
    public static WebServer start(InetSocketAddress at, Optional<SslContext> tls, Console console) throws IOException {
        return new WebServer(at, tls, console);
    }

    /** The port listened on. */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** Tells every open page that what it shows has changed (an SSE {@code refresh} event). */
    public void changed(String fingerprint) {
        broadcast("event: refresh\ndata: " + fingerprint + "\n\n");
    }

    private void broadcast(String text) {
        for (Channel c : streams) {
            if (!c.isWritable()) {
                c.close(); // a page that does not read its stream: drop it rather than buffer for it
                continue;
            }
            c.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)));
        }
    }

    private static void deadline(Channel c, Duration d) {
        ScheduledFuture<?> old = c.attr(DEADLINE).getAndSet(d == null ? null : c.eventLoop().schedule(() -> {
            c.config().setOption(ChannelOption.SO_LINGER, 0);
            c.close();
        }, d.toMillis(), TimeUnit.MILLISECONDS));
        if (old != null) {
            old.cancel(false);
        }
    }

    @ChannelHandler.Sharable
    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            deadline(ctx.channel(), ANSWER_TIMEOUT);
            ctx.channel().config().setAutoRead(false); // one request per connection
            if (!req.decoderResult().isSuccess()) {
                write(ctx, Console.Response.html(400, "bad request"));
                return;
            }
            QueryStringDecoder q = new QueryStringDecoder(req.uri());
            String method = req.method().name();
            if (!method.equals("GET") && !method.equals("POST")) {
                write(ctx, Console.Response.html(405, "use GET or POST"));
                return;
            }
            if (method.equals("GET") && q.path().startsWith("/static/")) {
                write(ctx, asset(q.path().substring(8)));
                return;
            }
            Optional<String> session = cookie(req.headers());
            String remote = ((InetSocketAddress) ctx.channel().remoteAddress()).getAddress().getHostAddress();
            Map<String, java.util.List<String>> form = method.equals("POST")
                    ? new QueryStringDecoder(req.content().toString(StandardCharsets.UTF_8), false).parameters() : Map.of();
            Console.Request r = new Console.Request(method, q.path(), q.parameters(), form, session, remote);
            try {
                workers.execute(() -> {
                    if (method.equals("GET") && q.path().equals("/stream")) {
                        boolean ok = console.session(r).isPresent();
                        ctx.executor().execute(() -> stream(ctx, ok));
                        return;
                    }
                    Console.Response a;
                    try {
                        a = console.handle(r);
                    } catch (RuntimeException e) {
                        a = Console.Response.html(500, "internal error: " + Html.esc(e));
                    }
                    Console.Response done = a;
                    ctx.executor().execute(() -> write(ctx, done));
                });
            } catch (RejectedExecutionException e) {
                write(ctx, Console.Response.html(503, "busy: too many requests at once"));
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    private void stream(ChannelHandlerContext ctx, boolean loggedIn) {
        if (!loggedIn || streams.size() >= MAX_STREAMS) {
            write(ctx, Console.Response.html(loggedIn ? 503 : 403, loggedIn ? "too many live pages" : "log in first"));
            return;
        }
        DefaultHttpResponse r = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        HttpUtil.setTransferEncodingChunked(r, true);
        deadline(ctx.channel(), null);
        streams.add(ctx.channel());
        ctx.write(r);
        ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer("retry: 3000\n\n", StandardCharsets.UTF_8)));
    }

    private Optional<String> cookie(HttpHeaders h) {
        String v = h.get(HttpHeaderNames.COOKIE);
        if (v == null) {
            return Optional.empty();
        }
        try {
            return ServerCookieDecoder.STRICT.decode(v).stream().filter(c -> c.name().equals(Console.COOKIE))
                    .map(Cookie::value).findFirst();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Console.Response asset(String name) {
        String type = name.equals("console.css") ? "text/css; charset=utf-8"
                : name.equals("console.js") ? "text/javascript; charset=utf-8" : null;
        if (type != null) {
            try (InputStream in = WebServer.class.getResourceAsStream(name)) {
                if (in != null) {
                    return new Console.Response(200, type, in.readAllBytes(), Optional.empty(), Optional.empty());
                }
            } catch (IOException e) {
                // fall through: 404
            }
        }
        return Console.Response.html(404, "not found");
    }

    private void write(ChannelHandlerContext ctx, Console.Response a) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(a.status()),
                Unpooled.wrappedBuffer(a.body()));
        HttpHeaders h = r.headers();
        h.set(HttpHeaderNames.CONTENT_TYPE, a.contentType()).setInt(HttpHeaderNames.CONTENT_LENGTH, a.body().length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set("X-Frame-Options", "DENY").set("X-Content-Type-Options", "nosniff")
                .set("Referrer-Policy", "same-origin")
                .set("Content-Security-Policy", "default-src 'self'; form-action 'self'; frame-ancestors 'none'");
        a.location().ifPresent(l -> h.set(HttpHeaderNames.LOCATION, l));
        a.cookie().ifPresent(v -> {
            DefaultCookie c = new DefaultCookie(Console.COOKIE, v);
            c.setHttpOnly(true);
            c.setSecure(secure);
            c.setPath("/");
            c.setSameSite(CookieHeaderNames.SameSite.Strict);
            if (v.isEmpty()) {
                c.setMaxAge(0);
            }
            h.add(HttpHeaderNames.SET_COOKIE, ServerCookieEncoder.STRICT.encode(c));
        });
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }

    /** Stops listening, closes every connection and stops the threads. */
    @Override
    public void close() {
        if (listener != null) {
            listener.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        workers.shutdownNow();
    }
}
