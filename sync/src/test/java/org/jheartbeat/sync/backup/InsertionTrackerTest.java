package org.jheartbeat.sync.backup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InsertionTrackerTest {
    @Test
    void runsOncePerInsertion() {
        InsertionTracker t = new InsertionTracker();
        assertThat(t.observe(DiskState.MISSING)).isFalse();
        assertThat(t.observe(DiskState.PRESENT)).isTrue();
        assertThat(t.observe(DiskState.PRESENT)).isFalse();
        assertThat(t.observe(DiskState.PRESENT)).isFalse();
        assertThat(t.observe(DiskState.MISSING)).isFalse();
        assertThat(t.observe(DiskState.PRESENT)).isTrue();
        assertThat(t.observe(DiskState.WRONG_DISK)).isFalse();
        assertThat(t.observe(DiskState.PRESENT)).isTrue();
    }

    @Test
    void aDiskPresentAtTheFirstPollCountsAsInserted() {
        InsertionTracker t = new InsertionTracker();
        assertThat(t.last()).isNull();
        assertThat(t.observe(DiskState.PRESENT)).isTrue();
        assertThat(t.last()).isEqualTo(DiskState.PRESENT);
    }
}
