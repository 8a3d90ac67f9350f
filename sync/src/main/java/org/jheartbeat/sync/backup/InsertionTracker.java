package org.jheartbeat.sync.backup;

/**
 * Pure rule of the poller: a backup runs once when its disk is <em>inserted</em>, that is when a
 * poll sees it PRESENT after it was not (MISSING, WRONG_DISK, or not yet polled: a disk already
 * present when the daemon starts counts as inserted). It does not run again, whatever the result,
 * until a poll has seen the disk gone and then back; a disk left in the drawer is therefore not
 * snapshotted every poll interval. Not thread-safe: one poller owns it.
 */
final class InsertionTracker {
    private DiskState last;

    /**
     * @param now the disk state this poll found
     * @return true when this poll is an insertion and a backup should run
     */
    boolean observe(DiskState now) {
        boolean inserted = now == DiskState.PRESENT && last != DiskState.PRESENT;
        last = now;
        return inserted;
    }

    /** @return the state of the last poll, {@code null} before the first */
    DiskState last() {
        return last;
    }
}
