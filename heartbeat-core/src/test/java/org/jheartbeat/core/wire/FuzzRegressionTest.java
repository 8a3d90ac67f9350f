package org.jheartbeat.core.wire;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;

/**
 * What the wire fuzzers (WireFuzzTest, docs/fuzzing.md) found, each as its minimal input, so that it
 * stays fixed whatever the fuzzers' random cases are.
 */
class FuzzRegressionTest {
    /**
     * Found by {@code aClassicFrameChangedAfterSigningIsRefused} (shrunk: a real frame of the serial
     * capture with its {@code auth} line copied to the top): the inner digest covers no {@code auth}
     * line, so a second one was accepted unnoticed. Now refused.
     */
    @Test
    void aClassicFrameWithASecondAuthLineIsRefused() throws Exception {
        MessageAuthenticator a = HeartbeatVectors.authenticatorFor("sha1");
        byte[] frame = HeartbeatVectors.splitFrames(HeartbeatVectors.readSerialStream(
                HeartbeatVectors.serialStreams().get(0))).get(0);
        HaMessage genuine = WireCodec.decode(frame, a);
        String text = new String(frame, ISO_8859_1);
        String authLine = "auth=" + genuine.get(Field.AUTH).orElseThrow() + "\n";
        byte[] doubled = (">>>\n" + authLine + text.substring(4)).getBytes(ISO_8859_1);

        assertThat(ClassicCodec.decode(doubled).fields()).filteredOn(f -> f.name().equals("auth")).hasSize(2);
        assertThatThrownBy(() -> WireCodec.decode(doubled, a)).isInstanceOf(AuthenticationException.class)
                .hasMessage("classic message has 2 auth fields; a signed message has one");
        // the auth line may still move: the digest never covered it (Heartbeat's rule)
        String moved = ">>>\n" + authLine + text.substring(4).replace(authLine, "");
        assertThat(WireCodec.decode(moved.getBytes(ISO_8859_1), a).without(Field.AUTH))
                .isEqualTo(genuine.without(Field.AUTH));
    }
}
