package org.jheartbeat.core.media.serial;

import static org.assertj.core.api.Assertions.assertThat;

import org.jheartbeat.core.wire.Traffic;
import org.junit.jupiter.api.Test;

/**
 * {@link SendQueue}: bounded by bytes, drops the oldest frames, never blocks the sender; beats go first
 * and retransmissions are dropped first.
 */
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

    @Test
    void beatsGoFirstThenMessagesThenRetransmissions() throws Exception {
        SendQueue q = new SendQueue(100);
        byte[] rexmit = {9};
        byte[] message = {5};
        byte[] beat1 = {1};
        byte[] beat2 = {2};
        q.offer(rexmit, Traffic.RETRANSMISSION);
        q.offer(message, Traffic.MESSAGE);
        q.offer(beat1, Traffic.BEAT);
        q.offer(beat2, Traffic.BEAT);

        assertThat(q.take()).isSameAs(beat1);
        assertThat(q.take()).isSameAs(beat2);
        assertThat(q.take()).isSameAs(message);
        assertThat(q.poll()).isSameAs(rexmit);
        assertThat(q.poll()).isNull();
    }

    @Test
    void whenFullRetransmissionsAreDroppedFirstAndNeverPushOutAnythingElse() {
        SendQueue q = new SendQueue(10);
        q.offer(new byte[] {1, 1, 1}, Traffic.RETRANSMISSION);
        q.offer(new byte[] {2, 2, 2}, Traffic.BEAT);
        q.offer(new byte[] {3, 3, 3}, Traffic.RETRANSMISSION);

        assertThat(q.offer(new byte[] {4, 4, 4}, Traffic.MESSAGE)).as("the oldest retransmission goes").isEqualTo(1);
        assertThat(q.offer(new byte[] {5, 5, 5, 5, 5}, Traffic.RETRANSMISSION))
                .as("a retransmission that only fits by pushing out a beat or a message is dropped itself")
                .isEqualTo(1);
        assertThat(q.queuedBytes()).isEqualTo(9);
        assertThat(q.offer(new byte[] {6, 6, 6}, Traffic.BEAT)).as("then the other retransmission").isEqualTo(1);
        assertThat(q.offer(new byte[] {7, 7, 7}, Traffic.BEAT)).as("then the oldest message").isEqualTo(1);
        assertThat(q.dropped()).isEqualTo(4);
        assertThat(q.poll()).containsExactly(2, 2, 2);
        assertThat(q.poll()).containsExactly(6, 6, 6);
        assertThat(q.poll()).containsExactly(7, 7, 7);
        assertThat(q.poll()).isNull();
    }

    @Test
    void aRetransmissionAlreadyQueuedIsNotQueuedTwice() {
        SendQueue q = new SendQueue(100);
        byte[] frame = {1, 2, 3};
        q.offer(frame, Traffic.RETRANSMISSION);

        assertThat(q.offer(frame.clone(), Traffic.RETRANSMISSION)).isZero();
        assertThat(q.queuedBytes()).isEqualTo(3);
        assertThat(q.dropped()).isZero();
    }

    /**
     * The flood of the long run (seed 24322): a 19200 baud line, its queue of 4 s of line time full of
     * retransmissions asked for every 250 ms; a beat offered then is the next frame written, so it waits
     * for at most the frame on the line, not for the backlog (before: 4 s, more than a 3 s deadtime).
     */
    @Test
    void aBeatOfferedBehindAFullLineOfRetransmissionsIsWrittenNext() {
        SendQueue q = new SendQueue(SerialMedium.sendQueueBytes(19200));
        for (int i = 0; i < 200; i++) {
            q.offer(new byte[250], Traffic.RETRANSMISSION);
        }
        assertThat(q.queuedBytes()).as("bounded: 4 s at 19200 baud").isLessThanOrEqualTo(4 * 1920);
        byte[] beat = new byte[200];
        assertThat(q.offer(beat, Traffic.BEAT)).isZero();
        assertThat(q.poll()).isSameAs(beat);
    }
}
