package org.jheartbeat.sync.config;

import java.util.Locale;
import java.util.Optional;

/**
 * What a backup's {@code paths} are ({@code profile:} of a backup in sync.yaml).
 */
public enum BackupProfile {
    /** Data directories (the default): copied as they are, {@code /} refused. */
    DATA,
    /**
     * A whole system: each path is one file system copied without crossing into others (rsync
     * {@code --one-file-system}), ACLs and extended attributes kept, the pseudo-file-system and
     * cache contents excluded, {@code /} accepted, and the disk layout recorded beside every snapshot.
     */
    SYSTEM;

    /** @return the word written in sync.yaml, e.g. {@code system} */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param word a {@code profile:} value
     * @return the profile, empty when the word names none
     */
    public static Optional<BackupProfile> of(String word) {
        for (BackupProfile p : values()) {
            if (p.word().equals(word.trim())) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
