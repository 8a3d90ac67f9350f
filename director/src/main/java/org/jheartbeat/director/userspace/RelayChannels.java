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

    /**
     * Shuts down the output of a side with nothing queued (a FIN to its peer). With epoll, {@code shutdown(SHUT_WR)}
     * on its socket directly: Netty's {@code shutdownOutput()} builds a {@code ChannelOutputShutdownException} with
     * a full stack trace for writes that might be pending, even when none is (one per half-closed connection, ~3 %
     * of the director's CPU in a perf profile under {@code ab}, docs/design/userspace-director.md). Netty's
     * channel reads its output state from the socket ({@code isOutputShutdown()}); nothing is written to a side
     * after its output is shut (its peer, whose FIN this passes on, sends nothing more). With NIO, Netty's.
     *
     * @param ch a side whose outbound buffer is empty ({@link #drained})
     */
    static void shutdownOutput(SocketChannel ch) {
        if (ch instanceof io.netty.channel.unix.UnixChannel u && u.fd() instanceof io.netty.channel.unix.Socket s) {
            try {
                s.shutdown(false, true);
            } catch (java.io.IOException e) {
                ch.close(); // the connection is gone (reset): as Netty would, after failing the shutdown
            }
        } else {
            ch.shutdownOutput();
        }
    }
}
