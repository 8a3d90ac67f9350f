package org.jheartbeat.core.media.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.media.FrameSink;
import org.jheartbeat.core.media.Medium;
import org.jheartbeat.core.wire.WirePacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * UDP heartbeat media over Netty: {@code ucast IFACE PEER} and {@code bcast IFACE} (Heartbeat 3.0.6
 * {@code ucast.c}, {@code bcast.c}; facts G.2), on {@code udpport}, and {@code mcast IFACE GROUP PORT
 * TTL LOOP} ({@code mcast.c}) on its own port.
 *
 * <p>mcast, as Heartbeat: the receive socket is bound to {@code GROUP:PORT} (address reuse on) and
 * joins the group on the named interface (which must have an IPv4 address); a separate send socket
 * sends to {@code GROUP:PORT} with that interface as the multicast interface, the line's TTL, and
 * multicast loopback on only when LOOP is 1 (our own looped-back packets are then duplicates).
 *
 * <p>Binding to the named interface: Java and Netty's NIO transport have no {@code SO_BINDTODEVICE},
 * so the receive socket is bound to the interface address the kernel uses to reach the peer (ucast;
 * never a secondary service address) or to the interface's broadcast address (bcast). Linux then delivers to it only the datagrams addressed to that interface, which
 * is what makes the link attribution ({@code Link node2:eth1 up.}) right. The interface must have an
 * IPv4 address when the medium starts; where each socket binds is worked out by {@link UdpEndpoints}.
 *
 * <p>Each datagram is one message; its bytes are copied out of the {@link ByteBuf} in the first
 * handler, so nothing past this class ever sees Netty types. Receive buffers hold 64 KiB, the
 * largest UDP payload.
 */
public final class UdpMedium implements Medium {
    private static final Logger LOG = LoggerFactory.getLogger(UdpMedium.class);
    private static final int MAX_DATAGRAM = 65_536;

    private final MediumDecl decl;
    private final EventLoopGroup group;
    private Channel receive;
    private Channel sendChannel;
    private InetSocketAddress destination;
    private long sendErrors;

    /**
     * @param decl  a {@link MediumDecl.Ucast}, {@link MediumDecl.Bcast} or {@link MediumDecl.Mcast}
     * @param group the Netty event loop group to run on (shared by all UDP media)
     * @throws IllegalArgumentException for a serial medium
     */
    public UdpMedium(MediumDecl decl, EventLoopGroup group) {
        if (!(decl instanceof MediumDecl.Ucast) && !(decl instanceof MediumDecl.Bcast)
                && !(decl instanceof MediumDecl.Mcast)) {
            throw new IllegalArgumentException("not a UDP medium: " + decl);
        }
        this.decl = decl;
        this.group = group;
    }

    @Override
    public String linkName() {
        return decl.linkName();
    }

    @Override
    public String describe() {
        if (decl instanceof MediumDecl.Ucast u) {
            return "ucast " + u.iface() + " " + u.peer() + ":" + u.port();
        }
        if (decl instanceof MediumDecl.Mcast m) {
            return "mcast " + m.iface() + " " + m.group() + ":" + m.port() + " ttl=" + m.ttl() + " loop="
                    + (m.loop() ? 1 : 0);
        }
        MediumDecl.Bcast b = (MediumDecl.Bcast) decl;
        return "bcast " + b.iface() + ":" + b.port();
    }

    @Override
    public void start(FrameSink sink) throws IOException {
        String iface = decl.linkName();
        if (decl instanceof MediumDecl.Mcast m) {
            UdpEndpoints.ipv4Of(iface); // the interface must exist and have an IPv4 address to join the group on
            startMcast(m, sink);
            return;
        }
        UdpEndpoints at = UdpEndpoints.of(decl);
        destination = at.destination();
        receive = bind(at.receive(), sink, false);
        if (decl instanceof MediumDecl.Ucast u) {
            sendChannel = receive;
            LOG.info("ucast: started on port {} interface {} to {} (local address {})", u.port(), iface,
                    destination.getAddress().getHostAddress(), at.source().getHostAddress());
        } else {
            sendChannel = bind(new InetSocketAddress(at.source(), 0), null, true);
            LOG.info("bcast: started on port {} interface {} to {} (local address {})", destination.getPort(), iface,
                    destination.getAddress().getHostAddress(), at.source().getHostAddress());
        }
    }

