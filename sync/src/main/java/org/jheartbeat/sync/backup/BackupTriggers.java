package org.jheartbeat.sync.backup;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.sync.config.CronSchedule;

/**
 * Pure rule of one backup's poll: whether this poll runs a snapshot, and why. Two triggers:
 * <ul>
 * <li>the disk was <em>inserted</em> ({@link InsertionTracker}): run, as before schedules existed;</li>
 * <li>the backup's {@code schedule:} fell due: run when the disk is present, else skip with a
 *     reason (the disk left the drawer, or another disk is there).</li>
 * </ul>
 * Fire times follow the replication scheduler's rule (docs/design/sync.md): the first fire time is
 * the first one after the moment the triggers were made; when a poll finds that time reached, the
 * next one is the first after <em>that poll's</em> time, so fire times missed while the daemon was
 * down or a long backup held the poller collapse into one run. A poll that is both an insertion
 * and a due time runs once. Time comes only from the caller ({@code now}), never from a clock.
 * Thread-safe (each call is synchronized), though one poller owns it.
 */
final class BackupTriggers {
    /** What a poll does. */
    enum Action {
        /** Nothing: no insertion and no due time. */
        NONE,
        /** Snapshot: the disk was just inserted. */
        RUN_INSERTED,
        /** Snapshot: a scheduled time came with the disk present. */
        RUN_SCHEDULED,
        /** A scheduled time came without the disk (missing or wrong): record and log the skip. */
        SKIP_SCHEDULED
    }

    /**
     * @param action what to do
     * @param due    the scheduled time that fell due at this poll, if one did
     */
    record Decision(Action action, Optional<Instant> due) {
        Decision {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(due, "due");
        }
    }

    private final InsertionTracker insertion = new InsertionTracker();
    private final Optional<CronSchedule> cron;
    private final ZoneId zone;
    private Instant nextFire;

    /**
     * @param cron  the backup's schedule; empty: insertion only
     * @param start the moment scheduling starts (the daemon's start); the first fire time is after it
     * @param zone  the zone cron fields are read in (the injected clock's)
     */
    BackupTriggers(Optional<CronSchedule> cron, Instant start, ZoneId zone) {
        this.cron = Objects.requireNonNull(cron, "cron");
        this.zone = Objects.requireNonNull(zone, "zone");
        this.nextFire = next(cron, start, zone).orElse(null);
    }

    /**
     * The first fire time of a schedule strictly after a moment.
     *
     * @param cron  a schedule, or empty
     * @param after the moment
     * @param zone  the zone cron fields are read in
     * @return the fire time, empty when there is no schedule or it never fires again
     */
    static Optional<Instant> next(Optional<CronSchedule> cron, Instant after, ZoneId zone) {
        return cron.flatMap(c -> c.nextAfter(ZonedDateTime.ofInstant(after, zone))).map(ZonedDateTime::toInstant);
    }

    /**
     * One poll.
     *
     * @param now  the poll's time (from the injected clock)
     * @param disk what the poll found
     * @return the decision; when a scheduled time fell due it is consumed whatever the decision
     */
    synchronized Decision poll(Instant now, DiskState disk) {
        boolean inserted = insertion.observe(disk);
        Optional<Instant> due = Optional.empty();
        if (nextFire != null && !now.isBefore(nextFire)) {
            due = Optional.of(nextFire);
            nextFire = next(cron, now, zone).orElse(null);
        }
        if (inserted) {
            return new Decision(Action.RUN_INSERTED, due);
        }
        if (due.isPresent()) {
            return new Decision(disk == DiskState.PRESENT ? Action.RUN_SCHEDULED : Action.SKIP_SCHEDULED, due);
        }
        return new Decision(Action.NONE, due);
    }

    /** @return the disk state the last poll found, {@code null} before the first */
    synchronized DiskState lastDisk() {
        return insertion.last();
    }

    /** @return the next scheduled time, empty without a schedule (or when it never fires again) */
    synchronized Optional<Instant> nextFire() {
        return Optional.ofNullable(nextFire);
    }
}
