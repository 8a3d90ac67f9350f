package org.jheartbeat.director.userspace.sync;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.director.userspace.sched.SyncedTemplate;

/**
 * The template datagram (version 1), big-endian:
 * <pre>
 * "JHTS" | version 1 | auth length (1..64) | auth "N hex" (Heartbeat's form, over the body) | body:
 *   flags (bit 0: a syncid follows) | syncid | sequence (8) | count (2, at most {@value #MAX_ENTRIES}) | entries
 * entry: protocol (6 TCP, 17 UDP) | virtual address (family 4|6, 4|16 bytes) port (2)
 *        | client address (family, bytes) | real address (family, bytes) port (2) | remaining ms (4)
 * </pre>
 * The signature is checked before the body is read; the decoder reads at most {@value #MAX_DATAGRAM} bytes,
 * checks every length and never throws anything but {@link BadPacket}. Pure.
 */
public final class TemplateWire {
    /** The largest datagram sent or read (bytes): one Ethernet frame's UDP payload. */
    public static final int MAX_DATAGRAM = 1472;
    /** The most entries in one datagram. */
    public static final int MAX_ENTRIES = 100;
    /** The longest remaining time accepted (ms): ipvsadm's largest persistence timeout, 31 days. */
    public static final long MAX_REMAINING_MILLIS = 2_678_400_000L;
    private static final byte[] MAGIC = "JHTS".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int MAX_AUTH = 64;
    /** What a datagram is filled up to, leaving room for the header. */
    private static final int BODY_BUDGET = MAX_DATAGRAM - 6 - MAX_AUTH;

    /** A datagram that cannot be used; the message says why (for the rate-limited log). */
    public static final class BadPacket extends Exception {
        BadPacket(String why) {
            super(why, null, false, false);
        }
    }

    /** What one datagram carried. */
    public record Packet(Optional<Integer> syncId, long sequence, List<SyncEntry> entries) {
    }

    private TemplateWire() {
    }

    /**
     * The datagrams that carry {@code entries} (as many as needed, each at most {@value #MAX_DATAGRAM}
     * bytes), each signed with the signing key of {@code auth}.
     *
     * @param sequence the sender's counter, one per datagram from this value up
     */
    public static List<byte[]> encode(Optional<Integer> syncId, long sequence, List<SyncEntry> entries,
                                      MessageAuthenticator auth) {
        List<byte[]> out = new ArrayList<>();
        int i = 0;
        do {
            ByteBuffer body = ByteBuffer.allocate(BODY_BUDGET);
            body.put((byte) (syncId.isPresent() ? 1 : 0)).put((byte) (int) syncId.orElse(0)).putLong(sequence++);
            int countAt = body.position();
            body.putShort((short) 0);
            int n = 0;
            while (i < entries.size() && n < MAX_ENTRIES && body.remaining() >= 60) {
                putEntry(body, entries.get(i++));
                n++;
            }
            body.putShort(countAt, (short) n);
            byte[] b = Arrays.copyOf(body.array(), body.position());
            byte[] a = auth.sign(b).getBytes(StandardCharsets.US_ASCII);
            ByteBuffer d = ByteBuffer.allocate(6 + a.length + b.length);
            d.put(MAGIC).put((byte) VERSION).put((byte) a.length).put(a).put(b);
            out.add(d.array());
        } while (i < entries.size());
        return out;
    }

    private static void putEntry(ByteBuffer b, SyncEntry e) {
        b.put((byte) (e.udp() ? 17 : 6));
        putAddress(b, e.virtual().getAddress());
        b.putShort((short) e.virtual().getPort());
        putAddress(b, e.template().client());
        putAddress(b, e.template().real().getAddress());
        b.putShort((short) e.template().real().getPort());
        b.putInt((int) Math.min(e.template().remainingMillis(), MAX_REMAINING_MILLIS));
    }

    private static void putAddress(ByteBuffer b, InetAddress a) {
        byte[] raw = a.getAddress();
        b.put((byte) (raw.length == 4 ? 4 : 6)).put(raw);
    }

    /**
     * Reads a datagram.
     *
     * @param data   the bytes received (only the first {@code length} are read)
     * @param auth   the local authkeys: the signature must be of the signing key (or an accepted one)
     * @throws BadPacket if it is too long or short, not ours, badly signed or malformed
     */
    public static Packet decode(byte[] data, int length, MessageAuthenticator auth) throws BadPacket {
        if (length > MAX_DATAGRAM || length > data.length) {
            throw new BadPacket("datagram of " + length + " bytes, more than " + MAX_DATAGRAM);
        }
        ByteBuffer d = ByteBuffer.wrap(data, 0, length);
        try {
            byte[] magic = new byte[4];
            d.get(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new BadPacket("not a template packet (no JHTS magic)");
            }
            int version = d.get() & 0xff;
            if (version != VERSION) {
                throw new BadPacket("template packet version " + version + ", this director reads " + VERSION);
            }
            int authLength = d.get() & 0xff;
            if (authLength == 0 || authLength > MAX_AUTH) {
                throw new BadPacket("signature of " + authLength + " bytes");
            }
            byte[] a = new byte[authLength];
            d.get(a);
            byte[] body = Arrays.copyOfRange(data, d.position(), length);
            String authString = new String(a, StandardCharsets.US_ASCII);
            if (!auth.verify(authString, body)) {
                throw new BadPacket("bad signature: " + auth.refusal(authString));
            }
            return body(ByteBuffer.wrap(body));
        } catch (BufferUnderflowException e) {
            throw new BadPacket("truncated at byte " + d.position() + " of " + length);
        }
    }

    private static Packet body(ByteBuffer b) throws BadPacket {
        int flags = b.get() & 0xff;
        int syncId = b.get() & 0xff;
        long sequence = b.getLong();
        int count = b.getShort() & 0xffff;
        if (count > MAX_ENTRIES) {
            throw new BadPacket(count + " entries, more than " + MAX_ENTRIES);
        }
        List<SyncEntry> entries = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int proto = b.get() & 0xff;
            if (proto != 6 && proto != 17) {
                throw new BadPacket("entry " + i + ": protocol " + proto);
            }
            InetAddress vip = address(b, i);
            int vport = b.getShort() & 0xffff;
            InetAddress client = address(b, i);
            InetAddress rip = address(b, i);
            int rport = b.getShort() & 0xffff;
            long remaining = b.getInt() & 0xffffffffL;
            if (remaining > MAX_REMAINING_MILLIS) {
                throw new BadPacket("entry " + i + ": " + remaining + " ms left, more than 31 days");
            }
            entries.add(new SyncEntry(proto == 17, new InetSocketAddress(vip, vport),
                    new SyncedTemplate(client, new InetSocketAddress(rip, rport), remaining)));
        }
        if (b.hasRemaining()) {
            throw new BadPacket(b.remaining() + " bytes after the last entry");
        }
        return new Packet((flags & 1) != 0 ? Optional.of(syncId) : Optional.empty(), sequence, entries);
    }

    private static InetAddress address(ByteBuffer b, int entry) throws BadPacket {
        int family = b.get() & 0xff;
        if (family != 4 && family != 6) {
            throw new BadPacket("entry " + entry + ": address family " + family);
        }
        byte[] raw = new byte[family == 4 ? 4 : 16];
        b.get(raw);
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new BadPacket("entry " + entry + ": address");
        }
    }
}
