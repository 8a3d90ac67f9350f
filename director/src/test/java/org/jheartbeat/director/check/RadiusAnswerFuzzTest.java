package org.jheartbeat.director.check;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;

/**
 * Fuzzer of the RADIUS check's reading of an answer ({@link RadiusCheck#judge}, the pure part of a
 * UDP exchange), seeded with the Access-Accept and Access-Reject answers the check tests sign and an
 * Accept with attributes. Each mutated answer is judged as it is, and once more signed again after
 * the mutation (so the check reaches the code and length behind the authenticator). Property: the
 * judge throws only {@link CheckFailure}, with a one-line printable reason, and passes exactly the
 * answers whose declared length fits, whose response authenticator (RFC 2865 3, computed here on
 * its own) is right and whose code is Access-Accept. Cases: {@code -Djhb.fuzz.tries}.
 */
class RadiusAnswerFuzzTest {
    static final byte[] SECRET = "s3cret".getBytes(UTF_8);
    static final byte[] REQUEST_AUTHENTICATOR = "0123456789abcdef".getBytes(UTF_8);

    static final List<byte[]> SEEDS = List.of(sign(answer(2, new byte[0])), sign(answer(3, new byte[0])),
            sign(answer(2, Mutations.concat(new byte[] {18, 8}, "Welcome".getBytes(UTF_8).length == 7
                    ? "Welcome".getBytes(UTF_8) : new byte[0], new byte[] {27, 6, 0, 0, 14, 16}))));

    static byte[] answer(int code, byte[] attributes) {
        byte[] a = new byte[20 + attributes.length];
        a[0] = (byte) code;
        a[1] = 42;
        a[2] = (byte) (a.length >> 8);
        a[3] = (byte) a.length;
        System.arraycopy(attributes, 0, a, 20, attributes.length);
        return a;
    }

    /** The declared length, or -1 when it does not fit the datagram. */
    static int declared(byte[] a) {
        if (a.length < 20) {
            return -1;
        }
        int length = ((a[2] & 0xff) << 8) | (a[3] & 0xff);
        return length >= 20 && length <= a.length ? length : -1;
    }

    static byte[] authenticator(byte[] a, int length) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(a, 0, 4);
            md5.update(REQUEST_AUTHENTICATOR);
            md5.update(a, 20, length - 20);
            md5.update(SECRET);
            return md5.digest();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The answer with a right response authenticator (unchanged if its length does not fit). */
    static byte[] sign(byte[] a) {
        int length = declared(a);
        if (length < 0) {
            return a;
        }
        byte[] signed = a.clone();
        System.arraycopy(authenticator(a, length), 0, signed, 4, 16);
        return signed;
    }

    @Provide
    Arbitrary<Mutant> radius() {
        return Mutations.of(SEEDS);
    }

    @Property
    void onlyASignedAccessAcceptPasses(@ForAll("radius") Mutant m, @ForAll boolean signAgain) {
        byte[] a = signAgain ? sign(m.bytes()) : m.bytes();
        int length = declared(a);
        boolean good = length >= 0 && (a[0] & 0xff) == 2
                && Arrays.equals(authenticator(a, length), Arrays.copyOfRange(a, 4, 20));
        try {
            RadiusCheck.judge(a, REQUEST_AUTHENTICATOR, SECRET, "web");
            assertThat(good).as("passed: %s (signed again: %s)", m, signAgain).isTrue();
        } catch (CheckFailure e) {
            assertThat(good).as("refused (%s): %s (signed again: %s)", e.getMessage(), m, signAgain).isFalse();
            CheckAnswerFuzzTest.checkForm(CheckResult.down(e.getMessage(), 0), m);
        }
    }
}
