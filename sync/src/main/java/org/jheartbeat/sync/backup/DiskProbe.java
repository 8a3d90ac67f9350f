package org.jheartbeat.sync.backup;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link BackupDisk#locate} found.
 *
 * @param state   MISSING, WRONG_DISK or PRESENT
 * @param device  the block device of the disk when PRESENT (or the wrong one when WRONG_DISK)
 * @param fsType  its filesystem type from blkid ({@code TYPE}), empty when unknown
 * @param message one line describing the finding, e.g. {@code disk LABEL=x is missing}
 */
public record DiskProbe(DiskState state, Optional<Path> device, String fsType, String message) {
    public DiskProbe {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(fsType, "fsType");
        Objects.requireNonNull(message, "message");
    }
}
