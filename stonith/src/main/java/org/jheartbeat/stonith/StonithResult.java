package org.jheartbeat.stonith;

/**
 * Result of a STONITH operation, mirroring cluster-glue's {@code S_*} codes ({@code stonith.h};
 * facts stonith-sync §2.3): 0 OK, 1 BADCONFIG, 2 ACCESS, 3 INVAL, 4 BADHOST, 5 RESETFAIL,
 * 6 TIMEOUT, 7 ISOFF, 8 OOPS.
 */
public enum StonithResult {
    OK(0), BADCONFIG(1), ACCESS(2), INVAL(3), BADHOST(4), RESETFAIL(5), TIMEOUT(6), ISOFF(7), OOPS(8);

    private final int code;

    StonithResult(int code) {
        this.code = code;
    }

    /** The numeric {@code S_*} code. */
    public int code() {
        return code;
    }

    /** The result for a numeric code; unknown codes are {@link #OOPS}. */
    public static StonithResult fromCode(int code) {
        for (StonithResult r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return OOPS;
    }

    /** Whether the operation succeeded. */
    public boolean ok() {
        return this == OK;
    }
}
