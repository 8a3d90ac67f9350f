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
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ClassicCodec refuses every malformed frame with WireFormatException and nothing else. */
class ClassicCodecMalformedTest {
    private static final MessageAuthenticator AUTH =
            new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, ascii("testsecret")));
    private static final byte[] FRAME = HeartbeatVectors.splitFrames(
            HeartbeatVectors.readSerialStream(HeartbeatVectors.serialStreams().get(0))).get(0);

    @Test
    void truncationAtEveryOffsetIsRejectedExceptTheFinalNewline() throws Exception {
        HaMessage whole = ClassicCodec.decodeAndVerify(FRAME, AUTH);
        for (int length = 0; length < FRAME.length - 1; length++) {
            byte[] prefix = Arrays.copyOf(FRAME, length);
            rejects(length < 4 ? UNKNOWN_FORMAT : MALFORMED, () -> ClassicCodec.decode(prefix));
            onlyWireFormatException(prefix, () -> WireCodec.decode(prefix, AUTH));
        }
        // "<<<" at the very end of the input is a complete end line.
        assertThat(ClassicCodec.decodeAndVerify(Arrays.copyOf(FRAME, FRAME.length - 1), AUTH)).isEqualTo(whole);
    }

    @Test
    void everySingleByteCorruptionFailsDecodeAndVerify() {
        for (int at = 0; at < FRAME.length; at++) {
            byte[] corrupt = FRAME.clone();
            corrupt[at] ^= 0x01;
            assertThatThrownBy(() -> ClassicCodec.decodeAndVerify(corrupt, AUTH))
                    .as("flip at offset %d", at).isInstanceOf(WireFormatException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "(0)t=status",        // explicit string type: "wrong type"
        "(5)t=status",        // FT_UNCOMPRESS never appears on the wire
        "(9)t=status",
        "(x)t=status",
        "(2)nested=abc",      // struct: unsupported
        "(4)z=abc",           // compressed: unsupported
        "(1t=status",
        "(1)=abc",
        "(1)srcuuid=!!!!",    // bad base64
        "(1)srcuuid=JUWGn36aQJ60gCSN/toeYA=x",
        "st=",                // empty value
        "=value",             // empty name
        "no equals sign",
    })
    void badLinesAreMalformed(String line) {
        byte[] frame = ascii(">>>\nt=status\n" + line + "\n<<<\n");
        rejects(MALFORMED, () -> ClassicCodec.decode(frame));
    }

    @Test
    void framingErrors() {
        rejects(UNKNOWN_FORMAT, () -> ClassicCodec.decode(ascii("")));
        rejects(UNKNOWN_FORMAT, () -> ClassicCodec.decode(ascii("t=status\n<<<\n")));
        rejects(UNKNOWN_FORMAT, () -> ClassicCodec.decode(ascii(">>> \nt=status\n<<<\n")));
        rejects(MALFORMED, () -> ClassicCodec.decode(ascii(">>>\nt=status\n")));
        rejects(MALFORMED, () -> ClassicCodec.decode(ascii(">>>\nt=status\n<<<\ngarbage")));
        rejects(MALFORMED, () -> ClassicCodec.decode(ascii(">>>\nt=status\n<<<<\n")));
        rejects(MALFORMED, () -> ClassicCodec.decode(ascii(">>>\nt=status\n\0junk")));
        // Stricter than Heartbeat, which ignores whatever follows a NUL.
        rejects(MALFORMED, () -> ClassicCodec.decode(ascii(">>>\nt=status\nst=up\0ignored=x\n<<<\n")));
    }

    @Test
    void leniencyMatchesHeartbeat() throws Exception {
        HaMessage expected = HaMessage.builder().add("t", "status").add("st", "up").build();

        assertThat(ClassicCodec.decode(ascii("\n\n>>>\nt=status\n\nst=up\n<<<\n"))).isEqualTo(expected);
        assertThat(ClassicCodec.decode(ascii(">>>\nt=status\nst=up\n<<<"))).isEqualTo(expected);
        assertThat(ClassicCodec.decode(ascii(">>>\nt=status\nst=up\n\0"))).isEqualTo(expected);
        assertThat(ClassicCodec.decode(ascii(">>>\nt=status\nst=up\0\0"))).isEqualTo(expected);
    }

    @Test
    void newlineSubstituteAndListsRoundTrip() throws Exception {
        HaMessage m = HaMessage.builder().add("t", "x").add("info", "two\nlines")
                .add(new HaField("l", FieldType.LIST, ascii("3:abc,4:defg,"))).add("v", "a=b").build();

        byte[] frame = ClassicCodec.encode(m);

        assertThat(new String(frame, ISO_8859_1))
                .isEqualTo(">>>\nt=x\ninfo=two\u0013lines\n(3)l=3:abc,4:defg,\nv=a=b\n<<<\n");
        assertThat(ClassicCodec.decode(frame)).isEqualTo(m);
    }

    @Test
    void encodeRefusesWhatTheParserCannotReadBack() {
        HaMessage empty = HaMessage.builder().add("t", "x").add("st", "").build();
        HaMessage struct = HaMessage.builder().add(new HaField("s", FieldType.STRUCT, ascii("###\n%%%\n"))).build();

        assertThatThrownBy(() -> ClassicCodec.encode(empty)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ClassicCodec.encode(struct)).isInstanceOf(IllegalArgumentException.class);
        assertThat(ClassicCodec.renderForAuth(empty)).isEqualTo(ascii("t=x\nst=\n"));
    }

    @Test
    void authFieldProblemsAreAuthFailures() {
        rejects(AUTH_FAILED, () -> ClassicCodec.decodeAndVerify(ascii(">>>\nt=status\n<<<\n"), AUTH));
        rejects(AUTH_FAILED, () -> ClassicCodec.decodeAndVerify(ascii(">>>\nt=status\nauth=1 00\n<<<\n"), AUTH));
        rejects(AUTH_FAILED, () -> ClassicCodec.decodeAndVerify(ascii(">>>\nt=status\nauth=garbage\n<<<\n"), AUTH));
        MessageAuthenticator wrong =
                new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, ascii("testsecrez")));
        rejects(AUTH_FAILED, () -> ClassicCodec.decodeAndVerify(FRAME, wrong));
        rejects(AUTH_FAILED, () -> WireCodec.decode(FRAME, wrong));
    }

    @Test
    void oversizeInputIsTooLarge() {
        byte[] huge = new byte[NetstringCodec.MAX_MESSAGE_BYTES + 1];
        Arrays.fill(huge, (byte) '\n');

        rejects(TOO_LARGE, () -> ClassicCodec.decode(huge));
    }

    @Test
    void randomGarbageOnlyEverRaisesWireFormatException() {
        Random random = new Random(0x3e3e_3e0aL);
        for (int i = 0; i < 4000; i++) {
            byte[] input = switch (i % 4) {
                case 0 -> DecoderAssertions.randomAfter("", random.nextInt(64), "abc=\n<>()019\0", random);
                case 1 -> DecoderAssertions.randomAfter(">>>\n", random.nextInt(400),
                        "abcst=\n<()0123456789+/\u0013", random);
                default -> DecoderAssertions.mutate(FRAME, random);
            };
            onlyWireFormatException(input, () -> ClassicCodec.decode(input));
            onlyWireFormatException(input, () -> ClassicCodec.decodeAndVerify(input, AUTH));
            onlyWireFormatException(input, () -> WireCodec.decode(input, AUTH));
        }
    }
}
