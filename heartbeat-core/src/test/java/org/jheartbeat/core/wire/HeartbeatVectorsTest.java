package org.jheartbeat.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jheartbeat.core.wire.HeartbeatVectors.ascii;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every captured Heartbeat 3.0.6 UDP datagram decodes, authenticates and re-encodes byte for byte. */
class HeartbeatVectorsTest {

    static Stream<Arguments> packets() {
        return HeartbeatVectors.PACKET_FOLDERS.stream()
                .flatMap(folder -> HeartbeatVectors.packets(folder).stream()
                        .map(p -> Arguments.of(folder, p.getFileName().toString(), p)));
    }

    @Test
    void everyFolderHoldsTheDocumentedNumberOfPackets() {
        assertThat(HeartbeatVectors.packets("sha1")).hasSize(40);
        assertThat(HeartbeatVectors.packets("md5")).hasSize(40);
        assertThat(HeartbeatVectors.packets("crc")).hasSize(40);
        assertThat(HeartbeatVectors.packets("lifecycle")).hasSize(289);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("packets")
    void decodesAndTrailerVerifiesWithReadmeKey(String folder, String name, Path file) throws Exception {
        byte[] packet = HeartbeatVectors.read(file);
        MessageAuthenticator auth = HeartbeatVectors.authenticatorFor(folder);

        HaMessage m = NetstringCodec.decodeAndVerify(packet, auth);

        assertThat(m.type()).isPresent();
        assertThat(m.get(Field.SOURCE)).isPresent();
        assertThat(WireCodec.decode(packet, auth)).isEqualTo(m);
        DecodedNetstring decoded = NetstringCodec.decode(packet);
        assertThat(decoded.trailer()).startsWith("1 ");
        assertThat(packet.length - decoded.signedRegion().length).isEqualTo(decoded.trailer().length()
                + String.valueOf(decoded.trailer().length()).length() + 2);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("packets")
    void trailerFailsWithAnyOtherKey(String folder, String name, Path file) {
        byte[] packet = HeartbeatVectors.read(file);
        for (MessageAuthenticator wrong : wrongAuthenticators(folder)) {
            assertThatThrownBy(() -> NetstringCodec.decodeAndVerify(packet, wrong))
                    .isInstanceOf(AuthenticationException.class)
                    .extracting(e -> ((WireFormatException) e).reason())
                    .isEqualTo(WireFormatException.Reason.AUTH_FAILED);
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("packets")
    void innerAuthFieldVerifiesOverClassicRendering(String folder, String name, Path file) throws Exception {
        HaMessage m = NetstringCodec.decode(HeartbeatVectors.read(file)).message();
        String inner = m.get(Field.AUTH).orElseThrow();
        byte[] rendered = ClassicCodec.renderForAuth(m);

        assertThat(HeartbeatVectors.authenticatorFor(folder).verify(inner, rendered)).isTrue();
        for (MessageAuthenticator wrong : wrongAuthenticators(folder)) {
            assertThat(wrong.verify(inner, rendered)).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("packets")
    void encodeSignedReproducesTheDatagram(String folder, String name, Path file) throws Exception {
        byte[] packet = HeartbeatVectors.read(file);
        HaMessage m = NetstringCodec.decode(packet).message();

        assertThat(NetstringCodec.encodeSigned(m, HeartbeatVectors.authenticatorFor(folder))).isEqualTo(packet);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("packets")
    void encodeForUdpWithInnerAuthReproducesTheDatagram(String folder, String name, Path file) throws Exception {
        byte[] packet = HeartbeatVectors.read(file);
        HaMessage m = NetstringCodec.decode(packet).message();
        List<HaField> fields = m.fields();
        assertThat(fields.get(fields.size() - 1).name()).as("auth is the last field").isEqualTo("auth");

        byte[] encoded = WireCodec.encodeForUdp(m.without(Field.AUTH), HeartbeatVectors.authenticatorFor(folder), true);

        assertThat(encoded).isEqualTo(packet);
    }

    @ParameterizedTest(name = "{0}/{1}")
    @MethodSource("packets")
    void classicRenderingRoundTripsAndVerifies(String folder, String name, Path file) throws Exception {
        HaMessage m = NetstringCodec.decode(HeartbeatVectors.read(file)).message();
        MessageAuthenticator auth = HeartbeatVectors.authenticatorFor(folder);

        byte[] frame = ClassicCodec.encode(m);

        assertThat(ClassicCodec.decodeAndVerify(frame, auth)).isEqualTo(m);
        assertThat(WireCodec.decode(frame, auth)).isEqualTo(m);
        assertThat(WireCodec.encodeForSerial(m.without(Field.AUTH), auth)).isEqualTo(frame);
    }

    @Test
    void crcIgnoresTheKeySoAnyCrcKeyAtTheSameIndexVerifies() throws Exception {
        byte[] packet = HeartbeatVectors.read(HeartbeatVectors.packets("crc").get(0));
        var anyKey = new MessageAuthenticator(AuthKeys.single(1, AuthMethod.CRC, ascii("testsecrez")));

        assertThat(NetstringCodec.decodeAndVerify(packet, anyKey)).isNotNull();
    }

    @Test
    void crcVectorsIncludeAnUnpaddedDigest() throws Exception {
        // crc-09.bin's trailer is "1 400d7ab": seven digits, as C's %lx prints it.
        DecodedNetstring d = NetstringCodec.decode(HeartbeatVectors.read(HeartbeatVectors.root().resolve("crc/crc-09.bin")));

        assertThat(d.trailer()).isEqualTo("1 400d7ab");
    }

    private static List<MessageAuthenticator> wrongAuthenticators(String folder) {
        AuthKeys right = HeartbeatVectors.keysFor(folder);
        AuthMethod method = right.signingKey().method();
        if (method == AuthMethod.CRC) {
            return List.of(
                    new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, ascii("testsecret"))),
                    new MessageAuthenticator(AuthKeys.single(1, AuthMethod.MD5, ascii("testsecret"))),
                    new MessageAuthenticator(AuthKeys.single(2, AuthMethod.CRC, new byte[0])));
        }
        AuthMethod other = method == AuthMethod.SHA1 ? AuthMethod.MD5 : AuthMethod.SHA1;
        return List.of(
                new MessageAuthenticator(AuthKeys.single(1, method, ascii("testsecrez"))),
                new MessageAuthenticator(AuthKeys.single(1, other, ascii("testsecret"))),
                new MessageAuthenticator(AuthKeys.single(2, method, ascii("testsecret"))),
                new MessageAuthenticator(AuthKeys.single(1, AuthMethod.CRC, new byte[0])));
    }
}
