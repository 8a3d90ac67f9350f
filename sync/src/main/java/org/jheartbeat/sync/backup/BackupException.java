package org.jheartbeat.sync.backup;

import java.util.Objects;

/**
 * A backup operation that could not be done, with one line for the user (no stack trace needed)
 * and how it is classified in {@link BackupState}.
 */
public final class BackupException extends Exception {
    private static final long serialVersionUID = 1L;
    private final BackupResult result;
    private final DiskState disk;

    /**
     * @param result  FAILED, FULL or REFUSED
     * @param disk    the disk state known when it happened
     * @param message one line for the user
     */
    public BackupException(BackupResult result, DiskState disk, String message) {
        super(message);
        this.result = Objects.requireNonNull(result, "result");
        this.disk = Objects.requireNonNull(disk, "disk");
    }

    /** @return how the operation ended */
    public BackupResult result() {
        return result;
    }

    /** @return the disk state known when it happened */
    public DiskState disk() {
        return disk;
    }
}
