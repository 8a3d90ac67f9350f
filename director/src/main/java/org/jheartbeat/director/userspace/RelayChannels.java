package org.jheartbeat.director.userspace;

import io.netty.channel.Channel;
import io.netty.channel.socket.SocketChannel;

/** What the TCP relay ({@link TcpService}) asks of a side's channel before it shuts, closes or reads it. */
final class RelayChannels {
    private RelayChannels() {
    }

    /**
     * Whether nothing written to {@code ch} waits to go out (the relay flushes after each read, so this is the
     * usual case at a FIN or a close): then its output can be shut or closed at once, without an empty write
     * and a promise whose listener waits for the queue.
     */
    static boolean drained(Channel ch) {
        io.netty.channel.ChannelOutboundBuffer b = ch.unsafe().outboundBuffer();
        return b == null || (b.isEmpty() && b.totalPendingWriteBytes() == 0);
    }

    /**
     * Reads from a side again, unless its input is shut down already (its FIN came): the epoll transport has then
     * taken the descriptor out of its interest set and fails a read request (epoll_ctl: ENOENT).
     */
    static void resume(Channel ch) {
        if (!(ch instanceof SocketChannel s && s.isInputShutdown())) {
            ch.config().setAutoRead(true);
        }
    }
}
