package org.jheartbeat.director.userspace.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.director.userspace.sched.SyncedTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The template packets between a director pair and the standby's table: signed with the authkeys key and
 * checked before anything is read; a packet with a bad signature, from an address that is not the other
 * director's, of another syncid, truncated or padded changes nothing and is counted; ended templates are
 * dropped; the file keeps wall-clock ends.
 */
class TemplateSyncTest {
    @TempDir
    Path dir;

    static final MessageAuthenticator KEY = new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1,
            "pair-secret".getBytes(StandardCharsets.US_ASCII)));
    static final MessageAuthenticator OTHER_KEY = new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1,
            "a-stranger".getBytes(StandardCharsets.US_ASCII)));
    static final InetAddress PEER = addr("198.18.1.1");
    static final InetSocketAddress VIP = new InetSocketAddress(addr("198.18.0.100"), 80);

    static InetAddress addr(String s) {
        try {
            return InetAddress.getByName(s);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    static SyncEntry entry(int client, int real, long left) {
        return new SyncEntry(false, VIP, new SyncedTemplate(addr("198.18.64." + client),
                new InetSocketAddress(addr("198.18.0.2" + real), 80), left));
    }

    static List<SyncEntry> table(int n) {
        List<SyncEntry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new SyncEntry(i % 2 == 0, VIP, new SyncedTemplate(addr("10." + (i >> 16 & 255) + "." + (i >> 8 & 255)
                    + "." + (i & 255)), new InetSocketAddress(addr("198.18.0.2" + (i % 3 + 1)), 80), 1000 + i)));
        }
        return out;
    }

    @Test
    void aTableGoesOutInBoundedSignedDatagramsAndComesBackWhole() throws Exception {
        List<SyncEntry> t = table(1000);
        t.add(new SyncEntry(true, new InetSocketAddress(addr("2001:db8::100"), 53), new SyncedTemplate(
                addr("2001:db8::77"), new InetSocketAddress(addr("2001:db8::21"), 53), 5)));
        List<byte[]> packets = TemplateWire.encode(Optional.of(9), 40, t, KEY);
        assertThat(packets).allSatisfy(p -> assertThat(p.length).isLessThanOrEqualTo(TemplateWire.MAX_DATAGRAM));
        List<SyncEntry> back = new ArrayList<>();
        long seq = 40;
        for (byte[] p : packets) {
            TemplateWire.Packet d = TemplateWire.decode(p, p.length, KEY);
            assertThat(d.syncId()).contains(9);
            assertThat(d.sequence()).isEqualTo(seq++);
            back.addAll(d.entries());
        }
        assertThat(back).isEqualTo(t);
        long bytes = packets.stream().mapToLong(p -> p.length).sum();
        System.out.printf("1001 templates: %d datagrams, %d bytes (%.1f bytes per template)%n", packets.size(), bytes,
                bytes / 1001.0);
        assertThat(TemplateWire.encode(Optional.empty(), 0, List.of(), KEY)).hasSize(1);
    }

    @Test
    void aBadSignatureOrAnUnknownPeerChangesNothing() throws Exception {
        TemplateTable standby = new TemplateTable(Set.of(PEER), KEY, Optional.empty());
        byte[] good = TemplateWire.encode(Optional.empty(), 1, List.of(entry(1, 1, 60_000)), KEY).get(0);
        byte[] forged = TemplateWire.encode(Optional.empty(), 1, List.of(entry(2, 3, 60_000)), OTHER_KEY).get(0);
        assertThat(standby.accept(PEER, forged, forged.length, 0)).isEqualTo(TemplateTable.Outcome.BAD_PACKET);
        assertThat(standby.accept(addr("198.18.0.66"), good, good.length, 0))
                .isEqualTo(TemplateTable.Outcome.UNKNOWN_PEER);
        // one flipped bit in a template: the signature no longer matches
        byte[] tampered = good.clone();
        tampered[tampered.length - 5] ^= 1;
        assertThat(standby.accept(PEER, tampered, tampered.length, 0)).isEqualTo(TemplateTable.Outcome.BAD_PACKET);
        assertThat(standby.live(0)).isEmpty();
        assertThat(standby.figures().bad()).isEqualTo(3);
        assertThat(standby.figures().lastBad()).startsWith("from 198.18.1.1: bad signature");
        assertThat(standby.accept(PEER, good, good.length, 0)).isEqualTo(TemplateTable.Outcome.ACCEPTED);
        assertThat(standby.live(0)).containsExactly(entry(1, 1, 60_000));
    }

    @Test
    void malformedPacketsAreRefusedWithAReason() {
        byte[] good = TemplateWire.encode(Optional.empty(), 1, table(3), KEY).get(0);
        for (int cut = 0; cut < good.length; cut++) {
            int n = cut;
            assertThatThrownBy(() -> TemplateWire.decode(good, n, KEY)).isInstanceOf(TemplateWire.BadPacket.class);
        }
        byte[] padded = java.util.Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> TemplateWire.decode(padded, padded.length, KEY))
                .hasMessageStartingWith("bad signature");
        byte[] big = new byte[TemplateWire.MAX_DATAGRAM + 1];
        assertThatThrownBy(() -> TemplateWire.decode(big, big.length, KEY)).hasMessageContaining("more than 1472");
        byte[] crc = TemplateWire.encode(Optional.empty(), 1, table(1), new MessageAuthenticator(AuthKeys.single(1,
                AuthMethod.CRC, null))).get(0);
        assertThatThrownBy(() -> TemplateWire.decode(crc, crc.length, KEY)).hasMessageStartingWith("bad signature");
    }

    @Test
    void anotherSyncidIsIgnoredAndEndedTemplatesAreDropped() throws Exception {
        TemplateTable standby = new TemplateTable(Set.of(PEER), KEY, Optional.of(5));
        byte[] other = TemplateWire.encode(Optional.of(6), 1, List.of(entry(1, 1, 60_000)), KEY).get(0);
        assertThat(standby.accept(PEER, other, other.length, 0)).isEqualTo(TemplateTable.Outcome.OTHER_SYNCID);
        byte[] ours = TemplateWire.encode(Optional.of(5), 2, List.of(entry(1, 1, 60_000), entry(2, 2, 1_000)), KEY)
                .get(0);
        assertThat(standby.accept(PEER, ours, ours.length, 10_000)).isEqualTo(TemplateTable.Outcome.ACCEPTED);
        assertThat(standby.live(10_500)).containsExactly(entry(1, 1, 59_500), entry(2, 2, 500));
        assertThat(standby.live(11_000)).containsExactly(entry(1, 1, 59_000));
        // a newer packet moves a client (its template was re-made on another real)
        byte[] moved = TemplateWire.encode(Optional.of(5), 3, List.of(entry(1, 3, 30_000)), KEY).get(0);
        standby.accept(PEER, moved, moved.length, 20_000);
        assertThat(standby.live(20_000)).containsExactly(entry(1, 3, 30_000));
    }

    @Test
    void theFileKeepsWallClockEndsAndDropsEndedOnes() throws Exception {
        TemplateTable standby = new TemplateTable(Set.of(PEER), KEY, Optional.empty());
        standby.merge(List.of(entry(1, 1, 60_000), entry(2, 2, 5_000)), 1_000_000);
        Path file = dir.resolve("lvs-ldirectord.cf-198.18.1.2.templates");
        standby.save(file, 1_000_000);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo("tcp 198.18.0.100:80 198.18.64.1 198.18.0.21:80 1060000\n"
                + "tcp 198.18.0.100:80 198.18.64.2 198.18.0.22:80 1005000\n");
        assertThat(TemplateTable.load(file, 1_010_000)).containsExactly(entry(1, 1, 50_000));
        Files.writeString(file, "junk\ntcp 198.18.0.100:80 nowhere 198.18.0.21:80 2000000\n"
                + "tcp 198.18.0.100:80 198.18.64.9 198.18.0.23:80 2000000\n");
        assertThat(TemplateTable.load(file, 1_000_000)).containsExactly(entry(9, 3, 1_000_000));
        assertThat(TemplateTable.load(dir.resolve("none"), 0)).isEmpty();
    }

    @Test
    void syncpeerNamesThisNodeAndTheOther() {
        TemplateSync.Link l = TemplateSync.link(List.of(addr("198.18.1.1"), addr("198.18.1.2")),
                a -> a.getHostAddress().equals("198.18.1.2"));
        assertThat(l.local()).isEqualTo(addr("198.18.1.2"));
        assertThat(l.others()).containsExactly(addr("198.18.1.1"));
        assertThatThrownBy(() -> TemplateSync.link(List.of(addr("198.18.1.1")), a -> false))
                .hasMessageContaining("none is this node's");
        assertThatThrownBy(() -> TemplateSync.link(List.of(addr("198.18.1.1")), a -> true))
                .hasMessageContaining("none is another node's");
    }

    @Test
    void crcAuthkeysAreRefused() throws Exception {
        Path keys = dir.resolve("authkeys");
        Files.writeString(keys, "auth 1\n1 crc\n");
        assertThatThrownBy(() -> TemplateSync.authenticator(keys)).hasMessageContaining("the signing key is crc");
        Files.writeString(keys, "auth 1\n1 sha1 pair-secret\n");
        assertThat(TemplateSync.authenticator(keys).sign(new byte[1])).isEqualTo(KEY.sign(new byte[1]));
    }
}
