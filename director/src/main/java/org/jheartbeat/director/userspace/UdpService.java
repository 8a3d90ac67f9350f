package org.jheartbeat.director.userspace;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.userspace.sched.ServiceScheduling;

/**
 * A UDP virtual service: a flow table keyed by the client's address and port. A client's first
 * datagram is scheduled and opens a flow (a connected socket to its real server); later datagrams
 * of the client follow it, and the real's answers go back to the client from the virtual address.
 * A flow with no datagram either way for {@code udpTimeout} is forgotten (as IPVS's UDP entries).
 * The table holds at most {@code maxUdpFlows} flows and {@code maxPerSource} of one client address;
 * a full table makes room for a new client rather than dropping it ({@link UdpFlowTable}), so forged
 * datagrams cannot lock real clients out. The table is touched only on the listener's event loop.
 */
final class UdpService extends VirtualProxy {
    private final EventLoopGroup group;
    private final Transport transport;
    private final UserspaceOptions options;
    private final AtomicLong dropped;
    private final MonotonicClock clock;
    private final UdpFlowTable<Flow> flows;
    private final AtomicInteger size = new AtomicInteger();

    UdpService(ServiceScheduling scheduling, EventLoopGroup group, Transport transport, UserspaceOptions options,
            AtomicLong dropped, MonotonicClock clock) {
        super(scheduling);
        this.group = group;
        this.transport = transport;
        this.options = options;
        this.dropped = dropped;
        this.clock = clock;
        this.flows = new UdpFlowTable<>(options.maxUdpFlows(), Math.min(options.maxPerSource(), options.maxUdpFlows()),
                options.udpTimeout().toNanos());
    }

    @Override
    void bind(InetSocketAddress address) throws Exception {
        Bootstrap b = new Bootstrap().group(group).channel(transport.datagram())
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                        fromClient(ctx.channel(), p);
                    }
                });
        transport.listenerOptions(b);
        listener = b.bind(address).sync().channel();
    }

    @Override
    int open() {
        return size.get();
    }

    @Override
    void close() {
        Channel l = listener;
        if (l == null) {
            return;
        }
        l.eventLoop().execute(() -> {
            flows.clear().forEach(Flow::end);
            size.set(0);
        });
        l.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    @Override
    void sweep() {
        Channel l = listener;
        if (l == null) {
            return;
        }
        l.eventLoop().execute(() -> {
            flows.expire(clock.nanoTime()).forEach(Flow::end);
            size.set(flows.size());
        });
    }

    private void fromClient(Channel listenerChannel, DatagramPacket p) {
        InetSocketAddress client = p.sender();
        long now = clock.nanoTime();
        Flow f = flows.fromClient(client, now).orElse(null);
        if (f == null) {
            UdpFlowTable.Admission<Flow> a = flows.admit(client);
            if (!(a instanceof UdpFlowTable.Admit<Flow> admit)) {
                dropped.incrementAndGet();
                return;
            }
            admit.evicted().ifPresent(Flow::end);
            Optional<ServiceScheduling.Connection> c = schedule(client);
            if (c.isEmpty()) {
                size.set(flows.size());
                dropped.incrementAndGet();
                return;
            }
            Flow nf = new Flow(client, c.get(), listenerChannel);
            nf.connect = new Bootstrap().group(listenerChannel.eventLoop()).channel(transport.datagram())
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            nf.fromReal(msg);
                        }
                    }).connect(c.get().real());
            f = nf;
            flows.put(client, f, now);
            size.set(flows.size());
        }
        ByteBuf data = p.content().retain();
        int n = data.readableBytes();
        Flow flow = f;
        f.connect.addListener((ChannelFutureListener) done -> {
            if (done.isSuccess() && done.channel().isWritable()) {
                transferred(flow.conn, 1, 0, n, 0);
                done.channel().writeAndFlush(data, done.channel().voidPromise());
            } else {
                data.release();
                dropped.incrementAndGet();
            }
        });
    }

    /** One client's flow. */
    private final class Flow {
        final InetSocketAddress client;
        final ServiceScheduling.Connection conn;
        final Channel listenerChannel;
        ChannelFuture connect;

        Flow(InetSocketAddress client, ServiceScheduling.Connection conn, Channel listenerChannel) {
            this.client = client;
            this.conn = conn;
            this.listenerChannel = listenerChannel;
        }

        void fromReal(Object msg) {
            ByteBuf content;
            if (msg instanceof DatagramPacket dp) {
                content = dp.content();
            } else if (msg instanceof ByteBuf b) {
                content = b;
            } else {
                ReferenceCountUtil.release(msg);
                return;
            }
            flows.fromReal(client, clock.nanoTime());
            int n = content.readableBytes();
            transferred(conn, 0, 1, 0, n); // counted before the client can see it
            listenerChannel.writeAndFlush(new DatagramPacket(content, client), listenerChannel.voidPromise());
        }

        void end() {
            connect.channel().close();
            closed(conn);
        }
    }
}
