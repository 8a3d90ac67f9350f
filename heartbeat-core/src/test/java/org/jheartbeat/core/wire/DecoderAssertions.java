package org.jheartbeat.core.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.Arrays;
import java.util.Random;

/** Shared checks for the {@code *MalformedTest} classes. */
final class DecoderAssertions {
    /** A decoder call under test. */
    @FunctionalInterface
    interface Decoding {
        Object run() throws WireFormatException;
    }

    private DecoderAssertions() {
    }

    /** The call may succeed or throw WireFormatException; anything else fails the test. */
    static void onlyWireFormatException(byte[] input, Decoding decoding) {
        try {
            decoding.run();
        } catch (WireFormatException expected) {
            if (expected.getMessage() == null || expected.getMessage().isEmpty()) {
                fail("WireFormatException without a message for input " + Arrays.toString(input));
            }
        } catch (RuntimeException | Error e) {
            throw new AssertionError("decoder threw " + e + " for input " + Arrays.toString(input), e);
        }
    }

    /** The call must throw WireFormatException with {@code reason}. */
    static void rejects(WireFormatException.Reason reason, Decoding decoding) {
        assertThatThrownBy(decoding::run)
                .isInstanceOf(WireFormatException.class)
                .satisfies(e -> assertThat(((WireFormatException) e).reason())
                        .as(e.getMessage()).isEqualTo(reason));
    }

    /** A random mutation of {@code base}: replace, insert or delete a few bytes, sometimes truncate. */
    static byte[] mutate(byte[] base, Random random) {
        byte[] b = base.clone();
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits && b.length > 0; e++) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(4)) {
                case 0 -> b[at] = (byte) random.nextInt(256);
                case 1 -> b[at] = (byte) "0123456789:,()=\n#%<>\0".charAt(random.nextInt(21));
                case 2 -> {
                    byte[] longer = new byte[b.length + 1];
                    System.arraycopy(b, 0, longer, 0, at);
                    longer[at] = (byte) random.nextInt(256);
                    System.arraycopy(b, at, longer, at + 1, b.length - at);
                    b = longer;
                }
                default -> {
                    byte[] shorter = new byte[b.length - 1];
                    System.arraycopy(b, 0, shorter, 0, at);
                    System.arraycopy(b, at + 1, shorter, at, b.length - at - 1);
                    b = shorter;
                }
            }
        }
        return random.nextInt(8) == 0 ? Arrays.copyOf(b, random.nextInt(b.length + 1)) : b;
    }

    /** {@code prefix} followed by {@code length} random bytes drawn mostly from {@code alphabet}. */
    static byte[] randomAfter(String prefix, int length, String alphabet, Random random) {
        byte[] p = HeartbeatVectors.ascii(prefix);
        byte[] b = Arrays.copyOf(p, p.length + length);
        for (int i = p.length; i < b.length; i++) {
            b[i] = random.nextInt(10) == 0 ? (byte) random.nextInt(256)
                    : (byte) alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return b;
    }
}
