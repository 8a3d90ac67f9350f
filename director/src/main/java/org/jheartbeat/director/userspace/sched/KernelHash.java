package org.jheartbeat.director.userspace.sched;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * The hash functions the IPVS schedulers use, as current Linux computes them: {@code hash_32}
 * (multiply by {@code GOLDEN_RATIO_32 = 0x61C88647}, keep the top bits; include/linux/hash.h),
 * the IPv6 address fold (XOR of the four 32-bit words), and {@code hsiphash} of one 32-bit word
 * as 64-bit kernels compute it (SipHash-1-3 with 64-bit key words; lib/siphash.c).
 */
final class KernelHash {
    private KernelHash() {
    }

    /** {@code hash_32(value, bits)}. */
    static int hash32(int value, int bits) {
        return (value * 0x61C88647) >>> (32 - bits);
    }

    /** The address as the schedulers key it: IPv4 in host order, IPv6 folded by XOR of its words. */
    static int fold(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return word(b, 0);
        }
        return word(b, 0) ^ word(b, 4) ^ word(b, 8) ^ word(b, 12);
    }

    private static int word(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }

    /**
     * {@code hsiphash(&v, 4, key)} on a 64-bit little-endian kernel, unsigned.
     *
     * @param v    the 32-bit value
     * @param key0 the key's first word
     * @param key1 the key's second word
     * @return the 32-bit hash as a non-negative long
     */
    static long hsiphash32(int v, long key0, long key1) {
        long v0 = 0x736f6d6570736575L ^ key0;
        long v1 = 0x646f72616e646f6dL ^ key1;
        long v2 = 0x6c7967656e657261L ^ key0;
        long v3 = 0x7465646279746573L ^ key1;
        long b = (4L << 56) | (v & 0xffffffffL);
        v3 ^= b;
        long[] s = {v0, v1, v2, v3};
        round(s);
        s[0] ^= b;
        s[2] ^= 0xff;
        round(s);
        round(s);
        round(s);
        return ((s[0] ^ s[1]) ^ (s[2] ^ s[3])) & 0xffffffffL;
    }

    private static void round(long[] s) {
        s[0] += s[1];
        s[1] = Long.rotateLeft(s[1], 13);
        s[1] ^= s[0];
        s[0] = Long.rotateLeft(s[0], 32);
        s[2] += s[3];
        s[3] = Long.rotateLeft(s[3], 16);
        s[3] ^= s[2];
        s[0] += s[3];
        s[3] = Long.rotateLeft(s[3], 21);
        s[3] ^= s[0];
        s[2] += s[1];
        s[1] = Long.rotateLeft(s[1], 17);
        s[1] ^= s[2];
        s[2] = Long.rotateLeft(s[2], 32);
    }
}
