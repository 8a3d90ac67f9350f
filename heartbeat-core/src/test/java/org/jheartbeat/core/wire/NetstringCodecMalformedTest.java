package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jheartbeat.core.wire.DecoderAssertions.onlyWireFormatException;
import static org.jheartbeat.core.wire.DecoderAssertions.rejects;
import static org.jheartbeat.core.wire.HeartbeatVectors.ascii;
import static org.jheartbeat.core.wire.WireFormatException.Reason.AUTH_FAILED;
import static org.jheartbeat.core.wire.WireFormatException.Reason.MALFORMED;
import static org.jheartbeat.core.wire.WireFormatException.Reason.TOO_LARGE;
import static org.jheartbeat.core.wire.WireFormatException.Reason.UNKNOWN_FORMAT;

import java.util.Arrays;
import java.util.Random;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** NetstringCodec refuses every malformed datagram with WireFormatException and nothing else. */
class NetstringCodecMalformedTest {
    private static final MessageAuthenticator AUTH = HeartbeatVectors.authenticatorFor("sha1");
    private static final byte[] PACKET = HeartbeatVectors.read(HeartbeatVectors.packets("sha1").get(0));
    private static final String TRAILER = "10:1 5cb8157d,";

    @Test
    void truncationAtEveryOffsetIsRejected() {
        for (int length = 0; length < PACKET.length; length++) {
            byte[] prefix = Arrays.copyOf(PACKET, length);
            rejects(length < 4 ? UNKNOWN_FORMAT : MALFORMED, () -> NetstringCodec.decode(prefix));
            onlyWireFormatException(prefix, () -> WireCodec.decode(prefix, AUTH));
        }
    }

