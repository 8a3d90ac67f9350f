package org.jheartbeat.core.media.serial;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jheartbeat.core.wire.HeartbeatVectors.ascii;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.wire.ClassicCodec;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.HeartbeatVectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link SerialFramer} on the streams real Heartbeat 3.0.6 nodes wrote on their serial lines, and on hostile input. */
class SerialFramerTest {
    private static final MessageAuthenticator SHA1_TESTSECRET =
            new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, ascii("testsecret")));
    private static final byte[] FRAME_A = ascii(">>>\nt=status\nsrc=node1\n<<<\n");
    private static final byte[] FRAME_B = ascii(">>>\nt=status\nsrc=node2\n<<<\n");

    static Stream<Path> streams() {
        return HeartbeatVectors.serialStreams().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void wholeStreamGivesEveryFrameAndEachVerifies(Path file) throws Exception {
        byte[] stream = HeartbeatVectors.readSerialStream(file);
        SerialFramer framer = new SerialFramer();

        List<byte[]> frames = framer.feed(stream, 0, stream.length);

        assertThat(frames).isNotEmpty();
        assertThat(frames).usingElementComparator(Arrays::compare)
                .containsExactlyElementsOf(HeartbeatVectors.splitFrames(stream));
        for (byte[] f : frames) {
            HaMessage m = ClassicCodec.decodeAndVerify(f, SHA1_TESTSECRET);
            assertThat(m.type()).isPresent();
        }
        assertThat(framer.garbageBytes()).isZero();
        assertThat(framer.frames()).isEqualTo(frames.size());
        assertThat(framer.bufferedBytes()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void splittingAtEveryByteBoundaryGivesTheSameFrames(Path file) {
        byte[] stream = HeartbeatVectors.readSerialStream(file);
        List<byte[]> whole = new SerialFramer().feed(stream, 0, stream.length);

        for (int cut = 0; cut <= stream.length; cut++) {
            SerialFramer framer = new SerialFramer();
            List<byte[]> frames = new ArrayList<>(framer.feed(stream, 0, cut));
            frames.addAll(framer.feed(stream, cut, stream.length - cut));

            assertThat(frames).as("cut at %d", cut).hasSameSizeAs(whole);
            for (int i = 0; i < whole.size(); i++) {
                assertThat(frames.get(i)).as("cut at %d, frame %d", cut, i).isEqualTo(whole.get(i));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void byteAtATimeGivesTheSameFrames(Path file) {
        byte[] stream = HeartbeatVectors.readSerialStream(file);
        SerialFramer framer = new SerialFramer();
        List<byte[]> frames = new ArrayList<>();

        for (int i = 0; i < stream.length; i++) {
            frames.addAll(framer.feed(stream, i, 1));
        }

        assertThat(frames).usingElementComparator(Arrays::compare)
                .containsExactlyElementsOf(new SerialFramer().feed(stream, 0, stream.length));
    }

    @Test
    void randomGarbageBeforeAndBetweenFramesIsCountedAndFramesAfterItRecovered() {
        byte[] noise = new byte[100_000];
        new Random(42).nextBytes(noise);
        byte[] noiseLine = concat(noise, ascii("\n")); // ends the noise's last line, as a line break on the wire would
        byte[] stream = concat(noiseLine, FRAME_A, noiseLine, FRAME_B);
        SerialFramer framer = new SerialFramer();

        List<byte[]> frames = framer.feed(stream, 0, stream.length);

        assertThat(frames).containsExactly(FRAME_A, FRAME_B);
        long crs = countOf(noiseLine, (byte) '\r') * 2;
        assertThat(framer.garbageBytes()).isEqualTo(2L * noiseLine.length - crs);
        assertThat(framer.bufferedBytes()).isZero();
    }

    @Test
    void garbageWithoutLineBreakSwallowsOnlyTheNextLine() {
        byte[] stream = concat(ascii("noise with no newline"), FRAME_A, FRAME_B);
        SerialFramer framer = new SerialFramer();

        // ">>>" is not at the start of a line, so the first frame's start line is noise: B still arrives
        assertThat(framer.feed(stream, 0, stream.length)).containsExactly(FRAME_B);
        assertThat(framer.garbageBytes()).isEqualTo("noise with no newline".length() + FRAME_A.length);
    }

    @Test
    void aSecondStartLineRestartsTheFrame() {
        byte[] partial = ascii(">>>\nt=status\nsrc=node1\n");
        byte[] stream = concat(partial, FRAME_B);
        SerialFramer framer = new SerialFramer();

        assertThat(framer.feed(stream, 0, stream.length)).containsExactly(FRAME_B);
        assertThat(framer.garbageBytes()).isEqualTo(partial.length);
        assertThat(framer.framesDiscarded()).isEqualTo(1);
        assertThat(framer.frames()).isEqualTo(1);
    }

    @Test
    void anOversizeFrameIsDiscardedAndTheNextFrameRecovered() {
        ByteArrayOutputStream big = new ByteArrayOutputStream();
        big.writeBytes(ascii(">>>\n"));
        for (int i = 0; i < 200; i++) {
            big.writeBytes(ascii("field" + i + "=" + "x".repeat(20) + "\n"));
        }
        big.writeBytes(ascii("<<<\n"));
        byte[] stream = concat(big.toByteArray(), FRAME_A);
        SerialFramer framer = new SerialFramer(1024);

        assertThat(framer.feed(stream, 0, stream.length)).containsExactly(FRAME_A);
        assertThat(framer.framesDiscarded()).isEqualTo(1);
        assertThat(framer.garbageBytes()).isEqualTo(big.size());
    }

    @Test
    void aFrameExactlyAtTheBoundIsKept() {
        SerialFramer framer = new SerialFramer(FRAME_A.length);

        assertThat(framer.feed(FRAME_A, 0, FRAME_A.length)).containsExactly(FRAME_A);
        assertThat(framer.feed(FRAME_B, 0, FRAME_B.length)).containsExactly(FRAME_B);
    }

    @Test
    void crLfLinesGiveTheSameFrameAsLf() {
        byte[] crlf = ascii(">>>\r\nt=status\r\nsrc=node1\r\n<<<\r\n");
        SerialFramer framer = new SerialFramer();

        assertThat(framer.feed(crlf, 0, crlf.length)).containsExactly(FRAME_A);
        assertThat(framer.garbageBytes()).isZero();
    }

    @Test
    void aStreamWithoutNewlinesStaysBounded() {
        SerialFramer framer = new SerialFramer(4096);
        byte[] chunk = new byte[10_000];
        Arrays.fill(chunk, (byte) 'x');
        byte[] start = ascii(">>>\n");
        framer.feed(start, 0, start.length);

        for (int i = 0; i < 1_000; i++) { // 10 MB, no newline
            assertThat(framer.feed(chunk, 0, chunk.length)).isEmpty();
            assertThat(framer.bufferedBytes()).isLessThanOrEqualTo(4096);
        }
        assertThat(framer.garbageBytes()).isEqualTo(10_000_000L + start.length);
        assertThat(framer.framesDiscarded()).isEqualTo(1);

        byte[] rest = concat(ascii("\n"), FRAME_A);
        assertThat(framer.feed(rest, 0, rest.length)).containsExactly(FRAME_A);
    }

    @Test
    void endMarkerOutsideAFrameIsGarbage() {
        byte[] stream = concat(ascii("<<<\n"), FRAME_A);
        SerialFramer framer = new SerialFramer();

        assertThat(framer.feed(stream, 0, stream.length)).containsExactly(FRAME_A);
        assertThat(framer.garbageBytes()).isEqualTo(4);
    }

    @Test
    void resetDropsThePartialFrame() {
        byte[] partial = ascii(">>>\nt=status\nsr");
        SerialFramer framer = new SerialFramer();
        framer.feed(partial, 0, partial.length);

        framer.reset();
        byte[] tail = concat(ascii("c=node1\n<<<\n"), FRAME_B);

        assertThat(framer.feed(tail, 0, tail.length)).containsExactly(FRAME_B);
        assertThat(framer.framesDiscarded()).isEqualTo(1);
    }

    @Test
    void anyBytesAreAcceptedWithoutThrowing() {
        Random random = new Random(7);
        SerialFramer framer = new SerialFramer(512);
        byte[] alphabet = ascii(">><<\n\rx=");
        for (int round = 0; round < 2_000; round++) {
            byte[] chunk = new byte[random.nextInt(300)];
            for (int i = 0; i < chunk.length; i++) {
                chunk[i] = random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt();
            }
            for (byte[] f : framer.feed(chunk, 0, chunk.length)) {
                assertThat(f.length).isLessThanOrEqualTo(512);
                assertThat(new String(f, 0, 3, java.nio.charset.StandardCharsets.ISO_8859_1)).isEqualTo(">>>");
            }
            assertThat(framer.bufferedBytes()).isLessThanOrEqualTo(512);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static long countOf(byte[] data, byte b) {
        long n = 0;
        for (byte x : data) {
            n += x == b ? 1 : 0;
        }
        return n;
    }
}
