package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** reqnodes every second from the first contact until repnodes; comm up once, by answer or by death. */
class CommUpHandshakeTest {
    static final long S = 1_000_000_000L;
    final CommUpHandshake h = new CommUpHandshake();

    @Test
    void reqnodesRepeatsEverySecondUntilTheAnswerBringsCommUpOnce() {
        assertThat(h.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(h.onFirstContact(5 * S)).isTrue();
        assertThat(h.requestDue(5 * S + S - 1)).isFalse();
        assertThat(h.requestDue(6 * S)).isTrue();
        assertThat(h.nextDeadlineNanos()).isEqualTo(7 * S);
        assertThat(h.onReplyNodes()).isTrue();
        assertThat(h.isUp()).isTrue();
        assertThat(h.onReplyNodes()).as("only once").isFalse();
        assertThat(h.requestDue(100 * S)).isFalse();
        assertThat(h.onFirstContact(100 * S)).as("a restarted peer: comm stays up").isFalse();
    }

    @Test
    void aPeerDeadBeforeItAnsweredBringsCommUpToo() {
        h.onFirstContact(0);
        assertThat(h.onPeerDead()).isTrue();
        assertThat(h.nextDeadlineNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(h.onPeerDead()).isFalse();
    }
}
