package org.jheartbeat.core.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the UDP datagrams out of a classic libpcap capture file (the format {@code tcpdump -w}
 * writes; not pcapng), in pure Java. Supported: both byte orders, microsecond magic
 * {@code a1b2c3d4} and nanosecond magic {@code a1b23c4d}, link type 1 (Ethernet II) with up to two
 * VLAN tags (802.1Q {@code 0x8100}, 802.1ad {@code 0x88a8}), IPv4 (options allowed), UDP.
 *
 * <p>Defensive and bounded: the file may be at most {@value #MAX_FILE_BYTES} bytes and a record at most
 * {@value #MAX_RECORD_BYTES} bytes (libpcap's largest snaplen); a damaged file header or a record that
 * runs past the end of the file is an {@link IllegalArgumentException}. Frames that are not a complete,
 * unfragmented IPv4/UDP datagram (ARP, IPv6, TCP, fragments, frames cut by the snaplen, inconsistent
 * length fields) are not errors: they are skipped and listed in {@link Capture#skipped()} with the
 * reason, so a test can insist there were none.
 *
 * <p>Format sources: the libpcap file format ({@code pcap-savefile(5)}; the IETF draft
 * "PCAP Capture File Format", draft-ietf-opsawg-pcap), IEEE 802.1Q, RFC 791 (IPv4), RFC 768 (UDP).
 */
public final class PcapReader {
    /** Largest capture file accepted, in bytes (64 MiB). */
    public static final int MAX_FILE_BYTES = 64 * 1024 * 1024;
    /** Largest record (captured frame) accepted, in bytes: libpcap's MAXIMUM_SNAPLEN, 262144. */
    public static final int MAX_RECORD_BYTES = 262_144;
    /** pcap link type for Ethernet (LINKTYPE_ETHERNET). */
    public static final int LINKTYPE_ETHERNET = 1;

    private static final int MAGIC_MICROS = 0xa1b2c3d4;
    private static final int MAGIC_NANOS = 0xa1b23c4d;
    private static final int FILE_HEADER = 24;
    private static final int RECORD_HEADER = 16;
    private static final int ETHERNET_HEADER = 14;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int MAX_VLAN_TAGS = 2;
    private static final int PROTO_UDP = 17;

    private PcapReader() {
    }

    /**
     * One UDP datagram of the capture.
     *
     * @param frame           1-based number of the pcap record it came from (as Wireshark numbers frames)
     * @param timestampMicros capture time, microseconds since the Unix epoch (nanosecond files are truncated to µs)
     * @param srcIp           IPv4 source, dotted quad
     * @param dstIp           IPv4 destination, dotted quad
     * @param srcPort         UDP source port
     * @param dstPort         UDP destination port
     * @param payload         the UDP payload, exactly the UDP length minus the 8-byte header
     */
    public record UdpDatagram(int frame, long timestampMicros, String srcIp, String dstIp, int srcPort, int dstPort,
                              byte[] payload) {
        public UdpDatagram {
            payload = payload.clone();
        }

        /** A copy of the payload. */
        @Override
        public byte[] payload() {
            return payload.clone();
        }

        @Override
        public String toString() {
            return "UdpDatagram[frame=" + frame + ", t=" + timestampMicros + "us, " + srcIp + ":" + srcPort + " -> "
                    + dstIp + ":" + dstPort + ", " + payload.length + " bytes]";
        }
    }

    /**
     * The result of reading one file.
     *
     * @param littleEndian whether the file header was little-endian
     * @param nanosecond   whether the file used the nanosecond magic
     * @param frames       number of records in the file
     * @param datagrams    the complete IPv4/UDP datagrams, in file order
     * @param skipped      one line per record that was not one ({@code frame N: reason})
     */
    public record Capture(boolean littleEndian, boolean nanosecond, int frames, List<UdpDatagram> datagrams,
                          List<String> skipped) {
        public Capture {
            datagrams = List.copyOf(datagrams);
            skipped = List.copyOf(skipped);
        }
    }

    /** Reads {@code file}; see {@link #parse(byte[])}. */
    public static Capture read(Path file) {
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(file + ": " + size + " bytes, more than " + MAX_FILE_BYTES);
            }
            return parse(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses a whole capture held in memory.
     *
     * @throws IllegalArgumentException on a bad magic, a link type other than Ethernet, or a record whose
     *                                  length is larger than {@value #MAX_RECORD_BYTES} or runs past the end
     */
    public static Capture parse(byte[] file) {
        if (file.length > MAX_FILE_BYTES) {
            throw new IllegalArgumentException("capture of " + file.length + " bytes, more than " + MAX_FILE_BYTES);
        }
        if (file.length < FILE_HEADER) {
            throw new IllegalArgumentException("not a pcap file: " + file.length + " bytes, shorter than the header");
        }
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        boolean little = magic == MAGIC_MICROS || magic == MAGIC_NANOS;
        if (!little) {
            b.order(ByteOrder.BIG_ENDIAN);
            magic = b.getInt(0);
            if (magic != MAGIC_MICROS && magic != MAGIC_NANOS) {
                throw new IllegalArgumentException(String.format("not a classic pcap file: magic %08x", b.getInt(0)));
            }
        }
        boolean nanos = magic == MAGIC_NANOS;
        int major = Short.toUnsignedInt(b.getShort(4));
        if (major != 2) {
            throw new IllegalArgumentException("unsupported pcap version " + major);
        }
        long linkType = Integer.toUnsignedLong(b.getInt(20)) & 0x0fff_ffffL; // upper bits: FCS info, unused here
        if (linkType != LINKTYPE_ETHERNET) {
            throw new IllegalArgumentException("unsupported link type " + linkType + " (only Ethernet, 1)");
        }
        List<UdpDatagram> datagrams = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        int offset = FILE_HEADER;
        int frame = 0;
        while (offset < file.length) {
            frame++;
            if (file.length - offset < RECORD_HEADER) {
                throw new IllegalArgumentException("frame " + frame + ": record header truncated at offset " + offset);
            }
            long seconds = Integer.toUnsignedLong(b.getInt(offset));
            long fraction = Integer.toUnsignedLong(b.getInt(offset + 4));
            long captured = Integer.toUnsignedLong(b.getInt(offset + 8));
            long original = Integer.toUnsignedLong(b.getInt(offset + 12));
            offset += RECORD_HEADER;
            if (captured > MAX_RECORD_BYTES) {
                throw new IllegalArgumentException("frame " + frame + ": record length " + captured
                        + " larger than " + MAX_RECORD_BYTES);
            }
            if (captured > file.length - offset) {
                throw new IllegalArgumentException("frame " + frame + ": record of " + captured
                        + " bytes runs past the end of the file");
            }
            if (fraction >= (nanos ? 1_000_000_000L : 1_000_000L)) {
                throw new IllegalArgumentException("frame " + frame + ": sub-second timestamp out of range: " + fraction);
            }
            long micros = seconds * 1_000_000L + (nanos ? fraction / 1000 : fraction);
            int length = (int) captured;
            String reason = udp(file, offset, length, original, frame, micros, datagrams);
            if (reason != null) {
                skipped.add("frame " + frame + ": " + reason);
            }
            offset += length;
        }
        return new Capture(little, nanos, frame, datagrams, skipped);
    }

    /** Decodes one Ethernet frame; adds the datagram and returns null, or returns why it was skipped. */
    private static String udp(byte[] f, int start, int length, long original, int frame, long micros,
                              List<UdpDatagram> out) {
        int end = start + length;
        if (length < ETHERNET_HEADER) {
            return "frame shorter than an Ethernet header";
        }
        int p = start + 12;
        int etherType = u16(f, p);
        p += 2;
        for (int tags = 0; (etherType == ETHERTYPE_VLAN || etherType == ETHERTYPE_QINQ); tags++) {
            if (tags == MAX_VLAN_TAGS || end - p < 4) {
                return "bad VLAN tagging";
            }
            etherType = u16(f, p + 2);
            p += 4;
        }
        if (etherType != ETHERTYPE_IPV4) {
            return String.format("ethertype %04x, not IPv4", etherType);
        }
        if (end - p < 20) {
            return "IPv4 header truncated" + (original > length ? " by the snaplen" : "");
        }
        int version = (f[p] >> 4) & 0x0f;
        int headerLength = (f[p] & 0x0f) * 4;
        int totalLength = u16(f, p + 2);
        if (version != 4 || headerLength < 20 || totalLength < headerLength) {
            return "malformed IPv4 header";
        }
        if (totalLength > end - p) {
            return "IPv4 datagram truncated" + (original > length ? " by the snaplen" : "");
        }
        int flagsFragment = u16(f, p + 6);
        if ((flagsFragment & 0x3fff) != 0) {
            return "IPv4 fragment (not reassembled)";
        }
        int protocol = f[p + 9] & 0xff;
        if (protocol != PROTO_UDP) {
            return "IP protocol " + protocol + ", not UDP";
        }
        String src = ip(f, p + 12);
        String dst = ip(f, p + 16);
        int u = p + headerLength;
        int ipEnd = p + totalLength; // Ethernet padding after the IP datagram is ignored
        if (ipEnd - u < 8) {
            return "UDP header truncated";
        }
        int udpLength = u16(f, u + 4);
        if (udpLength < 8 || udpLength > ipEnd - u) {
            return "UDP length " + udpLength + " inconsistent with the IP datagram";
        }
        out.add(new UdpDatagram(frame, micros, src, dst, u16(f, u), u16(f, u + 2),
                Arrays.copyOfRange(f, u + 8, u + udpLength)));
        return null;
    }

    private static int u16(byte[] f, int p) {
        return ((f[p] & 0xff) << 8) | (f[p + 1] & 0xff);
    }

    private static String ip(byte[] f, int p) {
        return (f[p] & 0xff) + "." + (f[p + 1] & 0xff) + "." + (f[p + 2] & 0xff) + "." + (f[p + 3] & 0xff);
    }
}
