package org.jheartbeat.core.media.serial;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link SendQueue}: bounded by bytes, drops the oldest frames, never blocks the sender. */
class SendQueueTest {

    @Test
    void whenFullTheOldestFramesAreDropped() throws Exception {
        SendQueue q = new SendQueue(10);
        q.offer(new byte[] {1, 1, 1, 1});
        q.offer(new byte[] {2, 2, 2, 2});

        assertThat(q.offer(new byte[] {3, 3, 3, 3})).isEqualTo(1);
        assertThat(q.dropped()).isEqualTo(1);
        assertThat(q.queuedBytes()).isEqualTo(8);
        assertThat(q.take()).containsExactly(2, 2, 2, 2);
        assertThat(q.take()).containsExactly(3, 3, 3, 3);
        assertThat(q.queuedBytes()).isZero();
    }

    @Test
    void aFrameLargerThanTheWholeQueueIsDroppedItself() {
        SendQueue q = new SendQueue(10);
        q.offer(new byte[] {1});

        assertThat(q.offer(new byte[11])).isEqualTo(1);
        assertThat(q.queuedBytes()).isEqualTo(1);
    }

    @Test
    void clearCountsWhatItDrops() {
        SendQueue q = new SendQueue(100);
        q.offer(new byte[3]);
        q.offer(new byte[3]);

        assertThat(q.clear()).isEqualTo(2);
        assertThat(q.dropped()).isEqualTo(2);
        assertThat(q.queuedBytes()).isZero();
    }
}
