package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.wire.DecoderAssertions.rejects;
import static org.jheartbeat.core.wire.HeartbeatVectors.ascii;

import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;

class WireCodecTest {
    private static final MessageAuthenticator AUTH =
            new MessageAuthenticator(AuthKeys.single(2, AuthMethod.MD5, ascii("k")));
    private static final HaMessage STATUS = HaMessage.builder()
            .add(Field.TYPE, MessageType.STATUS.wireName()).add(Field.STATUS, "up").add(Field.SOURCE, "node1").build();

    @Test
    void msgfmtNetstringSendsNoInnerAuthField() throws Exception {
        byte[] datagram = WireCodec.encodeForUdp(STATUS, AUTH, false);

        assertThat(WireCodec.decode(datagram, AUTH)).isEqualTo(STATUS);
        assertThat(NetstringCodec.decode(datagram).trailer()).startsWith("2 ").hasSize(2 + 32);
    }

    @Test
    void msgfmtClassicAppendsAuthLast() throws Exception {
        HaMessage sent = WireCodec.decode(WireCodec.encodeForUdp(STATUS, AUTH, true), AUTH);

        assertThat(sent.fields()).extracting(HaField::name).containsExactly("t", "st", "src", "auth");
        assertThat(AUTH.verify(sent.get(Field.AUTH).orElseThrow(), ClassicCodec.renderForAuth(STATUS))).isTrue();
    }

    @Test
    void serialFramesAreClassicWithAuthAndDecodeThroughTheFacade() throws Exception {
        byte[] frame = WireCodec.encodeForSerial(STATUS, AUTH);

        assertThat(new String(frame, ISO_8859_1))
                .startsWith(">>>\nt=status\nst=up\nsrc=node1\nauth=2 ").endsWith("\n<<<\n");
        assertThat(WireCodec.decode(frame, AUTH)).isEqualTo(WireCodec.withInnerAuth(STATUS, AUTH));
    }

    @Test
    void innerAuthIsNotCheckedOnNetstringPackets() throws Exception {
        // As cluster-glue netstring2msg: only the trailer authenticates a netstring packet.
        HaMessage bogusInner = STATUS.with(Field.AUTH, "2 00");

        assertThat(WireCodec.decode(NetstringCodec.encodeSigned(bogusInner, AUTH), AUTH)).isEqualTo(bogusInner);
    }

    @Test
    void unknownPrefixIsUnknownFormat() {
        rejects(WireFormatException.Reason.UNKNOWN_FORMAT, () -> WireCodec.decode(ascii("<<<\n"), AUTH));
        rejects(WireFormatException.Reason.UNKNOWN_FORMAT, () -> WireCodec.decode(new byte[0], AUTH));
    }
}
