package org.jheartbeat.core.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.jheartbeat.core.testkit.PcapReader.Capture;
import org.jheartbeat.core.testkit.PcapReader.UdpDatagram;
import org.jheartbeat.core.wire.HeartbeatVectors;
import org.junit.jupiter.api.Test;

/** {@link PcapReader} on the real lifecycle capture and on small hand-built files. */
class PcapReaderTest {

    @Test
    void lifecycleCaptureHoldsExactlyTheLifecycleBinFilesInCaptureOrder() {
        Capture c = PcapReader.read(HeartbeatVectors.lifecycleCapture());
        List<Path> bins = HeartbeatVectors.packetsInCaptureOrder("lifecycle");

        assertThat(c.littleEndian()).isTrue();
        assertThat(c.nanosecond()).isFalse();
        assertThat(c.skipped()).as("every frame is a complete IPv4/UDP datagram").isEmpty();
        assertThat(c.frames()).isEqualTo(289);
        assertThat(c.datagrams()).hasSameSizeAs(bins);
        for (int i = 0; i < bins.size(); i++) {
            assertThat(c.datagrams().get(i).payload()).as("frame %d vs %s", i + 1, bins.get(i).getFileName())
                    .isEqualTo(HeartbeatVectors.read(bins.get(i)));
        }
        long previous = 0;
        for (UdpDatagram d : c.datagrams()) {
            assertThat(d.srcIp()).isIn("198.18.1.1", "198.18.1.2");
            assertThat(d.dstIp()).isIn("198.18.1.1", "198.18.1.2").isNotEqualTo(d.srcIp());
            assertThat(d.dstPort()).isEqualTo(694);
            assertThat(d.timestampMicros()).isGreaterThanOrEqualTo(previous);
            previous = d.timestampMicros();
        }
        long span = c.datagrams().get(c.datagrams().size() - 1).timestampMicros()
                - c.datagrams().get(0).timestampMicros();
        // lifecycle-events.txt says "93.61 end"; the capture itself runs on to 97.43 s after its first
        // frame (the last 4 s are statuses and ACKs only), so it covers every listed event.
        assertThat(span).as("capture span in µs").isBetween(93_610_000L, 98_000_000L);
    }

    @Test
    void plainNameOrderIsNotCaptureOrderForTheLifecycleFiles() {
        // lc-01 … lc-99 have two digits, lc-100 … lc-289 three: a name sort puts lc-100 after lc-10.
        List<Path> byName = HeartbeatVectors.packets("lifecycle");
        assertThat(byName.get(10).getFileName().toString()).isEqualTo("lc-100.bin");
        assertThat(HeartbeatVectors.packetsInCaptureOrder("lifecycle").get(10).getFileName().toString())
                .isEqualTo("lc-11.bin");
    }

    @Test
    void bigEndianNanosecondFileWithVlanTagAndPadding() {
        byte[] payload = "hello".getBytes(StandardCharsets.US_ASCII);
        byte[] frame = ethernet(new int[] {0x8100, 0x0800}, ipv4(17, 0, udp(40000, 694, payload)));
        byte[] padded = Arrays.copyOf(frame, frame.length + 7); // Ethernet padding past the IP datagram
        byte[] file = pcap(ByteOrder.BIG_ENDIAN, true, record(ByteOrder.BIG_ENDIAN, 10, 123_456_789, padded, padded.length));

        Capture c = PcapReader.parse(file);

        assertThat(c.littleEndian()).isFalse();
        assertThat(c.nanosecond()).isTrue();
        assertThat(c.skipped()).isEmpty();
        assertThat(c.datagrams()).singleElement().satisfies(d -> {
            assertThat(d.frame()).isEqualTo(1);
            assertThat(d.timestampMicros()).isEqualTo(10_123_456L);
            assertThat(d.srcIp()).isEqualTo("198.18.1.1");
            assertThat(d.dstIp()).isEqualTo("198.18.1.2");
            assertThat(d.srcPort()).isEqualTo(40000);
            assertThat(d.dstPort()).isEqualTo(694);
            assertThat(d.payload()).isEqualTo(payload);
        });
    }

