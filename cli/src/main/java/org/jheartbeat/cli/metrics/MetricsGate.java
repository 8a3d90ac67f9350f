package org.jheartbeat.cli.metrics;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What the metrics endpoint lets a client have: a connection slot, a deadline, one answer. The limits are
 * fixed, not configurable, because they only bound what a stranger can take; a Prometheus server needs one
 * connection per scrape. When every slot is taken, a new connection takes the slot of the oldest one that has
 * not sent its request yet (it is reset), so idle connections, however many, never keep a scrape out; only
 * when every slot holds a request being answered is the new one refused. Every method runs on the endpoint's
 * one I/O thread.
 */
final class MetricsGate {
    /** Connections open at once (see the class comment for what happens to a further one). */
    static final int MAX_CONNECTIONS = 32;
    /** From accept to the whole request read; a slower (or stalled) client is disconnected. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /**
     * From the request to the answer written; covers the scrapes queued before this one (each waits at most
     * {@link MetricsEndpoint#LOOP_ANSWER_TIMEOUT_MS} for the loop) and a client that does not read the answer.
     */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);
    private static final AttributeKey<ScheduledFuture<?>> DEADLINE = AttributeKey.valueOf("hb-metrics-deadline");
    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    private final Optional<byte[]> expectedAuthorization;
    private final Supplier<byte[]> scrape;
    private final Executor scrapes;
    private final AtomicInteger open = new AtomicInteger();
    /** Connections admitted that have not delivered a request, oldest first. */
    private final java.util.ArrayDeque<io.netty.channel.Channel> waiting = new java.util.ArrayDeque<>();
    private final AtomicLong refused = new AtomicLong();
    private final Handler handler = new Handler();

    /**
     * @param token   the bearer token requests must carry, if any
     * @param scrape  builds one scrape's text; called on {@code scrapes}
     * @param scrapes runs scrapes; a full queue answers 503
     */
    MetricsGate(Optional<String> token, Supplier<byte[]> scrape, Executor scrapes) {
        this.expectedAuthorization = token.map(t -> ("Bearer " + t).getBytes(StandardCharsets.UTF_8));
        this.scrape = scrape;
        this.scrapes = scrapes;
    }

    /**
     * Takes a slot for a newly accepted connection and arms its request deadline. When every slot is taken, the
     * oldest connection still waiting for its request is reset to make room; when none is waiting, the new one is
     * reset instead (with SO_LINGER 0, so the kernel keeps no TIME_WAIT state for either).
     *
     * @return false when the connection was refused
     */
    boolean admit(SocketChannel c) {
        if (open.get() >= MAX_CONNECTIONS) {
            io.netty.channel.Channel oldest = waiting.pollFirst();
            refused.incrementAndGet();
            reset(oldest != null ? oldest : c);
            if (oldest == null) {
                return false;
            }
        }
        open.incrementAndGet();
        waiting.addLast(c);
        c.closeFuture().addListener(f -> {
            open.decrementAndGet();
            waiting.remove(c);
        });
        deadline(c, REQUEST_TIMEOUT);
        return true;
    }

    private static void reset(io.netty.channel.Channel c) {
        c.config().setOption(ChannelOption.SO_LINGER, 0);
        c.close();
    }

    /** The shared handler that answers requests. */
    ChannelHandler handler() {
        return handler;
    }

    int open() {
        return open.get();
    }

    long refused() {
        return refused.get();
    }

    private static void deadline(io.netty.channel.Channel c, Duration d) {
        ScheduledFuture<?> old = c.attr(DEADLINE).getAndSet(c.eventLoop().schedule(() -> reset(c), d.toMillis(),
                TimeUnit.MILLISECONDS));
        if (old != null) {
            old.cancel(false);
        }
    }

    private static void answer(ChannelHandlerContext ctx, HttpResponseStatus status, String contentType, byte[] body,
                               boolean head) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        r.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (status == HttpResponseStatus.UNAUTHORIZED) {
            r.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"jheartbeat\"");
        }
        ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
    }

    private static void plain(ChannelHandlerContext ctx, HttpResponseStatus status, String text) {
        answer(ctx, status, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8), false);
    }

    @ChannelHandler.Sharable
    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            waiting.remove(ctx.channel());
            deadline(ctx.channel(), ANSWER_TIMEOUT);
            ctx.channel().config().setAutoRead(false); // one request per connection: read nothing more
            if (!req.decoderResult().isSuccess()) {
                plain(ctx, HttpResponseStatus.BAD_REQUEST, "bad request");
                return;
            }
            boolean head = req.method().equals(HttpMethod.HEAD);
            if (!head && !req.method().equals(HttpMethod.GET)) {
                plain(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, "use GET /metrics");
                return;
            }
            String path = req.uri();
            int q = path.indexOf('?');
            if (!(q < 0 ? path : path.substring(0, q)).equals("/metrics")) {
                plain(ctx, HttpResponseStatus.NOT_FOUND, "not found; the metrics are at /metrics");
                return;
            }
            if (expectedAuthorization.isPresent()) {
                String given = req.headers().get(HttpHeaderNames.AUTHORIZATION, "");
                if (!MessageDigest.isEqual(expectedAuthorization.get(), given.getBytes(StandardCharsets.UTF_8))) {
                    plain(ctx, HttpResponseStatus.UNAUTHORIZED, "send the token of metrics: token_file: as"
                            + " 'Authorization: Bearer TOKEN'");
                    return;
                }
            }
            try {
                scrapes.execute(() -> {
                    try {
                        byte[] text = scrape.get();
                        ctx.executor().execute(() -> answer(ctx, HttpResponseStatus.OK, TEXT_FORMAT, text, head));
                    } catch (RuntimeException e) {
                        ctx.executor().execute(() -> plain(ctx, HttpResponseStatus.INTERNAL_SERVER_ERROR,
                                "the scrape failed: " + e));
                    }
                });
            } catch (RejectedExecutionException e) {
                plain(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE, "busy: too many scrapes at once");
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // a reset or a codec failure: nothing to answer, nothing worth a log line per client
        }
    }
}
