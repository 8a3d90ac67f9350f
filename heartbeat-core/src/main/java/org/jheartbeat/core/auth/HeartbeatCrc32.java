package org.jheartbeat.core.auth;

/**
 * Heartbeat's {@code crc} authentication digest: CRC-32 with polynomial 0x04C11DB7, processed
 * most-significant bit first, initial value 0, no input or output reflection, final complement, and
 * no message length appended (the "CRC-32/CKSUM" parameter set without {@code cksum}'s length
 * suffix). The check value for ASCII {@code "123456789"} is {@code 0x765e7680}. Behaviour as
 * Heartbeat 3.0.6 {@code lib/plugins/HBauth/crc.c}, reimplemented from the parameters alone.
 */
final class HeartbeatCrc32 {
    private static final int POLYNOMIAL = 0x04C11DB7;
    private static final int[] TABLE = buildTable();

    private HeartbeatCrc32() {
    }

    /**
     * Computes the digest of {@code data}.
     *
     * @param data the bytes to digest, any length
     * @return the 32-bit CRC as an unsigned value in {@code 0 .. 0xffffffffL}
     */
    static long compute(byte[] data) {
        int crc = 0;
        for (byte b : data) {
            crc = (crc << 8) ^ TABLE[((crc >>> 24) ^ b) & 0xff];
        }
        return ~crc & 0xffffffffL;
    }

    private static int[] buildTable() {
        int[] table = new int[256];
        for (int i = 0; i < 256; i++) {
            int c = i << 24;
            for (int bit = 0; bit < 8; bit++) {
                c = (c & 0x80000000) != 0 ? (c << 1) ^ POLYNOMIAL : c << 1;
            }
            table[i] = c;
        }
        return table;
    }
}
