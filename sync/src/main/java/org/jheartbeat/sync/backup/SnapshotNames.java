package org.jheartbeat.sync.backup;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Pure rules for snapshot directory names on the backup disk: naming, ordering and which ones
 * rotation removes. The layout is {@code <mount>/jheartbeat/<backup>/<yyyy-MM-dd'T'HHmmss'Z'>/}
 * with the instant in UTC; a snapshot is built under the same name plus {@link #INCOMPLETE_SUFFIX}
 * and renamed when complete, so only names that {@link #parse} accepts are snapshots.
 */
public final class SnapshotNames {
    /** Suffix of the directory a snapshot is built in. */
    public static final String INCOMPLETE_SUFFIX = ".incomplete";
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private SnapshotNames() {
    }

    /**
     * @param instant when the snapshot is taken; truncated to seconds
     * @return the snapshot name, e.g. {@code 2026-11-29T221500Z}
     */
    public static String name(Instant instant) {
        return FORMAT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    /**
     * @param name a directory name
     * @return the instant a complete snapshot's name encodes; empty for anything else (including
     *         {@code .incomplete} directories and names that merely look similar)
     */
    public static Optional<Instant> parse(String name) {
        if (name.length() != 18) {
            return Optional.empty();
        }
        try {
            return Optional.of(FORMAT.parse(name, Instant::from));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * @param names directory names found in the backup's directory
     * @return the complete snapshot names among them, oldest first
     */
    public static List<String> snapshots(Collection<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (parse(n).isPresent()) {
                out.add(n);
            }
        }
        out.sort(Comparator.comparing(n -> parse(n).orElseThrow()));
        return out;
    }

    /**
     * @param names directory names found in the backup's directory
     * @return the newest complete snapshot, the {@code --link-dest} of the next run
     */
    public static Optional<String> newest(Collection<String> names) {
        List<String> s = snapshots(names);
        return s.isEmpty() ? Optional.empty() : Optional.of(s.get(s.size() - 1));
    }

    /**
     * Rotation choice, applied only after a new snapshot completed.
     *
     * @param names directory names found in the backup's directory (the new snapshot included)
     * @param keep  how many of the newest complete snapshots to keep, at least 1
     * @return the complete snapshots to delete, oldest first
     * @throws IllegalArgumentException if keep is below 1
     */
    public static List<String> toDelete(Collection<String> names, int keep) {
        if (keep < 1) {
            throw new IllegalArgumentException("keep must be at least 1: " + keep);
        }
        List<String> s = snapshots(names);
        return s.size() <= keep ? List.of() : List.copyOf(s.subList(0, s.size() - keep));
    }

    /**
     * @param names directory names found in the backup's directory
     * @return leftover build directories ({@code *.incomplete}) of interrupted runs
     */
    public static List<String> incomplete(Collection<String> names) {
        return names.stream().filter(n -> n.endsWith(INCOMPLETE_SUFFIX)).sorted().toList();
    }
}