    private void startMcast(MediumDecl.Mcast m, FrameSink sink) throws IOException {
        NetworkInterface ni = NetworkInterface.getByName(m.iface());
        InetAddress groupAddress = InetAddress.getByName(m.group());
        destination = new InetSocketAddress(groupAddress, m.port());
        Bootstrap rb = bootstrap(sink).option(ChannelOption.SO_REUSEADDR, true);
        receive = bindWith(rb, destination);
        try {
            ((NioDatagramChannel) receive).joinGroup(destination, ni).sync();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while joining " + m.group());
        } catch (Exception e) {
            throw new IOException("cannot join multicast group " + m.group() + " on interface " + m.iface() + ": "
                    + e.getMessage(), e);
        }
        Bootstrap sb = bootstrap(null)
                .option(ChannelOption.IP_MULTICAST_IF, ni)
                .option(ChannelOption.IP_MULTICAST_TTL, m.ttl())
                .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, !m.loop());
        // the kernel picks the source address of the interface (never a service address added to it)
        sendChannel = bindWith(sb, new InetSocketAddress(0));
        LOG.info("UDP multicast heartbeat started for group {} port {} interface {} (ttl={} loop={})", m.group(),
                m.port(), m.iface(), m.ttl(), m.loop() ? 1 : 0);
    }

    private Channel bind(InetSocketAddress local, FrameSink sink, boolean broadcast) throws IOException {
        Bootstrap b = bootstrap(sink)
                .option(ChannelOption.SO_BROADCAST, broadcast || decl instanceof MediumDecl.Bcast)
                .option(ChannelOption.IP_TOS, 0x10);
        return bindWith(b, local);
    }

    private Bootstrap bootstrap(FrameSink sink) {
        Bootstrap b = new Bootstrap().group(group);
        if (decl instanceof MediumDecl.Mcast) {
            // joining an IPv4 group needs an IPv4 channel
            b.channelFactory(() -> new NioDatagramChannel(SocketProtocolFamily.INET));
        } else {
            b.channel(NioDatagramChannel.class);
        }
        return b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM))
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket p) {
                        if (sink == null) {
                            return;
                        }
                        ByteBuf buf = p.content();
                        byte[] bytes = new byte[buf.readableBytes()];
                        buf.readBytes(bytes);
                        InetSocketAddress s = p.sender();
                        // the source is the sender's address only: senders change ports, not hosts
                        sink.onFrame(linkName(), s.getAddress().getHostAddress(), bytes);
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        LOG.warn("{}: receive error: {}", describe(), cause.toString());
                    }
                });
    }

    private Channel bindWith(Bootstrap b, InetSocketAddress local) throws IOException {
        try {
            return b.bind(local).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + local);
        } catch (Exception e) {
            throw new IOException("cannot bind UDP " + local.getAddress().getHostAddress() + ":" + local.getPort()
                    + " for " + describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void send(WirePacket packet) {
        Channel ch = sendChannel;
        if (ch == null || !ch.isActive()) {
            return;
        }
        ch.writeAndFlush(new DatagramPacket(Unpooled.wrappedBuffer(packet.netstring()), destination)).addListener(f -> {
            if (!f.isSuccess() && (sendErrors++ % 100) == 0) {
                LOG.warn("write_child: write failure on {}: {} ({} failures so far)", describe(),
                        f.cause() == null ? "?" : f.cause().getMessage(), sendErrors);
            }
        });
    }

    @Override
    public void close() {
        if (receive != null) {
            receive.close().syncUninterruptibly();
        }
        if (sendChannel != null && sendChannel != receive) {
            sendChannel.close().syncUninterruptibly();
        }
    }
}
