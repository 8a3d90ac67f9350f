package org.jheartbeat.sync.backup;

/** How the last backup run ended. */
public enum BackupResult {
    /** No run yet. */
    NEVER,
    /** A snapshot was taken and verified. */
    OK,
    /** The run failed (rsync error, verification difference, mount failure, ...). */
    FAILED,
    /** The disk filled up: no snapshot taken, earlier ones intact. */
    FULL,
    /** The run did not start: disk missing or wrong, fsck found errors, already running, ... */
    REFUSED
}
