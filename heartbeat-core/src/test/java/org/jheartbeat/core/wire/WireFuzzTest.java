package org.jheartbeat.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;

/**
 * Fuzzers of the packet codecs and their authentication (they read what anyone on the network sends), grown from the Heartbeat
 * 3.0.6 captures: every {@code .bin} datagram of {@code sha1/}, {@code md5/}, {@code crc/} and {@code
 * lifecycle/} (netstring, with the keys of the vectors' README) and every frame of the {@code serial/}
 * streams (classic). Cases per property: {@code -Djhb.fuzz.tries} (docs/fuzzing.md).
 *
 * <p>Properties: a decoder throws nothing but {@link WireFormatException}; a mutated packet is either
 * refused or decodes to a message that was signed (one of the captured messages: a splice that
 * rebuilt a whole packet, or a re-encoding that changes no field, such as a leading zero in a length;
 * such replays are the sequence check's business, ReceivePathFuzzTest); no packet verifies under a key
 * other than the one that signed it.
 */
class WireFuzzTest {
    /** Every captured netstring datagram with the folder (key) it belongs to. */
    record Signed(String folder, byte[] bytes) {
    }

    static final List<Signed> DATAGRAMS = datagrams();
    static final List<byte[]> DATAGRAM_BYTES = DATAGRAMS.stream().map(Signed::bytes).toList();
    static final List<byte[]> CLASSIC_FRAMES = classicFrames();
    /**
     * Every message a captured datagram or frame carries, without its {@code auth} field: what a splice
     * of whole packets may replay, or a re-encoding may repeat (the inner {@code auth} line may move:
     * it is not covered by its own digest, as in Heartbeat).
     */
    static final java.util.Set<HaMessage> GENUINE = genuine();

    /** Whether {@code m} carries one {@code auth} field at most and otherwise the fields of a captured message. */
    static boolean isGenuine(HaMessage m) {
        long auths = m.fields().stream().filter(f -> f.name().equals(Field.AUTH.wireName())).count();
        return auths <= 1 && GENUINE.contains(m.without(Field.AUTH));
    }

    private static java.util.Set<HaMessage> genuine() {
        java.util.Set<HaMessage> out = new java.util.HashSet<>();
        try {
            for (Signed s : DATAGRAMS) {
                out.add(WireCodec.decode(s.bytes(), HeartbeatVectors.authenticatorFor(s.folder())).without(Field.AUTH));
            }
            for (byte[] f : CLASSIC_FRAMES) {
                out.add(WireCodec.decode(f, HeartbeatVectors.authenticatorFor("sha1")).without(Field.AUTH));
            }
        } catch (WireFormatException e) {
            throw new AssertionError("a captured packet does not verify: " + e.getMessage(), e);
        }
        return out;
    }

    private static List<Signed> datagrams() {
        List<Signed> out = new ArrayList<>();
        for (String folder : HeartbeatVectors.PACKET_FOLDERS) {
            for (Path p : HeartbeatVectors.packets(folder)) {
                out.add(new Signed(folder, HeartbeatVectors.read(p)));
            }
        }
        return List.copyOf(out);
    }

    private static List<byte[]> classicFrames() {
        List<byte[]> out = new ArrayList<>();
        for (Path p : HeartbeatVectors.serialStreams()) {
            out.addAll(HeartbeatVectors.splitFrames(HeartbeatVectors.readSerialStream(p)));
        }
        return List.copyOf(out);
    }

    @Provide
    Arbitrary<Mutant> netstringMutants() {
        return Mutations.of(DATAGRAM_BYTES);
    }

    @Provide
    Arbitrary<Mutant> classicMutants() {
        return Mutations.of(CLASSIC_FRAMES);
    }