    @Test
    void framesThatAreNotWholeUdpDatagramsAreSkippedWithAReason() {
        byte[] ok = ethernet(new int[] {0x0800}, ipv4(17, 0, udp(1, 694, new byte[] {1, 2, 3})));
        byte[] arp = ethernet(new int[] {0x0806}, new byte[28]);
        byte[] tcp = ethernet(new int[] {0x0800}, ipv4(6, 0, new byte[20]));
        byte[] fragment = ethernet(new int[] {0x0800}, ipv4(17, 0x2000, udp(1, 694, new byte[8])));
        byte[] cut = Arrays.copyOf(ok, ok.length - 2);
        byte[] badUdpLength = ethernet(new int[] {0x0800}, ipv4(17, 0, udp(1, 694, new byte[4])));
        badUdpLength[14 + 20 + 5] = (byte) 200;
        byte[] tripleTag = ethernet(new int[] {0x8100, 0x8100, 0x8100, 0x0800}, ipv4(17, 0, udp(1, 2, new byte[1])));
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        byte[] file = pcap(le, false, record(le, 1, 0, ok, ok.length), record(le, 1, 1, arp, arp.length),
                record(le, 1, 2, tcp, tcp.length), record(le, 1, 3, fragment, fragment.length),
                record(le, 1, 4, cut, ok.length), record(le, 1, 5, badUdpLength, badUdpLength.length),
                record(le, 1, 6, tripleTag, tripleTag.length), record(le, 2, 0, ok, ok.length));

        Capture c = PcapReader.parse(file);

        assertThat(c.frames()).isEqualTo(8);
        assertThat(c.datagrams()).extracting(UdpDatagram::frame).containsExactly(1, 8);
        assertThat(c.datagrams()).extracting(UdpDatagram::timestampMicros).containsExactly(1_000_000L, 2_000_000L);
        assertThat(c.skipped()).containsExactly(
                "frame 2: ethertype 0806, not IPv4",
                "frame 3: IP protocol 6, not UDP",
                "frame 4: IPv4 fragment (not reassembled)",
                "frame 5: IPv4 datagram truncated by the snaplen",
                "frame 6: UDP length 200 inconsistent with the IP datagram",
                "frame 7: bad VLAN tagging");
    }

    @Test
    void damagedFilesAreRejected() {
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        byte[] ok = ethernet(new int[] {0x0800}, ipv4(17, 0, udp(1, 694, new byte[] {1})));
        byte[] good = pcap(le, false, record(le, 1, 0, ok, ok.length));

        assertThatThrownBy(() -> PcapReader.parse(new byte[10])).hasMessageContaining("shorter than the header");
        byte[] badMagic = good.clone();
        badMagic[0] = 0x0a;
        assertThatThrownBy(() -> PcapReader.parse(badMagic)).hasMessageContaining("magic");
        assertThatThrownBy(() -> PcapReader.parse(Arrays.copyOf(good, good.length - 1)))
                .hasMessageContaining("runs past the end");
        assertThatThrownBy(() -> PcapReader.parse(Arrays.copyOf(good, 24 + 10)))
                .hasMessageContaining("record header truncated");
        byte[] huge = good.clone();
        ByteBuffer.wrap(huge).order(le).putInt(24 + 8, PcapReader.MAX_RECORD_BYTES + 1);
        assertThatThrownBy(() -> PcapReader.parse(huge)).hasMessageContaining("larger than");
        byte[] notEthernet = good.clone();
        ByteBuffer.wrap(notEthernet).order(le).putInt(20, 113);
        assertThatThrownBy(() -> PcapReader.parse(notEthernet)).hasMessageContaining("link type 113");
        byte[] badMicros = good.clone();
        ByteBuffer.wrap(badMicros).order(le).putInt(24 + 4, 1_000_000);
        assertThatThrownBy(() -> PcapReader.parse(badMicros)).hasMessageContaining("out of range");
    }

    // --- a tiny pcap writer, enough for the tests above ---

    private static byte[] pcap(ByteOrder order, boolean nanos, byte[]... records) {
        ByteBuffer h = ByteBuffer.allocate(24).order(order);
        h.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                .putInt(PcapReader.MAX_RECORD_BYTES).putInt(PcapReader.LINKTYPE_ETHERNET);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(h.array());
        for (byte[] r : records) {
            out.writeBytes(r);
        }
        return out.toByteArray();
    }

    private static byte[] record(ByteOrder order, int seconds, int fraction, byte[] frame, int originalLength) {
        ByteBuffer r = ByteBuffer.allocate(16 + frame.length).order(order);
        r.putInt(seconds).putInt(fraction).putInt(frame.length).putInt(originalLength).put(frame);
        return r.array();
    }

    private static byte[] ethernet(int[] etherTypes, byte[] body) {
        ByteBuffer e = ByteBuffer.allocate(12 + etherTypes.length * 4 - 2 + body.length);
        e.put(new byte[12]);
        for (int i = 0; i < etherTypes.length; i++) {
            e.putShort((short) etherTypes[i]);
            if (i < etherTypes.length - 1) {
                e.putShort((short) 5); // VLAN id 5
            }
        }
        return e.put(body).array();
    }

    private static byte[] ipv4(int protocol, int flagsFragment, byte[] body) {
        ByteBuffer ip = ByteBuffer.allocate(20 + body.length);
        ip.put((byte) 0x45).put((byte) 0).putShort((short) (20 + body.length)).putShort((short) 1)
                .putShort((short) flagsFragment).put((byte) 64).put((byte) protocol).putShort((short) 0)
                .put(new byte[] {(byte) 198, 18, 1, 1}).put(new byte[] {(byte) 198, 18, 1, 2}).put(body);
        return ip.array();
    }

    private static byte[] udp(int srcPort, int dstPort, byte[] payload) {
        ByteBuffer u = ByteBuffer.allocate(8 + payload.length);
        u.putShort((short) srcPort).putShort((short) dstPort).putShort((short) (8 + payload.length)).putShort((short) 0)
                .put(payload);
        return u.array();
    }
}
