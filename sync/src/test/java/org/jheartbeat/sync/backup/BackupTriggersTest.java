package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.jheartbeat.sync.TestClock;
import org.jheartbeat.sync.backup.BackupTriggers.Action;
import org.jheartbeat.sync.backup.BackupTriggers.Decision;
import org.jheartbeat.sync.config.CronSchedule;
import org.junit.jupiter.api.Test;

/** When a backup runs, on a clock the test moves: insertion as before, and the schedule with the disk left in. */
class BackupTriggersTest {
    private final TestClock clock = new TestClock(Instant.parse("2026-12-06T01:00:00Z"));

    private BackupTriggers triggers(String cron) {
        return new BackupTriggers(Optional.ofNullable(cron).map(CronSchedule::parse), clock.instant(), ZoneOffset.UTC);
    }

    private Decision poll(BackupTriggers t, DiskState d) {
        return t.poll(clock.instant(), d);
    }

    @Test
    void withoutAScheduleOnlyAnInsertionRuns() {
        BackupTriggers t = triggers(null);
        assertThat(t.nextFire()).isEmpty();
        assertThat(poll(t, DiskState.PRESENT).action()).as("present at the first poll").isEqualTo(Action.RUN_INSERTED);
        clock.advance(Duration.ofDays(30));
        assertThat(poll(t, DiskState.PRESENT).action()).as("left in the drawer").isEqualTo(Action.NONE);
        assertThat(poll(t, DiskState.MISSING).action()).isEqualTo(Action.NONE);
        assertThat(poll(t, DiskState.PRESENT).action()).isEqualTo(Action.RUN_INSERTED);
    }

    @Test
    void aDiskLeftInTheDrawerIsSnapshottedAtEveryScheduledTime() {
        BackupTriggers t = triggers("0 3 * * *");
        assertThat(t.nextFire()).contains(Instant.parse("2026-12-06T03:00:00Z"));
        assertThat(poll(t, DiskState.PRESENT).action()).isEqualTo(Action.RUN_INSERTED);
        clock.set(Instant.parse("2026-12-06T02:59:59Z"));
        assertThat(poll(t, DiskState.PRESENT)).isEqualTo(new Decision(Action.NONE, Optional.empty()));
        clock.set(Instant.parse("2026-12-06T03:00:07Z"));
        assertThat(poll(t, DiskState.PRESENT)).isEqualTo(new Decision(Action.RUN_SCHEDULED,
                Optional.of(Instant.parse("2026-12-06T03:00:00Z"))));
        assertThat(t.nextFire()).contains(Instant.parse("2026-12-07T03:00:00Z"));
        clock.set(Instant.parse("2026-12-06T03:00:17Z"));
        assertThat(poll(t, DiskState.PRESENT).action()).as("once per fire time").isEqualTo(Action.NONE);
        clock.set(Instant.parse("2026-12-07T03:00:00Z"));
        assertThat(poll(t, DiskState.PRESENT).action()).as("exactly at the fire time").isEqualTo(Action.RUN_SCHEDULED);
    }

    @Test
    void aMissingOrWrongDiskAtTheScheduledTimeIsASkipAndAnInsertionStillRuns() {
        BackupTriggers t = triggers("0 3 * * *");
        assertThat(poll(t, DiskState.MISSING).action()).isEqualTo(Action.NONE);
        clock.set(Instant.parse("2026-12-06T03:00:05Z"));
        assertThat(poll(t, DiskState.MISSING)).isEqualTo(new Decision(Action.SKIP_SCHEDULED,
                Optional.of(Instant.parse("2026-12-06T03:00:00Z"))));
        clock.set(Instant.parse("2026-12-06T09:00:00Z"));
        assertThat(poll(t, DiskState.PRESENT).action()).as("inserted later").isEqualTo(Action.RUN_INSERTED);
        clock.set(Instant.parse("2026-12-07T03:00:01Z"));
        assertThat(poll(t, DiskState.WRONG_DISK).action()).isEqualTo(Action.SKIP_SCHEDULED);
    }

    @Test
    void missedFireTimesCollapseIntoOneRunAsForReplication() {
        BackupTriggers t = triggers("0 * * * *");
        poll(t, DiskState.PRESENT);
        clock.set(Instant.parse("2026-12-06T07:30:00Z")); // 02:00 … 07:00 all passed while the poller was busy
        assertThat(poll(t, DiskState.PRESENT)).isEqualTo(new Decision(Action.RUN_SCHEDULED,
                Optional.of(Instant.parse("2026-12-06T02:00:00Z"))));
        assertThat(t.nextFire()).contains(Instant.parse("2026-12-06T08:00:00Z"));
        assertThat(poll(t, DiskState.PRESENT).action()).isEqualTo(Action.NONE);
    }

    @Test
    void anInsertionAtAScheduledTimeRunsOnce() {
        BackupTriggers t = triggers("*/10 * * * * *");
        assertThat(poll(t, DiskState.MISSING).action()).isEqualTo(Action.NONE);
        clock.advance(Duration.ofSeconds(10));
        Decision d = poll(t, DiskState.PRESENT);
        assertThat(d.action()).isEqualTo(Action.RUN_INSERTED);
        assertThat(d.due()).contains(Instant.parse("2026-12-06T01:00:10Z"));
        assertThat(poll(t, DiskState.PRESENT).action()).as("the due time was consumed").isEqualTo(Action.NONE);
        clock.advance(Duration.ofSeconds(10));
        assertThat(poll(t, DiskState.PRESENT).action()).isEqualTo(Action.RUN_SCHEDULED);
    }
}
