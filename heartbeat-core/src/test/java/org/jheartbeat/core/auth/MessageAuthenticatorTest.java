package org.jheartbeat.core.auth;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HexFormat;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class MessageAuthenticatorTest {
    private static final byte[] TESTSECRET = bytes("testsecret");

    private static byte[] bytes(String s) {
        return s.getBytes(ISO_8859_1);
    }

    private static MessageAuthenticator single(int index, AuthMethod method, byte[] key) {
        return new MessageAuthenticator(AuthKeys.single(index, method, key));
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    @Test
    void crcCheckValue() {
        assertThat(single(1, AuthMethod.CRC, new byte[0]).sign(bytes("123456789"))).isEqualTo("1 765e7680");
    }

    @Test
    void crcIsPrintedWithoutZeroPadding() {
        MessageAuthenticator crc = single(3, AuthMethod.CRC, new byte[0]);

        assertThat(crc.sign(bytes("x40"))).isEqualTo("3 6a039b");
        assertThat(crc.verify("3 6a039b", bytes("x40"))).isTrue();
        assertThat(crc.verify("3 006a039b", bytes("x40"))).isFalse();
    }

    @Test
    void crcOfEmptyInputIsTheComplementOfZero() {
        assertThat(single(1, AuthMethod.CRC, new byte[0]).sign(new byte[0])).isEqualTo("1 ffffffff");
    }

    @Test
    void crcIgnoresTheKey() {
        assertThat(single(1, AuthMethod.CRC, bytes("anything")).sign(bytes("abc"))).isEqualTo("1 d3e8c673");
    }

    @Test
    void hmacSha1Rfc2202() {
        MessageAuthenticator a = single(1, AuthMethod.SHA1, filled(20, 0x0b));
        assertThat(a.sign(bytes("Hi There"))).isEqualTo("1 b617318655057264e28bc0b6fb378c8ef146be00");
    }

    @Test
    void hmacMd5Rfc2202() {
        MessageAuthenticator a = single(1, AuthMethod.MD5, filled(16, 0x0b));
        assertThat(a.sign(bytes("Hi There"))).isEqualTo("1 9294727a3638bb1c13f48ef8158bfc9d");
    }

    @Test
    void keysLongerThanTheBlockAreHashedFirst() {
        byte[] data = bytes("Test Using Larger Than Block-Size Key - Hash Key First");
        assertThat(single(1, AuthMethod.SHA1, filled(80, 0xaa)).sign(data))
                .isEqualTo("1 aa4ae5e15272d00e95705637ce8a3b55ed402112");
        assertThat(single(1, AuthMethod.MD5, filled(80, 0xaa)).sign(data))
                .isEqualTo("1 6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd");
    }

    @Test
    void emptyKeyIsTheRfc2104ZeroPaddedKey() {
        // Heartbeat refuses md5/sha1 lines without a key; an empty key still gets well-defined HMAC.
        assertThat(single(1, AuthMethod.SHA1, new byte[0]).sign(bytes("x")))
                .isEqualTo(single(1, AuthMethod.SHA1, new byte[1]).sign(bytes("x")));
    }

    @Test
    void signUsesTheSigningIndexAndLowercaseHex() {
        String signed = single(7, AuthMethod.SHA1, TESTSECRET).sign(bytes("hello"));

        assertThat(signed).matches("7 [0-9a-f]{40}");
        assertThat(single(7, AuthMethod.MD5, TESTSECRET).sign(bytes("hello"))).matches("7 [0-9a-f]{32}");
    }

    @Test
    void anotherDefinedIndexIsAcceptedOnlyDuringARolloverWindow() {
        AuthKeys oldKeys = AuthKeys.single(1, AuthMethod.SHA1, bytes("old"));
        String signedWithOld = new MessageAuthenticator(oldKeys).sign(bytes("data"));
        AuthKeys rolled = new AuthKeys(2, Map.of(
                1, new AuthKey(1, AuthMethod.SHA1, bytes("old")),
                2, new AuthKey(2, AuthMethod.MD5, bytes("new"))));
        Instant until = Instant.parse("2026-12-06T18:00:00Z");
        java.time.Clock before = java.time.Clock.fixed(until.minusSeconds(1), java.time.ZoneOffset.UTC);
        java.time.Clock after = java.time.Clock.fixed(until, java.time.ZoneOffset.UTC);

        // outside a window (Heartbeat would accept it: any defined index), key 1 is refused, saying why
        MessageAuthenticator strict = new MessageAuthenticator(rolled, before);
        assertThat(strict.verify(signedWithOld, bytes("data"))).isFalse();
        assertThat(strict.refusal(signedWithOld)).isEqualTo("signed with key 1, but only key 2 (auth 2) is accepted"
                + " outside a key roll-over (jheartbeat.yaml authkeys: rollover_until:)");
        assertThat(strict.sign(bytes("data"))).startsWith("2 ");
        assertThat(strict.verify(strict.sign(bytes("data")), bytes("data"))).isTrue();

        MessageAuthenticator rolling = new MessageAuthenticator(rolled.withRollover(Optional.of(until)), before);
        assertThat(rolling.verify(signedWithOld, bytes("data"))).isTrue();
        assertThat(rolling.verify(signedWithOld, bytes("datA"))).isFalse();
        assertThat(rolling.refusal(signedWithOld)).isEqualTo("does not verify with key 1 of the local authkeys");
        MessageAuthenticator ended = new MessageAuthenticator(rolled.withRollover(Optional.of(until)), after);
        assertThat(ended.verify(signedWithOld, bytes("data"))).isFalse();
        assertThat(ended.refusal("7 abc")).isEqualTo("signed with key 7, which this node's authkeys does not define");
        assertThat(ended.refusal("x")).isEqualTo("malformed authentication string");
    }

    @Test
    void verifyRejectsUnknownIndexWrongDataAndUppercase() {
        MessageAuthenticator a = single(1, AuthMethod.SHA1, TESTSECRET);
        String good = a.sign(bytes("data"));

        assertThat(a.verify(good, bytes("data"))).isTrue();
        assertThat(a.verify(good, bytes("datA"))).isFalse();
        assertThat(a.verify("2" + good.substring(1), bytes("data"))).isFalse();
        assertThat(a.verify(good.toUpperCase(), bytes("data"))).isFalse();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "1", "1 ", " 1 abc", "1  abc", "1 abc ", "1 ab c", "x abc", "-1 abc", "+1 abc",
        "001 abc", "99999999999999999999 abc", "1\tabc", "1 abc\n", "1 \u00e9"})
    void verifyReturnsFalseForMalformedStrings(String malformed) {
        MessageAuthenticator a = single(1, AuthMethod.SHA1, TESTSECRET);

        assertThat(a.verify(malformed, bytes("data"))).isFalse();
    }

    @Test
    void twoDigitIndexesWork() {
        MessageAuthenticator a = single(15, AuthMethod.MD5, TESTSECRET);

        assertThat(a.verify(a.sign(bytes("d")), bytes("d"))).isTrue();
        assertThat(HexFormat.of().parseHex(a.sign(bytes("d")).substring(3))).hasSize(16);
    }
}
