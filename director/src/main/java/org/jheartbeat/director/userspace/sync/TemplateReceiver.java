package org.jheartbeat.director.userspace.sync;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby's side ({@code hb lvs syncd}): receives template datagrams on this node's sync address,
 * keeps them in a {@link TemplateTable} and writes its file at most once a second when it changed (and
 * once a second drops ended templates). Bad datagrams (unknown source, bad signature, malformed, another
 * syncid) change nothing; they are counted and logged at most once every {@value #BAD_LOG_SECONDS} s with
 * the count and the last reason. Runs on the caller's thread until {@link #close}.
 */
public final class TemplateReceiver implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TemplateReceiver.class);
    static final int BAD_LOG_SECONDS = 10;

    private final DatagramSocket socket;
    private final TemplateTable table;
    private final Path file;
    private final Clock wall;
    private volatile boolean closed;

    /**
     * @param link this node's address (bound, with {@code port}) and the other director's (the only sources)
     * @param file where the templates are kept for the director's next start
     * @param wall wall time (the file's ends are wall-clock ms)
     * @throws IOException if the address and port cannot be bound
     */
    public TemplateReceiver(TemplateSync.Link link, int port, MessageAuthenticator auth, Optional<Integer> syncId,
                            Path file, Clock wall) throws IOException {
        this.table = new TemplateTable(link.others(), auth, syncId);
        this.file = file;
        this.wall = wall;
        // a restarted syncd keeps what it had: its file is read back first
        long now = wall.millis();
        table.merge(TemplateTable.load(file, now), now);
        this.socket = new DatagramSocket(null);
        socket.setReuseAddress(true);
        // one round is at most 100 datagrams of at most 1472 bytes: room for a few rounds
        socket.setReceiveBufferSize(1 << 20);
        socket.bind(new InetSocketAddress(link.local(), port));
        socket.setSoTimeout(1000);
    }

    /** Receives until closed. */
    public void run() {
        byte[] buf = new byte[TemplateWire.MAX_DATAGRAM + 1];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        long lastSave = wall.millis();
        long lastBadLog = 0;
        long badLogged = 0;
        boolean dirty = true;
        while (!closed) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
                TemplateTable.Outcome o = table.accept(p.getAddress(), buf, p.getLength(), wall.millis());
                dirty |= o == TemplateTable.Outcome.ACCEPTED;
            } catch (SocketTimeoutException e) {
                // a second without a datagram: expire and save below
            } catch (IOException e) {
                if (!closed) {
                    LOG.error("template sync: receive failed: {}", e.getMessage());
                }
            }
            long now = wall.millis();
            TemplateTable.Figures f = table.figures();
            if (f.bad() > badLogged && now - lastBadLog >= BAD_LOG_SECONDS * 1000L) {
                LOG.warn("template sync: {} bad datagram(s) ignored (last: {})", f.bad() - badLogged, f.lastBad());
                badLogged = f.bad();
                lastBadLog = now;
            }
            if (now - lastSave >= 1000) {
                table.expire(now);
                if (dirty || table.figures().held() != f.held()) {
                    save(now);
                }
                dirty = false;
                lastSave = now;
            }
        }
        save(wall.millis());
    }

    private void save(long now) {
        try {
            table.save(file, now);
        } catch (IOException e) {
            LOG.error("template sync: cannot write {}: {}", file, e.getMessage());
        }
    }

    /** What was received so far. */
    public TemplateTable.Figures figures() {
        return table.figures();
    }

    @Override
    public void close() {
        closed = true;
        socket.close();
    }
}
