package org.jheartbeat.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.auth.AuthKey;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.junit.jupiter.api.Test;

/**
 * A forgotten weak line beside a strong {@code auth} key ({@code auth 1} / {@code 1 sha1 ...} / {@code 2 crc}): anyone
 * on the link can sign with crc, which needs no secret. Heartbeat 3.0.6 accepts any index its file defines, so such
 * a forged standby request would be obeyed; here it is refused unless a key roll-over window is open.
 */
class ForgottenKeyTest {
    static final AuthKeys KEYS = new AuthKeys(1, Map.of(
            1, new AuthKey(1, AuthMethod.SHA1, "0123456789abcdef0123".getBytes(StandardCharsets.US_ASCII)),
            2, new AuthKey(2, AuthMethod.CRC, new byte[0])));
    static final Clock NOW = Clock.fixed(Instant.parse("2026-12-06T12:00:00Z"), ZoneOffset.UTC);

    /** A standby request from node2, signed by a stranger who knows no secret: crc under index 2. */
    static byte[] forgedStandby() throws Exception {
        MessageAuthenticator stranger = new MessageAuthenticator(AuthKeys.single(2, AuthMethod.CRC, new byte[0]));
        return WireCodec.encodeForUdp(HaMessage.builder().add("t", "ask_resources").add("rsc_hold", "all")
                .add("info", "me").add("src", "node2").add("seq", "a").add("hg", "1").add("ts", "1").build(),
                stranger, true);
    }

    @Test
    void aFrameSignedWithTheForgottenCrcKeyIsRefusedOutsideARollover() throws Exception {
        byte[] forged = forgedStandby();
        assertThatThrownBy(() -> WireCodec.decode(forged, new MessageAuthenticator(KEYS, NOW)))
                .isInstanceOf(AuthenticationException.class)
                .hasMessageContaining("refused: signed with key 2, but only key 1 (auth 1) is accepted outside a key"
                        + " roll-over");
        // the window is what Heartbeat's roll-over needs; it is explicit and ends
        MessageAuthenticator rolling = new MessageAuthenticator(KEYS.withRollover(Optional.of(
                Instant.parse("2026-12-06T13:00:00Z"))), NOW);
        assertThat(WireCodec.decode(forged, rolling).get("t")).contains("ask_resources");
    }
}
