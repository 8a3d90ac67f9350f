package org.jheartbeat.core.wire;

import java.util.Optional;

/**
 * The type of a message field, written on the wire as the single digit in {@code (N)}, as
 * cluster-glue 1.0.12 {@code include/ha_msg.h} enum {@code cl_netstring_type}. Heartbeat's {@code
 * FT_UNCOMPRESS} (5) exists only in memory and is deliberately absent: on the wire it is an unknown
 * digit. R1 traffic uses only {@link #STRING} and {@link #BINARY}.
 */
public enum FieldType {
    /** {@code FT_STRING} (0): text without NUL. */
    STRING(0),
    /** {@code FT_BINARY} (1): raw bytes; base64 in the classic format. */
    BINARY(1),
    /** {@code FT_STRUCT} (2): a nested message; kept here as its raw encoded bytes. */
    STRUCT(2),
    /** {@code FT_LIST} (3): strings packed as {@code len:str,len:str,}. */
    LIST(3),
    /** {@code FT_COMPRESS} (4): a compressed nested message, kept as raw bytes. */
    COMPRESS(4);

    private final int digit;

    FieldType(int digit) {
        this.digit = digit;
    }

    /** The wire digit, 0..4. */
    public int digit() {
        return digit;
    }

    /**
     * Looks a type up by its wire digit.
     *
     * @param digit any int
     * @return the type, or empty for anything outside 0..4
     */
    public static Optional<FieldType> fromDigit(int digit) {
        for (FieldType t : values()) {
            if (t.digit == digit) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