    @Property
    void netstringDecodeThrowsOnlyWireFormatException(@ForAll("netstringMutants") Mutant m) {
        try {
            DecodedNetstring d = NetstringCodec.decode(m.bytes());
            assertThat(d.signedRegion().length).isLessThan(m.bytes().length);
        } catch (WireFormatException e) {
            assertThat(e.reason()).isNotNull();
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @Property
    void classicDecodeThrowsOnlyWireFormatException(@ForAll("classicMutants") Mutant m) {
        try {
            ClassicCodec.decode(m.bytes());
        } catch (WireFormatException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    /**
     * A datagram changed after signing is refused, unless the change left every field as signed (then
     * it is a replay, which the sequence check handles: ReceivePathFuzzTest). Run against the key of
     * its capture (sha1, md5, crc). CRC is no protection against a deliberate forger (anyone can
     * compute it, as in Heartbeat), but random damage must still be caught.
     */
    @Property
    void aNetstringDatagramChangedAfterSigningIsRefused(@ForAll("netstringMutants") Mutant m) throws Exception {
        Assume.that(m.seedIndex() >= 0);
        Signed seed = DATAGRAMS.get(m.seedIndex());
        MessageAuthenticator a = HeartbeatVectors.authenticatorFor(seed.folder());
        HaMessage got;
        try {
            got = WireCodec.decode(m.bytes(), a);
        } catch (WireFormatException refused) {
            return;
        }
        assertThat(isGenuine(got)).as("accepted a changed datagram: %s as %s", m, got).isTrue();
    }

    /** The same for serial frames: the inner {@code auth=} field (sha1 testsecret) catches every change. */
    @Property
    void aClassicFrameChangedAfterSigningIsRefused(@ForAll("classicMutants") Mutant m) throws Exception {
        Assume.that(m.seedIndex() >= 0);
        MessageAuthenticator a = HeartbeatVectors.authenticatorFor("sha1");
        HaMessage got;
        try {
            got = ClassicCodec.decodeAndVerify(m.bytes(), a);
        } catch (WireFormatException refused) {
            return;
        }
        assertThat(isGenuine(got)).as("accepted a changed frame: %s as %s", m, got).isTrue();
    }

    /** Local authkeys holding some key other than the capture's, at any index and method. */
    record OtherKeys(int index, AuthMethod method, byte[] key) {
        MessageAuthenticator authenticator() {
            return new MessageAuthenticator(AuthKeys.single(index, method, key));
        }

        @Override
        public String toString() {
            return index + " " + method + " \"" + Mutations.escape(key) + "\"";
        }
    }

    @Provide
    Arbitrary<OtherKeys> otherKeys() {
        Arbitrary<byte[]> near = Mutations.of(List.of(HeartbeatVectors.ascii("testsecret"))).map(Mutant::bytes);
        Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(80);
        return Combinators.combine(Arbitraries.integers().between(0, 15),
                        Arbitraries.of(AuthMethod.SHA1, AuthMethod.MD5), Arbitraries.oneOf(near, any))
                .as(OtherKeys::new);
    }

    /**
     * No captured datagram or frame verifies under another key. Keys that HMAC (RFC 2104) treats as the
     * same key are excluded: the same bytes, or the same bytes followed by NULs (the key is zero-padded
     * to the block size), under the same method and index.
     */
    @Property
    void nothingVerifiesUnderAnotherKey(@ForAll("otherKeys") OtherKeys k,
                                        @ForAll("packetIndexes") int i) {
        Signed seed = DATAGRAMS.get(i % DATAGRAMS.size());
        AuthMethod signer = HeartbeatVectors.keysFor(seed.folder()).signingKey().method();
        Assume.that(signer != AuthMethod.CRC);
        Assume.that(!(k.index() == 1 && k.method() == signer && sameHmacKey(k.key(), HeartbeatVectors.ascii("testsecret"))));
        assertThatThrownBy(() -> WireCodec.decode(seed.bytes(), k.authenticator()))
                .as("datagram %d verified under %s", i, k).isInstanceOf(AuthenticationException.class);
        byte[] frame = CLASSIC_FRAMES.get(i % CLASSIC_FRAMES.size());
        Assume.that(!(k.index() == 1 && k.method() == AuthMethod.SHA1
                && sameHmacKey(k.key(), HeartbeatVectors.ascii("testsecret"))));
        assertThatThrownBy(() -> WireCodec.decode(frame, k.authenticator()))
                .as("frame %d verified under %s", i, k).isInstanceOf(AuthenticationException.class);
    }

    /** The trailers ({@code "1 <hex>"}) of the captured datagrams, as bytes. */
    static final List<byte[]> TRAILERS = DATAGRAMS.stream().map(s -> {
        try {
            return NetstringCodec.decode(s.bytes()).trailer().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (WireFormatException e) {
            throw new AssertionError(e);
        }
    }).toList();

    @Provide
    Arbitrary<Mutant> trailerMutants() {
        return Mutations.of(TRAILERS);
    }

    /**
     * {@link MessageAuthenticator#verify} never throws, whatever the auth string, and accepts a changed
     * string only if it names the same index (e.g. {@code 01}) and carries the same digest.
     */
    @Property
    void verifyNeverThrowsAndAcceptsOnlyTheSigningDigest(@ForAll("trailerMutants") Mutant m) throws Exception {
        Assume.that(m.seedIndex() >= 0);
        Signed seed = DATAGRAMS.get(m.seedIndex());
        DecodedNetstring d = NetstringCodec.decode(seed.bytes());
        String auth = m.text();
        boolean ok = HeartbeatVectors.authenticatorFor(seed.folder()).verify(auth, d.signedRegion());
        if (ok) {
            String[] got = auth.split(" ", -1);
            String[] signed = d.trailer().split(" ", -1);
            assertThat(got).as("%s", m).hasSize(2);
            assertThat(Integer.parseInt(got[0])).as("%s", m).isEqualTo(Integer.parseInt(signed[0]));
            assertThat(got[1]).as("%s", m).isEqualTo(signed[1]);
        }
    }

    @Provide
    Arbitrary<Integer> packetIndexes() {
        return Arbitraries.integers().between(0, Math.max(DATAGRAMS.size(), CLASSIC_FRAMES.size()) - 1);
    }

    /** Whether HMAC sees the same key: equal after removing trailing NULs (keys up to the 64-byte block). */
    static boolean sameHmacKey(byte[] a, byte[] b) {
        return a.length <= 64 && b.length <= 64 && Arrays.equals(stripNuls(a), stripNuls(b));
    }

    private static byte[] stripNuls(byte[] k) {
        int n = k.length;
        while (n > 0 && k[n - 1] == 0) {
            n--;
        }
        return Arrays.copyOf(k, n);
    }
}
