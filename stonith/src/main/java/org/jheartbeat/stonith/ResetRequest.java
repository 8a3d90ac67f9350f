package org.jheartbeat.stonith;

/**
 * What a reset request asks a device to do, as cluster-glue's {@code ST_GENERIC_RESET} (1),
 * {@code ST_POWERON} (2), {@code ST_POWEROFF} (3) ({@code stonith.h}; facts stonith-sync §2.3).
 */
public enum ResetRequest {
    /** Reset the node any way the device can (power cycle). */
    GENERIC_RESET("reset"),
    /** Switch the node's power on. */
    POWER_ON("on"),
    /** Switch the node's power off. */
    POWER_OFF("off");

    private final String word;

    ResetRequest(String word) {
        this.word = word;
    }

    /** The word external plugins and {@code hb stonith} use: {@code reset}, {@code on}, {@code off}. */
    public String word() {
        return word;
    }
}
