package org.jheartbeat.director.userspace;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The listeners of a TCP virtual service. With epoll, one listener per event loop, bound with {@code SO_REUSEPORT}
 * (the kernel spreads new connections over them by a hash of the addresses), each registering what it accepts on
 * its own loop: a client's connection, its real server's and every event of both stay on the loop that accepted
 * the client. One listener on the group (Netty's usual form) registers each accepted connection on the group's next
 * loop, so with two loops every other connection was handed to the other loop: a task in its queue and an
 * {@code eventfd} write to wake it, and more {@code epoll_wait} returns per connection (0.48 writes and 3.2 waits
 * per connection before, none and 1.4 after, perf trace over {@code ab}; docs/design/userspace-director.md). HAProxy
 * with {@code nbthread} binds its listeners with {@code SO_REUSEPORT} by default on Linux too. With NIO, one
 * listener whose connections Netty spreads over the loops.
 *
 * <p>{@code SO_REUSEPORT} lets another socket of the same user join the port; one bound by a process that did not
 * set it (a service already on the port) still makes the bind fail, as before.
 */
final class TcpListeners {
    private TcpListeners() {
    }

    /**
     * Binds {@code address} (blocking).
     *
     * @param bootstrap a listener's bootstrap for (accepting loop or group, loops of the accepted connections)
     * @return the bound listeners: one per loop of {@code group} with epoll, one with NIO
     * @throws Exception the bind's failure (address in use or not available); listeners already bound are closed
     */
    static List<Channel> bind(Transport transport, EventLoopGroup group, InetSocketAddress address,
            BiFunction<EventLoopGroup, EventLoopGroup, ServerBootstrap> bootstrap) throws Exception {
        if (!transport.listenerPerLoop()) {
            return List.of(bootstrap.apply(group, group).bind(address).sync().channel());
        }
        List<Channel> bound = new ArrayList<>();
        try {
            for (EventExecutor e : group) {
                EventLoop loop = (EventLoop) e;
                ServerBootstrap b = bootstrap.apply(loop, loop);
                transport.listenerPerLoopOptions(b);
                bound.add(b.bind(address).sync().channel());
            }
        } catch (Exception | Error e) {
            bound.forEach(Channel::close);
            throw e;
        }
        return List.copyOf(bound);
    }
}
