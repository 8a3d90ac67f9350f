package org.jheartbeat.sync.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One removable-disk backup of {@code sync.yaml} ({@code backups:}). Whenever the disk is inserted,
 * and at each {@code schedule:} time while it is present, the daemon checks and mounts it, takes an incremental hard-linked snapshot of {@code paths}, keeps
 * the newest {@code keep} snapshots, verifies, and unmounts. Exactly one of label and uuid is set.
 *
 * @param name          backup name ({@code [A-Za-z0-9_.-]+})
 * @param label         filesystem label that identifies the disk
 * @param uuid          filesystem UUID that identifies the disk
 * @param device        optional device path of the drawer: a disk found there with another
 *                      label/UUID is reported as the wrong disk
 * @param mountPoint    absolute directory the disk is mounted on while a backup runs
 * @param paths         absolute source directories
 * @param keep          snapshots kept (at least 1)
 * @param poll          disk presence poll interval
 * @param fsck          run {@code e2fsck -p} before mounting
 * @param rsyncOptions  extra rsync options
 * @param line          1-based line of sync.yaml where the backup starts (0 when built in code)
 * @param schedule      cron expression ({@link CronSchedule}, as a replication job's
 *                      {@code schedule:}) at which a snapshot is also taken while the disk stays in
 *                      the drawer; empty: only on insertion (and by hand)
 * @param profile       what the paths are: data directories or a whole system
 */
public record BackupSpec(String name, Optional<String> label, Optional<String> uuid, Optional<Path> device,
                         Path mountPoint, List<Path> paths, int keep, Duration poll, boolean fsck,
                         List<String> rsyncOptions, int line, Optional<String> schedule, BackupProfile profile) {

    /** Default {@code keep}. */
    public static final int DEFAULT_KEEP = 7;
    /** Default {@code poll}. */
    public static final Duration DEFAULT_POLL = Duration.ofSeconds(10);

    public BackupSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(uuid, "uuid");
        if (label.isPresent() == uuid.isPresent()) {
            throw new IllegalArgumentException("exactly one of label and uuid must be set");
        }
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(mountPoint, "mountPoint");
        paths = List.copyOf(paths);
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be at least 1");
        }
        Objects.requireNonNull(poll, "poll");
        rsyncOptions = List.copyOf(rsyncOptions);
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(profile, "profile");
    }

    /** A data backup taken on insertion only (no {@code schedule:}). */
    public BackupSpec(String name, Optional<String> label, Optional<String> uuid, Optional<Path> device,
                      Path mountPoint, List<Path> paths, int keep, Duration poll, boolean fsck,
                      List<String> rsyncOptions, int line) {
        this(name, label, uuid, device, mountPoint, paths, keep, poll, fsck, rsyncOptions, line, Optional.empty(),
                BackupProfile.DATA);
    }

    /** @return true for a whole-system backup ({@code profile: system}) */
    public boolean system() {
        return profile == BackupProfile.SYSTEM;
    }

    /** How the disk is named in messages: {@code LABEL=x} or {@code UUID=x} (blkid's token form). */
    public String diskToken() {
        return label.map(l -> "LABEL=" + l).orElseGet(() -> "UUID=" + uuid.orElseThrow());
    }
}
