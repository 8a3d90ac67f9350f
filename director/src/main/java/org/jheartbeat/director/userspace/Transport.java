package org.jheartbeat.director.userspace;

import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.bootstrap.AbstractBootstrap;

/**
 * Netty's native epoll transport where its library loads (Linux), Java NIO otherwise. With epoll
 * the listeners set {@code IP_FREEBIND}, so a virtual address can be bound before the HA resource
 * that carries it is up (as IPVS takes services for addresses it does not have).
 */
final class Transport {
    final boolean epoll;

    Transport(boolean forceNio) {
        this.epoll = !forceNio && Epoll.isAvailable();
    }

    String name() {
        return epoll ? "epoll" : "nio";
    }

    /**
     * The event loops.
     *
     * @param threads loops; 0: one per core (as HAProxy's {@code nbthread}), not Netty's default of two per core,
     *                which on a busy director only adds switches between loops that share the cores
     */
    EventLoopGroup group(int threads) {
        IoHandlerFactory f = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads > 0 ? threads : Runtime.getRuntime().availableProcessors(), f);
    }

    Class<? extends ServerSocketChannel> server() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    Class<? extends SocketChannel> socket() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    Class<? extends DatagramChannel> datagram() {
        return epoll ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    /**
     * Whether a TCP service binds one listener per event loop ({@code SO_REUSEPORT}), each accepting onto its own
     * loop: with epoll (Linux); NIO has one listener.
     */
    boolean listenerPerLoop() {
        return epoll;
    }

    /** Options of the listeners bound once per loop ({@link #listenerPerLoop}): {@code SO_REUSEPORT}. */
    void listenerPerLoopOptions(AbstractBootstrap<?, ?> b) {
        b.option(EpollChannelOption.SO_REUSEPORT, true);
    }

    /**
     * The connections to real servers of one address family: with epoll an {@code AF_INET} socket for an IPv4 real
     * (Netty's default is a dual-stack {@code AF_INET6} socket, one {@code setsockopt(IPV6_V6ONLY)} more per
     * connection), NIO's default otherwise.
     */
    io.netty.channel.ChannelFactory<? extends SocketChannel> socket(boolean ipv6) {
        if (!epoll) {
            return NioSocketChannel::new;
        }
        io.netty.channel.socket.SocketProtocolFamily f = ipv6 ? io.netty.channel.socket.SocketProtocolFamily.INET6
                : io.netty.channel.socket.SocketProtocolFamily.INET;
        return () -> new EpollSocketChannel(f);
    }

    /** Listener options: address reuse and, with epoll, IP_FREEBIND. */
    void listenerOptions(AbstractBootstrap<?, ?> b) {
        b.option(ChannelOption.SO_REUSEADDR, true);
        if (epoll) {
            b.option(EpollChannelOption.IP_FREEBIND, true);
        }
    }
}
