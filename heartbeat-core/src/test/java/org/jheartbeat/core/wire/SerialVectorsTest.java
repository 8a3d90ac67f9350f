package org.jheartbeat.core.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every classic frame a real Heartbeat 3.0.6 node wrote on its serial line decodes, verifies and re-encodes. */
class SerialVectorsTest {
    private static final MessageAuthenticator SHA1_TESTSECRET =
            new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, HeartbeatVectors.ascii("testsecret")));
    private static final MessageAuthenticator SHA1_WRONG =
            new MessageAuthenticator(AuthKeys.single(1, AuthMethod.SHA1, HeartbeatVectors.ascii("testsecrez")));

    static Stream<Arguments> frames() {
        return HeartbeatVectors.serialStreams().stream().flatMap(file -> {
            List<byte[]> frames = HeartbeatVectors.splitFrames(HeartbeatVectors.readSerialStream(file));
            assertThat(frames).as("frames in %s", file).isNotEmpty();
            return Stream.iterate(0, i -> i < frames.size(), i -> i + 1)
                    .map(i -> Arguments.of(file.getFileName().toString(), i, frames.get(i)));
        });
    }

    @ParameterizedTest(name = "{0} frame {1}")
    @MethodSource("frames")
    void frameDecodesVerifiesAndReencodes(String file, int index, byte[] frame) throws Exception {
        HaMessage m = ClassicCodec.decodeAndVerify(frame, SHA1_TESTSECRET);

        assertThat(m.type()).isPresent();
        assertThat(WireCodec.decode(frame, SHA1_TESTSECRET)).isEqualTo(m);
        assertThat(ClassicCodec.encode(m)).isEqualTo(frame);
        assertThat(WireCodec.encodeForSerial(m.without(Field.AUTH), SHA1_TESTSECRET)).isEqualTo(frame);
        assertThat(SHA1_WRONG.verify(m.get(Field.AUTH).orElseThrow(), ClassicCodec.renderForAuth(m))).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("streams")
    void streamIsNothingButFrames(Path file) {
        byte[] stream = HeartbeatVectors.readSerialStream(file);
        int total = HeartbeatVectors.splitFrames(stream).stream().mapToInt(f -> f.length).sum();

        assertThat(total).isEqualTo(stream.length);
    }

    static Stream<Path> streams() {
        return HeartbeatVectors.serialStreams().stream();
    }
}
