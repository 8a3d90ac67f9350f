package org.jheartbeat.director.userspace.sync;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.auth.MessageAuthenticator;

/**
 * The active director's side: each round it sends the next slice of its template table to the other
 * director, at most {@value #MAX_DATAGRAMS_PER_ROUND} datagrams per round (a larger table goes out over
 * several rounds, in turn), from a non-blocking socket bound to this node's sync address, so a round
 * never blocks the caller (a full socket buffer drops the datagram and counts it). Not thread-safe: one
 * caller (the backend's expiry tick).
 */
public final class TemplateSender implements AutoCloseable {
    /** At most this many datagrams per round (about 5,000 IPv4 templates). */
    public static final int MAX_DATAGRAMS_PER_ROUND = 100;

    private final DatagramChannel channel;
    private final Set<InetSocketAddress> to;
    private final MessageAuthenticator auth;
    private final Optional<Integer> syncId;
    private long sequence;
    private int cursor;
    private long datagrams;
    private long bytes;
    private long dropped;
    private long rounds;

    /**
     * @param link   this node's address (the source) and the other's (the destinations)
     * @param port   the receivers' UDP port
     * @throws IOException if the socket cannot be bound to the local sync address
     */
    public TemplateSender(TemplateSync.Link link, int port, MessageAuthenticator auth, Optional<Integer> syncId)
            throws IOException {
        this.channel = DatagramChannel.open();
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        channel.bind(new InetSocketAddress(link.local(), 0));
        channel.configureBlocking(false);
        this.to = link.others().stream().map(a -> new InetSocketAddress(a, port))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.auth = auth;
        this.syncId = syncId;
    }

    /** Sends the next slice of {@code table} (the whole table when it fits in one round). */
    public void round(List<SyncEntry> table) {
        rounds++;
        if (cursor >= table.size()) {
            cursor = 0;
        }
        List<SyncEntry> rest = table.subList(cursor, Math.min(table.size(),
                cursor + MAX_DATAGRAMS_PER_ROUND * TemplateWire.MAX_ENTRIES));
        List<byte[]> packets = TemplateWire.encode(syncId, sequence, rest, auth);
        int n = Math.min(packets.size(), MAX_DATAGRAMS_PER_ROUND);
        for (int i = 0; i < n; i++) {
            byte[] p = packets.get(i);
            for (InetSocketAddress dst : to) {
                try {
                    if (channel.send(ByteBuffer.wrap(p), dst) == 0) {
                        dropped++;
                    } else {
                        datagrams++;
                        bytes += p.length;
                    }
                } catch (IOException e) {
                    dropped++;
                }
            }
            sequence++;
        }
        cursor += entriesIn(packets.subList(0, n));
        if (cursor >= table.size()) {
            cursor = 0;
        }
    }

    private static int entriesIn(List<byte[]> packets) {
        int n = 0;
        for (byte[] p : packets) {
            int body = 6 + (p[5] & 0xff);
            n += ((p[body + 10] & 0xff) << 8) | (p[body + 11] & 0xff);
        }
        return n;
    }

    /** Rounds, datagrams and bytes sent, datagrams dropped (socket full or unreachable). */
    public record Figures(long rounds, long datagrams, long bytes, long dropped) {
    }

    public Figures figures() {
        return new Figures(rounds, datagrams, bytes, dropped);
    }

    /** The addresses sent to. */
    public Set<InetAddress> peers() {
        return to.stream().map(InetSocketAddress::getAddress).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
