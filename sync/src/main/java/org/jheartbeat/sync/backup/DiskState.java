package org.jheartbeat.sync.backup;

/** Whether a backup's disk can be seen, as found by {@code blkid}. */
public enum DiskState {
    /** No filesystem with the configured label/UUID, and nothing at the configured device. */
    MISSING,
    /** The configured device holds a filesystem with another label/UUID. */
    WRONG_DISK,
    /** A filesystem with the configured label/UUID was found. */
    PRESENT
}
