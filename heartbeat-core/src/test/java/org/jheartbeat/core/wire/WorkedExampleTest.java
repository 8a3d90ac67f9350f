package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HexFormat;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;

/** The worked example of facts section B.6: a real 312-byte status datagram, key {@code testsecret}. */
class WorkedExampleTest {
    private static final MessageAuthenticator AUTH =
            new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, "testsecret".getBytes(ISO_8859_1)));
    private static final byte[] SRCUUID = HexFormat.of().parseHex("2545869f7e9a409eb480248dfeda1e60");
    private static final String INNER = "1 c75b8fa97f1fb996f2e7d4cfe4983cccfe84dc57";
    private static final String TRAILER = "1 de869ce91c604743583f907a6ed2e1e812ec7eb0";
    /** The datagram as written in the facts file, {@code \xNN} escapes for the binary srcuuid. */
    private static final byte[] PACKET = ("###\n11:(0)t=status,12:(0)st=active,10:(0)dt=1388,13:(0)protocol=1,"
            + "13:(0)src=rnode1,27:(1)srcuuid=%E\u0086\u009f~\u009a@\u009e\u00b4\u0080$\u008d\u00fe\u00da\u001e`,"
            + "8:(0)seq=e,14:(0)hg=6b0c6d36,14:(0)ts=6b0c6d3a,32:(0)ld=0.09 0.17 0.09 2/122 19339,8:(0)ttl=3,"
            + "50:(0)auth=" + INNER + ",%%%\n42:" + TRAILER + ",").getBytes(ISO_8859_1);
    private static final String CLASSIC_LINES = "t=status\nst=active\ndt=1388\nprotocol=1\nsrc=rnode1\n"
            + "(1)srcuuid=JUWGn36aQJ60gCSN/toeYA==\nseq=e\nhg=6b0c6d36\nts=6b0c6d3a\n"
            + "ld=0.09 0.17 0.09 2/122 19339\nttl=3\n";

    private static HaMessage withoutAuth() {
        return HaMessage.builder()
                .add(Field.TYPE, "status").add(Field.STATUS, "active").add(Field.DEADTIME, "1388")
                .add(Field.PROTOCOL, "1").add(Field.SOURCE, "rnode1").addBinary(Field.SOURCE_UUID, SRCUUID)
                .add(Field.SEQ, "e").add(Field.GENERATION, "6b0c6d36").add(Field.TIMESTAMP, "6b0c6d3a")
                .add(Field.LOAD, "0.09 0.17 0.09 2/122 19339").add(Field.TTL, "3")
                .build();
    }

    @Test
    void packetHasTheDocumentedSizes() throws Exception {
        assertThat(PACKET).hasSize(312);
        assertThat(NetstringCodec.decode(PACKET).signedRegion()).hasSize(266);
        assertThat(Base64.getEncoder().encodeToString(SRCUUID)).isEqualTo("JUWGn36aQJ60gCSN/toeYA==");
    }

    @Test
    void classicRenderingAndInnerHmac() {
        byte[] rendered = ClassicCodec.renderForAuth(withoutAuth());

        assertThat(new String(rendered, ISO_8859_1)).isEqualTo(CLASSIC_LINES);
        assertThat(AUTH.sign(rendered)).isEqualTo(INNER);
    }

    @Test
    void trailerHmacOverHashesThroughPercents() throws Exception {
        DecodedNetstring decoded = NetstringCodec.decode(PACKET);

        assertThat(decoded.trailer()).isEqualTo(TRAILER);
        assertThat(AUTH.sign(decoded.signedRegion())).isEqualTo(TRAILER);
        assertThat(AUTH.verify(TRAILER, decoded.signedRegion())).isTrue();
    }

    @Test
    void decodesToTheExpectedFields() throws Exception {
        HaMessage m = WireCodec.decode(PACKET, AUTH);

        assertThat(m).isEqualTo(withoutAuth().with(Field.AUTH, INNER));
        assertThat(m.messageType()).contains(MessageType.STATUS);
        assertThat(m.getBinary(Field.SOURCE_UUID)).hasValueSatisfying(v -> assertThat(v).isEqualTo(SRCUUID));
    }

    @Test
    void encodeForUdpProducesTheRealPacket() {
        assertThat(WireCodec.encodeForUdp(withoutAuth(), AUTH, true)).isEqualTo(PACKET);
    }

    @Test
    void encodeForUdpReplacesAStaleAuthFieldInPlace() {
        HaMessage stale = withoutAuth().with(Field.AUTH, "1 0000");

        assertThat(WireCodec.encodeForUdp(stale, AUTH, true)).isEqualTo(PACKET);
    }
}
