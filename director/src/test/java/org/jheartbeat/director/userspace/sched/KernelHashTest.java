package org.jheartbeat.director.userspace.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The schedulers' hash functions against published values. */
class KernelHashTest {

    /**
     * hsiphash of the 4 bytes 00 01 02 03 with key 00..0f, as the kernel's own SipHash self-test
     * expects on 64-bit (lib/siphash_kunit.c, test_vectors_hsiphash[4]).
     */
    @Test
    void hsiphashMatchesTheKernelsSelfTestVector() {
        assertEquals(0x88d38328L, KernelHash.hsiphash32(0x03020100, 0x0706050403020100L, 0x0f0e0d0c0b0a0908L));
    }

    /** hash_32 multiplies by GOLDEN_RATIO_32 and keeps the top bits (include/linux/hash.h). */
    @Test
    void hash32KeepsTheTopBitsOfTheGoldenRatioProduct() {
        assertEquals(0x61C88647 >>> 24, KernelHash.hash32(1, 8));
        assertEquals(141, KernelHash.hash32(KernelHash.fold(Rig.addr("198.18.0.100")), 8)); // Python model
        assertEquals(KernelHash.fold(Rig.addr("2001:db8::1")), 0x20010db8 ^ 1);
    }
}