    @Test
    void everySingleByteCorruptionFailsDecodeAndVerify() {
        for (int at = 0; at < PACKET.length; at++) {
            byte[] corrupt = PACKET.clone();
            corrupt[at] ^= 0x01;
            int offset = at;
            assertThatThrownBy(() -> NetstringCodec.decodeAndVerify(corrupt, AUTH))
                    .as("flip at offset %d", offset).isInstanceOf(WireFormatException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "99:(0)t=status,",          // longer than the datagram
        "3:(0)t=status,",           // shorter: no comma where expected
        "a:(0)t=status,",           // not a number
        ":(0)t=status,",            // empty length
        "-11:(0)t=status,",         // sign
        "11(0)t=status,",           // no colon
        "11:(0)t=status;",          // wrong terminator
        "262145:(0)t=status,",      // beyond MAXMSG
        "99999999999999999999:(0)t=status,",
    })
    void badLengthsAreMalformed(String field) {
        byte[] datagram = ascii("###\n" + field + "%%%\n" + TRAILER);
        rejects(MALFORMED, () -> NetstringCodec.decode(datagram));
    }

    @Test
    void hugeLengthPrefixNamesTheDigitLimit() {
        byte[] datagram = ascii("###\n" + "9".repeat(5000) + ":x,%%%\n" + TRAILER);

        rejects(MALFORMED, () -> NetstringCodec.decode(datagram));
        assertThatThrownBy(() -> NetstringCodec.decode(datagram))
                .hasMessageContaining("6 digits").hasMessageContaining("offset 4");
    }

    @ParameterizedTest
    @ValueSource(strings = {"(5)t=x", "(9)t=x", "(x)t=x", "(0t=xy", "0)t=xyz", "t=status", "(0)", "(0)=x",
        "(0)txyz", "(1)a\nb=x", "(0)a\u0000b=x"})
    void badFieldBodiesAreMalformed(String body) {
        byte[] datagram = ascii("###\n" + body.length() + ":" + body + ",%%%\n" + TRAILER);
        rejects(MALFORMED, () -> NetstringCodec.decode(datagram));
    }

    @Test
    void missingEndMarkerOrTrailerIsMalformed() {
        rejects(MALFORMED, () -> NetstringCodec.decode(ascii("###\n9:(0)t=stat,")));
        rejects(MALFORMED, () -> NetstringCodec.decode(ascii("###\n9:(0)t=stat,%%%\n")));
        rejects(MALFORMED, () -> NetstringCodec.decode(ascii("###\n9:(0)t=stat,%%%\n10:1 5cb8157d")));
        rejects(MALFORMED, () -> NetstringCodec.decode(ascii("###\n9:(0)t=stat,%%%")));
        rejects(MALFORMED, () -> NetstringCodec.decode(ascii("###\n9:(0)t=stat,%%%\n0:")));
    }

    @Test
    void trailingGarbageIsMalformed() {
        for (String tail : new String[] {"x", ",", "\0", "\n", "10:1 5cb8157d,"}) {
            byte[] datagram = Arrays.copyOf(PACKET, PACKET.length + tail.length());
            System.arraycopy(ascii(tail), 0, datagram, PACKET.length, tail.length());
            rejects(MALFORMED, () -> NetstringCodec.decode(datagram));
        }
    }

    @Test
    void wrongOrUnparsableTrailerFailsAuthentication() throws Exception {
        String region = new String(PACKET, 0, NetstringCodec.decode(PACKET).signedRegion().length,
                ISO_8859_1);
        for (String trailer : new String[] {"0:,", "1:1,", "3:1 x,", "2:x ,", "5:99 ab,", "4:\0\0\0\0,"}) {
            byte[] datagram = ascii(region + trailer);
            rejects(AUTH_FAILED, () -> NetstringCodec.decodeAndVerify(datagram, AUTH));
        }
    }

    @Test
    void oversizeInputIsTooLargeBeforeAnyParsing() {
        byte[] huge = new byte[NetstringCodec.MAX_MESSAGE_BYTES + 1];
        System.arraycopy(ascii("###\n"), 0, huge, 0, 4);

        rejects(TOO_LARGE, () -> NetstringCodec.decode(huge));
        rejects(TOO_LARGE, () -> WireCodec.decode(huge, AUTH));
        byte[] atLimit = Arrays.copyOf(huge, NetstringCodec.MAX_MESSAGE_BYTES);
        rejects(MALFORMED, () -> NetstringCodec.decode(atLimit));
    }

    @Test
    void emptyAndForeignInputsAreUnknownFormat() {
        for (String s : new String[] {"", "#", "##\n", "### ", "GET / HTTP/1.0\r\n", ">>>", "\n###\n"}) {
            rejects(UNKNOWN_FORMAT, () -> NetstringCodec.decode(ascii(s)));
            rejects(UNKNOWN_FORMAT, () -> WireCodec.decode(ascii(s), AUTH));
        }
    }

    @Test
    void randomGarbageOnlyEverRaisesWireFormatException() {
        Random random = new Random(0x4842_3036L);
        for (int i = 0; i < 4000; i++) {
            byte[] input = switch (i % 4) {
                case 0 -> randomBytes(random, random.nextInt(64));
                case 1 -> DecoderAssertions.randomAfter("###\n", random.nextInt(400), "0123456789:,()=%#\n", random);
                default -> DecoderAssertions.mutate(PACKET, random);
            };
            onlyWireFormatException(input, () -> NetstringCodec.decode(input));
            onlyWireFormatException(input, () -> NetstringCodec.decodeAndVerify(input, AUTH));
            onlyWireFormatException(input, () -> WireCodec.decode(input, AUTH));
        }
    }

    @Test
    void encodeRefusesMessagesBeyondTheLimit() {
        HaMessage big = HaMessage.builder().addBinary("x", new byte[NetstringCodec.MAX_MESSAGE_BYTES]).build();

        assertThatThrownBy(() -> NetstringCodec.encode(big))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(NetstringCodec.encode(HaMessage.builder().build())).isEqualTo(ascii("###\n%%%\n"));
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }
}
